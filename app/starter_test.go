package app

import (
	"html"
	"strconv"
	"strings"
	"testing"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// mountFirstVisit mounts the page at the bare address in a browser that
// has saved nothing.
func mountFirstVisit(t *testing.T) (*MemoryBrowser, *Playground, app.ClientDispatcher) {
	t.Helper()
	b := useBrowser(t)
	p := newTestPlayground()
	d := app.NewClientTester(p)
	t.Cleanup(d.Close)
	d.Consume()
	return b, p, d
}

// A first visit opens on a small system at work, whose note says what the
// picture shows from the state itself: the assignors' split of the lanes.
// A step of the learner's ends the note; going back to the start shows it
// again.
func TestFirstVisitOpensTheStarter(t *testing.T) {
	_, p, d := mountFirstVisit(t)
	if p.link != starterFragment() {
		t.Fatalf("the first visit opened %q, want the starter", p.link)
	}
	if len(p.view.Topics) != 1 || p.view.Topics[0].Name != "orders" || len(p.view.Topics[0].Partitions) != 3 {
		t.Fatalf("the starter's topics: %+v", p.view.Topics)
	}
	if len(p.view.Groups) != 1 || p.view.Groups[0].State != core.GroupStable {
		t.Fatalf("the starter's group is not stable: %+v", p.view.Groups)
	}
	page := app.HTMLString(p)
	for _, want := range []string{`data-starter`, "c1 reads partitions 0 and 1, c2 reads partition 2", "▶ Play", "Producer shop"} {
		if !strings.Contains(page, want) {
			t.Errorf("the first visit's page lacks %q", want)
		}
	}
	if n := len(p.workloads()); n != 3 {
		t.Errorf("the starter runs %d workloads, want a producer and two consumers", n)
	}

	Apply(d.Context(), "advance 2s")
	d.Consume()
	page = app.HTMLString(p)
	if strings.Contains(page, `data-starter`) {
		t.Error("the starter's note stays after the learner's step")
	}
	if !strings.Contains(page, `data-read-member=`) {
		t.Error("two seconds of the starter's workloads read nothing, or the page does not say so")
	}
	d.Context().NewActionWithValue(historyAction, historyMove{Kind: "undo"})
	d.Consume()
	if !strings.Contains(app.HTMLString(p), `data-starter`) {
		t.Error("back at the starter's last step, its note does not show")
	}
}

// A browser that saved a workspace reopens it, even an empty one the
// learner started: the starter is for a first visit only.
func TestSavedEmptyWorkspaceIsNotReplacedByTheStarter(t *testing.T) {
	b := useBrowser(t)
	if err := b.SaveItem(workspaceKey, `{"id":"mine","fragment":""}`); err != nil {
		t.Fatal(err)
	}
	p := newTestPlayground()
	d := app.NewClientTester(p)
	defer d.Close()
	d.Consume()
	if p.link != "" || len(p.view.Topics) != 0 {
		t.Errorf("a saved empty workspace opened %q with %d topics, want it empty", p.link, len(p.view.Topics))
	}
}

// What a poll read is said member by member, a partition's run of offsets
// a line.
func TestReadLinesGatherDeliveriesByMemberAndPartition(t *testing.T) {
	delivered := func(member string, partition int, offset int64) core.Event {
		return core.Event{Kind: core.EventDelivered, Group: "g", Member: member, Topic: "t", Partition: partition, Offset: offset}
	}
	got := readLinesOf([]core.Event{
		delivered("c1", 0, 4), delivered("c1", 0, 5), delivered("c2", 1, 0),
		{Kind: core.EventProduced, Topic: "t", Partition: 0},
		delivered("c1", 0, 6),
	})
	want := []ReadLine{
		{Group: "g", Member: "c1", Topic: "t", Partition: 0, From: 4, To: 6, Count: 3},
		{Group: "g", Member: "c2", Topic: "t", Partition: 1, From: 0, To: 0, Count: 1},
	}
	if len(got) != len(want) {
		t.Fatalf("read lines %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// The starter's producer is drawn in the picture, where its records come
// from, not only named in the note.
func TestStarterDrawsItsProducer(t *testing.T) {
	_, p, _ := mountFirstVisit(t)
	tags := tagsWith(app.HTMLString(p), "data-workload-producer", "shop")
	if len(tags) != 1 {
		t.Fatalf("the producers' column draws %d producers named shop", len(tags))
	}
	columns := tagsWith(app.HTMLString(p), "class", "producer-column")
	if len(columns) != 1 {
		t.Fatalf("%d producers' columns", len(columns))
	}
	for _, tag := range columns {
		if strings.Contains(tag, " hidden") {
			t.Errorf("the producers' column is hidden: %s", tag)
		}
	}
}

// A lesson's start says what its picture shows, from the state: its
// topics, who writes and who reads; the learner's first step ends it, and
// going back to the start brings it again.
func TestLessonStartSaysWhatThePictureShows(t *testing.T) {
	p, d := mountAt(t, "lesson=transactions")
	d.Consume()
	page := html.UnescapeString(app.HTMLString(p))
	for _, want := range []string{
		`data-lesson-start="transactions"`,
		"Topics orders (2 partitions, empty) and payments (1 partition, empty)",
		"Producer shop writes to them; group audit (1 member) and group raw (1 member) read them.",
		"yours will be step " + strconv.Itoa(p.session.Position()+1),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the lesson's start lacks %q", want)
		}
	}
	d.Context().NewActionWithValue(applyAction, applyRequest{Lines: []string{"txn shop begin"}})
	d.Consume()
	if page := app.HTMLString(p); strings.Contains(page, "data-lesson-start") {
		t.Error("the lesson's start is still said after the learner's first step")
	}
	d.Context().NewActionWithValue(historyAction, historyMove{Kind: "undo"})
	d.Consume()
	if page := app.HTMLString(p); !strings.Contains(page, "data-lesson-start") {
		t.Error("the lesson's start is not said again after an undo back to it")
	}
}

// The lesson start's sentence on who reads counts a group that has no
// member yet apart: it reads nothing.
func TestActorsSentenceSaysAGroupWithoutMembersReadsNothing(t *testing.T) {
	v := LogSnapshot{Groups: []GroupSnapshot{
		{GroupView: core.GroupView{Name: "billing", Members: make([]core.MemberView, 2)}},
		{GroupView: core.GroupView{Name: "rebuild"}},
	}}
	want := "You write records with the Produce form; group billing (2 members) reads them; group rebuild has no member yet."
	if got := actorsSentence(v, nil); got != want {
		t.Errorf("actorsSentence = %q, want %q", got, want)
	}
}

// Scenarios → A small running system opens the first visit's system
// again, in a workspace of its own, from a lesson or a saved workspace.
func TestScenariosOpenTheStarterAgain(t *testing.T) {
	p, d := mountAt(t, "lesson=key-order")
	d.Context().NewActionWithValue(openAction, openRequest{Fragment: starterFragment()})
	d.Consume()
	if p.lesson.current != nil {
		t.Fatal("the starter opened with lesson key-order still open")
	}
	want, err := scenario.Parse(starterScript)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.session.Lines(); len(got) != len(want) || got[0] != want[0].String() {
		t.Errorf("the starter opened with %q, want its %d lines", got, len(want))
	}
	if !p.starterShown() {
		t.Error("the page does not show the starter as it opened")
	}
}
