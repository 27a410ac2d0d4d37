package app

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The producer form's Key names box writes the learner's own keys: a list
// as keylist= (in place of keyspace=, each key trimmed of the space after
// its comma), a pattern with {n} as key=, nothing when it is empty or the
// producer sends no keys. Every line it writes parses.
func TestProducerFormWritesTheLearnersKeys(t *testing.T) {
	topics := []TopicSnapshot{{Name: "payments", Partitions: make([]PartitionSnapshot, 3)}}
	for _, tc := range []struct {
		name, keys, keyNames, want string
	}{
		{"a list drawn uniformly", "uniform", "acct-1, acct-2 ,acct-3", "producer web payments rate=10/s keys=uniform keylist=acct-1,acct-2,acct-3"},
		{"a list with zipf skew", "zipf", "tenant-a,tenant-b", "producer web payments rate=10/s keys=zipf exponent=1 keylist=tenant-a,tenant-b"},
		{"a list gone round", "sequence", "north,south east", `producer web payments rate=10/s keys=sequence keylist="north,south east"`},
		{"a pattern", "uniform", " tenant-{n} ", "producer web payments rate=10/s keys=uniform keyspace=100 key=tenant-{n}"},
		{"a pattern in sequence", "sequence", "order-{n}", "producer web payments rate=10/s keys=sequence key=order-{n}"},
		{"no names", "zipf", "  ", "producer web payments rate=10/s keys=zipf keyspace=100 exponent=1"},
		{"no keys at all", "none", "acct-1", "producer web payments rate=10/s keys=none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &WorkloadControls{Topics: topics}
			w.OnInit()
			w.keys, w.keyNames = tc.keys, tc.keyNames
			lines, problem := w.ProducerLines()
			if problem != "" || strings.Join(lines, "\n") != tc.want {
				t.Fatalf("lines %q (%s), want %q", lines, problem, tc.want)
			}
			parseOne(t, lines[0])
		})
	}
}

// The box is on the form with a help a learner reads, and a list turns
// the keyspace off: the list is the keyspace. Without keys it is off.
func TestProducerFormShowsTheKeyNamesBox(t *testing.T) {
	w := &WorkloadControls{Topics: []TopicSnapshot{{Name: "payments"}}}
	d := app.NewClientTester(w)
	defer d.Close()
	page := html.UnescapeString(app.HTMLString(w))
	for _, want := range []string{`<label for="producer-key-names">Key names</label>`, `aria-describedby="producer-key-names-help"`,
		`id="producer-key-names-help"`, "acct-1,acct-2,acct-3", "tenant-{n}"} {
		if !strings.Contains(page, want) {
			t.Errorf("the form lacks %q:\n%s", want, page)
		}
	}
	if disabled(page, "producer-keyspace") || disabled(page, "producer-key-names") {
		t.Error("with keys=uniform and no names, the keyspace and the names are both to fill")
	}
	w.keyNames = "acct-1,acct-2"
	w.Update()
	d.Consume()
	if page := app.HTMLString(w); !disabled(page, "producer-keyspace") {
		t.Error("a list of keys is the keyspace: the keyspace box stays on")
	}
	w.keys = "none"
	w.Update()
	d.Consume()
	if page := app.HTMLString(w); !disabled(page, "producer-key-names") {
		t.Error("a producer without keys has no key names: the box stays on")
	}
}

// disabled reports whether the page's element of that id is disabled:
// go-app writes disabled="true" or a bare disabled on a first render and
// an update, disabled="false" for one that is not.
func disabled(page, id string) bool {
	for _, tag := range tagsWith(page, "id", id) {
		return htmlDisabled.MatchString(tag)
	}
	return false
}

var htmlDisabled = regexp.MustCompile(` disabled(="true")?[ >]`)

// The picture's producers' column says which keys a workload sends when
// it names them: a list's first few, or its pattern.
func TestProducerColumnSaysTheWorkloadsOwnKeys(t *testing.T) {
	s := &ProducerColumn{Workloads: []scenario.Workload{
		{Producer: true, Name: "hot", Topic: "payments", Keys: "zipf", KeyList: []string{"acct-1", "acct-2", "acct-3", "acct-4", "acct-5"}},
		{Producer: true, Name: "rr", Topic: "payments", Keys: "sequence", KeyList: []string{"north", "south"}},
		{Producer: true, Name: "ten", Topic: "payments", Keys: "uniform", KeyPattern: "tenant-{n}"},
		{Producer: true, Name: "web", Topic: "payments", Keys: "uniform"},
	}}
	d := app.NewClientTester(s)
	defer d.Close()
	page := html.UnescapeString(app.HTMLString(s))
	for _, want := range []string{
		"payments · a few hot keys from acct-1, acct-2, acct-3 and 2 more · ",
		"payments · keys in sequence from north, south · ",
		"payments · random keys like tenant-{n} · ",
		"payments · random keys · ",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the column lacks %q:\n%s", want, page)
		}
	}
}
