package app

import (
	"fmt"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

func TestWindowAtFitsTheList(t *testing.T) {
	for _, tc := range []struct {
		start, size, total int
		want               listWindow
		end                int
		partial            bool
	}{
		{0, 10, 3, listWindow{0, 10, 3}, 3, false},
		{5, 10, 3, listWindow{0, 10, 3}, 3, false},
		{0, 10, 25, listWindow{0, 10, 25}, 10, true},
		{20, 10, 25, listWindow{15, 10, 25}, 25, true},
		{-10, 10, 25, listWindow{0, 10, 25}, 10, true},
		{10, 10, 25, listWindow{10, 10, 25}, 20, true},
	} {
		t.Run(fmt.Sprintf("windowAt(%d, %d, %d)", tc.start, tc.size, tc.total), func(t *testing.T) {
			w := windowAt(tc.start, tc.size, tc.total)
			if w != tc.want || w.end() != tc.end || w.partial() != tc.partial {
				t.Errorf("windowAt(%d, %d, %d) = %+v (end %d, partial %v), want %+v (end %d, partial %v)",
					tc.start, tc.size, tc.total, w, w.end(), w.partial(), tc.want, tc.end, tc.partial)
			}
		})
	}
}

// numberedLines writes line once for each i in [0, n), with %d as i.
func numberedLines(n int, line string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, line+"\n", i)
	}
	return b.String()
}

// However big the scenario a link asks for, the page draws a bounded
// number of components: go-app stops for good when it mounts a few
// thousand at once. Each long list draws its window and says how many items
// it holds; small scenarios draw everything, with no window.
func TestBigScenariosDrawABoundedPage(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		window       string // the [data-window] expected, with its total
		total        int
		count        string // what is drawn of the list, at most shown
		shown        int
	}{
		{"1,000 partitions of 3 replicas", "brokers 3\ntopic t partitions=1000 replication.factor=3\n", "lanes-t", 1000, "data-replicas-of", lanesShown},
		{"250 groups", "topic t\n" + numberedLines(250, "join g%d m topics=t"), "groups", 250, `class="group"`, groupsShown},
		{"1,400 topics", numberedLines(1400, "topic t%d"), "topics", 1400, `class="topic"`, topicsShown},
		{"600 members", "topic t partitions=4\n" + numberedLines(600, "join g m%d topics=t"), "members-g", 600, "data-member=", membersShown},
		{"1,000 partitions", "topic t partitions=1000\n", "lanes-t", 1000, `class="lane"`, lanesShown},
		{"a group reading 1,000 partitions", "topic t partitions=1000\njoin g m topics=t\n", "lag-g", 1000, "data-lag-of=", lagRowsShown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, d := mountAt(t, mustLink(t, tc.script))
			if len(p.view.Groups) > 0 {
				// The page is biggest with a group open in the inspector.
				d.Context().NewActionWithValue(selectAction, selection{Kind: selectGroup, Group: p.view.Groups[0].Name})
				d.Consume()
			}
			page := app.HTMLString(p)
			if p.err != "" {
				t.Errorf("%s: the page says %q", tc.name, p.err)
			}
			nav := tagsWith(page, "data-window", tc.window)
			if len(nav) != 1 || !strings.Contains(nav[0], fmt.Sprintf(`data-total="%d"`, tc.total)) {
				t.Errorf("%s: window %q: %q, want one of %d items", tc.name, tc.window, nav, tc.total)
			}
			if n := strings.Count(page, tc.count); n == 0 || n > tc.shown {
				t.Errorf("%s: %d of %q drawn, want 1 to %d", tc.name, n, tc.count, tc.shown)
			}
			if n := strings.Count(page, `data-chart="records"`); n > chartTopicsShown {
				t.Errorf("%s: %d topics charted", tc.name, n)
			}
			// Help buttons are the most numerous components.
			if n := strings.Count(page, "data-help="); n > 300 {
				t.Errorf("%s: %d help buttons drawn", tc.name, n)
			}
		})
	}

	// A group with commits on a thousand partitions charts the first few (two
	// samples, so that each partition draws a line rather than a dot).
	p, d := mountAt(t, mustLink(t, "topic t partitions=1000\nproduce t value=v count=10000\njoin g m topics=t\nadvance 3s\npoll g m max=10000\ncommit g m\nadvance 1s\n"))
	page := inspect(t, p, d, selection{Kind: selectGroup, Group: "g"})
	if n := len(tagsWith(page, "data-chart", "lag", "data-chart-group", "g")); n != 1 {
		t.Fatalf("%d lag charts of g", n)
	}
	if n := strings.Count(page, "<polyline"); n != 1+lagPartitionsShown {
		t.Errorf("the lag chart draws %d lines, want the total and %d partitions", n, lagPartitionsShown)
	}
	if !strings.Contains(page, "988 more partitions are not drawn") {
		t.Error("the lag chart does not say how many partitions it leaves out")
	}

	p, _ = mountAt(t, mustLink(t, "brokers 3\ntopic t partitions=3 replication.factor=3\njoin g m topics=t\n"))
	if page := app.HTMLString(p); strings.Contains(page, "data-window=") {
		t.Error("a small scenario draws a window")
	}
}

