package app

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

var helpOf = regexp.MustCompile(`data-help="([^"]+)"`)

// helpsIn lists the help topics a page offers, without repeats, sorted.
func helpsIn(page string) []string {
	var topics []string
	for _, m := range helpOf.FindAllStringSubmatch(page, -1) {
		if !slices.Contains(topics, m[1]) {
			topics = append(topics, m[1])
		}
	}
	slices.Sort(topics)
	return topics
}

// The replication view puts a help next to each concept it shows: brokers,
// replicas, the leader, the ISR, min.insync.replicas, the high watermark
// and acks; an offline partition explains what offline means, and unclean
// election when its reason names it. Every topic it offers is written.
func TestReplicaViewHelps(t *testing.T) {
	s, err := scenario.Load(`topic orders replication.factor=3 min.insync.replicas=2
produce orders value=a count=3 acks=all
advance 1s
produce orders value=lost acks=1
broker crash 1
`)
	if err != nil {
		t.Fatal(err)
	}
	view := app.HTMLString(&ReplicaView{Cluster: replicaSnapshotOf(s, 0)})
	want := []string{"acks", "broker", "high-watermark", "isr", "leader", "min-insync-replicas", "replica"}
	if got := helpsIn(view); !slices.Equal(got, want) {
		t.Errorf("a partition with a leader offers help on %v, want %v", got, want)
	}
	// One leader help per partition: only the leader's replica has one.
	if n := strings.Count(view, `data-help="leader"`); n != 1 {
		t.Errorf("%d leader helps for one partition", n)
	}

	for _, line := range []string{"broker crash 2", "broker crash 3"} {
		if _, err := s.Apply(line); err != nil {
			t.Fatal(err)
		}
	}
	view = app.HTMLString(&ReplicaView{Cluster: replicaSnapshotOf(s, 0)})
	offline := view[strings.Index(view, `class="offline"`):]
	offline = offline[:strings.Index(offline, "</p>")]
	if got := helpsIn(offline); !slices.Equal(got, []string{"offline-partition", "unclean-election"}) {
		t.Errorf("the offline note offers help on %v, want offline-partition and unclean-election", got)
	}
	if strings.Contains(view, `data-help="leader"`) {
		t.Error("an offline partition has no leader to explain")
	}
	for _, topic := range helpsIn(view) {
		if _, ok := helpTopics[topic]; !ok {
			t.Errorf("the view offers help on %q, which has no text", topic)
		}
	}
}
