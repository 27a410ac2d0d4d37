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

// clusterPage is what the page draws of a session's cluster: the broker
// strip, and for each partition its replicas on its lane and in the
// inspector.
func clusterPage(s *scenario.Session) string {
	snap := replicaSnapshotOf(s)
	var down []int
	for _, b := range snap.Brokers {
		if b.Down {
			down = append(down, b.ID)
		}
	}
	page := app.HTMLString(&BrokerStrip{Brokers: snap.Brokers, LagMaxMs: snap.LagMaxMs})
	for _, topic := range s.Log().TopicNames() {
		n, _ := s.Log().Partitions(topic)
		for p := range n {
			if r, ok := snap.Lanes[laneKey(topic, p)]; ok {
				page += app.HTMLString(app.Div().Body(laneReplicas(r, down), replicaDetails(r)))
			}
		}
	}
	return page
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
	view := clusterPage(s)
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
	view = clusterPage(s)
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