// The window moves a page at a time, and what the last produce landed in
// is drawn wherever the window is.
func TestTopicWindowMovesAndShowsTheLanding(t *testing.T) {
	l := &TopicList{}
	for i := range 25 {
		l.Topics = append(l.Topics, TopicSnapshot{Name: fmt.Sprintf("t%02d", i), Partitions: []PartitionSnapshot{{Topic: fmt.Sprintf("t%02d", i)}}})
	}
	if got := l.shownTopics(); len(got) != topicsShown || got[0] != 0 {
		t.Fatalf("shown %v, want the first %d", got, topicsShown)
	}
	l.topicStart = 20
	if got := l.shownTopics(); len(got) != topicsShown || got[0] != 15 || got[topicsShown-1] != 24 {
		t.Fatalf("at 20, shown %v, want the last %d", got, topicsShown)
	}
	l.Landing = Landing{Lanes: []LandedRange{{Topic: "t03"}}}
	if got := l.shownTopics(); len(got) != topicsShown+1 || got[0] != 3 {
		t.Fatalf("after a produce to t03, shown %v", got)
	}
}

// The lanes' replicas are snapshotted topic by topic in name order, up to
// lanesShown partitions a topic, until laneReplicasShown replicas.
func TestLaneReplicasAcrossTopics(t *testing.T) {
	p, _ := mountAt(t, mustLink(t, "brokers 3\ntopic b partitions=10 replication.factor=2\ntopic a partitions=10 replication.factor=3\n"))
	snap := replicaSnapshotOf(p.session)
	if len(snap.Lanes) != 20 {
		t.Errorf("%d lanes with replicas, want all 20", len(snap.Lanes))
	}
	if r := snap.Lanes[laneKey("a", 9)]; len(r.Replicas) != 3 || r.Topic != "a" || r.Partition != 9 {
		t.Errorf("a/9: %+v, want its 3 replicas", r)
	}
	p, _ = mountAt(t, mustLink(t, "brokers 3\ntopic a partitions=300 replication.factor=3\n"))
	if snap := replicaSnapshotOf(p.session); len(snap.Lanes) != lanesShown {
		t.Errorf("a topic of 300 partitions has %d lanes with replicas, want the %d it draws", len(snap.Lanes), lanesShown)
	}
	p, _ = mountAt(t, mustLink(t, "brokers 100\ntopic a partitions=300 replication.factor=100\ntopic b partitions=2 replication.factor=100\n"))
	snap = replicaSnapshotOf(p.session)
	if want := (laneReplicasShown + 99) / 100; len(snap.Lanes) != want { // the lane that reaches the bound is drawn
		t.Errorf("with 100 replicas a partition, %d lanes have replicas, want %d", len(snap.Lanes), want)
	}
	if _, ok := snap.Lanes[laneKey("b", 0)]; ok {
		t.Error("b/0 has replicas though the budget went to a")
	}
}

// A window moves to what the learner just created, wherever it was; what
// was there before, and removals, leave it where it is.
func TestFollowNewShowsWhatWasJustCreated(t *testing.T) {
	names := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("t%02d", i))
		}
		return out
	}
	start, known := followNew(0, 10, names(25), nil)
	if start != 0 || len(known) != 25 {
		t.Fatalf("first render: start %d, %d known", start, len(known))
	}
	start, known = followNew(start, 10, append(names(25), "zz"), known)
	if start != 25 || !known["zz"] {
		t.Errorf("after zz was created, the window starts at %d, want 25", start)
	}
	start, _ = followNew(start, 10, names(25), known)
	if start != 25 {
		t.Errorf("a removal moved the window to %d", start)
	}
	start, known = followNew(3, 10, names(25), nil)
	if start, _ = followNew(start, 10, append([]string{"a"}, names(25)...), known); start != 0 {
		t.Errorf("a topic created before the window: start %d, want 0", start)
	}
	// Within the window, it stays where it is.
	_, known = followNew(0, 10, names(25), nil)
	if start, _ = followNew(0, 10, append(names(5), append([]string{"t04a"}, names(25)[5:]...)...), known); start != 0 {
		t.Errorf("a topic created inside the window moved it to %d", start)
	}
}
