package app

import (
	"slices"
	"testing"

	"plog/core"
	"plog/core/scenario"
)

// The forms' topics stay the same slice while no topic's name, partitions
// or configs change, so that go-app's comparison of a form's fields is at
// once; a produce does not change them, a new partition or config does.
func TestFormTopicsAreKeptWhileUnchanged(t *testing.T) {
	s, err := scenario.Load("topic t partitions=3\n")
	if err != nil {
		t.Fatal(err)
	}
	topics := func() []TopicSnapshot {
		view, err := snapshotOf(s, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return view.Topics
	}
	kept := keepFormTopics(nil, topics())
	if len(kept) != 1 || len(kept[0].Partitions) != 3 {
		t.Fatalf("form topics %+v, want t with 3 partitions", kept)
	}
	for _, tc := range []struct {
		line string
		same bool
	}{
		{"produce t key=k value=v", true},
		{"advance 1s", true},
		{"partitions t count=4", false},
		{"config topic t retention.ms=1000", false},
		{"topic u", false},
	} {
		if _, err := s.Apply(tc.line); err != nil {
			t.Fatal(err)
		}
		next := keepFormTopics(kept, topics())
		if same := &next[0] == &kept[0] && len(next) == len(kept); same != tc.same {
			t.Errorf("after %q the forms' topics are the same slice: %v, want %v", tc.line, same, tc.same)
		}
		kept = next
	}
	if !slices.Contains(kept[0].Configs, core.ConfigEntry{Name: "retention.ms", Value: "1s"}) {
		t.Errorf("the forms' topic t has configs %+v, want retention.ms=1s among them", kept[0].Configs)
	}
}
