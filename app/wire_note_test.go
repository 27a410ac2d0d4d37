package app

import (
	"strings"
	"testing"

	"plog/core/scenario"
)

// A transaction with nothing in it sends no EndTxn under rules 5: the note
// says so, and that the epoch stays; under rules 4 the coordinator ended it
// and the note gives the bumped epoch.
func TestWireNoteOfAnEmptyTransaction(t *testing.T) {
	for _, tc := range []struct{ rules, want string }{
		{"", "so the producer sent no EndTxn (Kafka 4.4): no marker, and producer id 0 keeps epoch 0."},
		{"rules 4\n", "t's transaction ended: committed; producer id 0's epoch is now 1"},
	} {
		s, err := scenario.Load(tc.rules + "topic out\nproducer-config t transactional.id=tx\ntxn t init\ntxn t begin\n")
		if err != nil {
			t.Fatal(err)
		}
		events, err := s.Apply("txn t commit")
		if err != nil {
			t.Fatal(err)
		}
		lines := wireLinesOf(events)
		if len(lines) != 1 || !strings.Contains(lines[0].Text, tc.want) {
			t.Errorf("%q: the note %+v, want one line with %q", tc.rules, lines, tc.want)
		}
	}
}

// A transaction's end writes its marker, named with its article: "a
// COMMIT marker", "an ABORT marker".
func TestWireNoteNamesTheMarker(t *testing.T) {
	for _, end := range []string{"commit", "abort"} {
		s, err := scenario.Load("topic out\nproducer-config t transactional.id=tx\ntxn t init\ntxn t begin\nproduce out producer=t value=v partition=0\n")
		if err != nil {
			t.Fatal(err)
		}
		events, err := s.Apply("txn t " + end)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"commit": "wrote a COMMIT marker to out/0", "abort": "wrote an ABORT marker to out/0"}[end]
		var texts []string
		for _, l := range wireLinesOf(events) {
			texts = append(texts, l.Text)
		}
		if !strings.Contains(strings.Join(texts, "\n"), want) {
			t.Errorf("txn t %s: the note says %q, want %q", end, texts, want)
		}
	}
}
