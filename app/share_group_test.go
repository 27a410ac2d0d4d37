package app

import (
	"html"
	"strings"
	"testing"

	"plog/core"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The share groups of the page: each group's card lists its members and
// each share-partition's in-flight records as the engine keeps them;
// a member's Accept acknowledges what its last poll returned, and a line
// the engine refuses shows the engine's message beside the form that made
// it.
func TestShareGroupCardShowsInFlightRecordsAndAcknowledges(t *testing.T) {
	// The group reads from the log start (share.auto.offset.reset is
	// latest by default), so it gets the records produced before.
	const script = "topic orders partitions=1\nproduce orders value=v count=3\njoin billing c1 topics=orders\n" +
		"share-join workers s1 topics=orders share.acknowledgement.mode=explicit\n" +
		"config group workers share.auto.offset.reset=earliest\nshare-join workers s2 topics=orders\n" +
		"share-poll workers s1 max=2\nshare-poll workers s2\n"
	p, d := mountAt(t, mustLink(t, script))
	if p.err != "" {
		t.Fatalf("unexpected alert: %s", p.err)
	}
	page := html.UnescapeString(app.HTMLString(p))
	for _, want := range []string{
		`data-share-group="workers"`, `data-share-member="s1"`, `data-share-member="s2"`,
		`data-share-partition="orders/0"`, `data-spso="0"`, `data-speo="2"`, `data-share-lag="3"`,
		"SPSO 0, SPEO 2, share lag 3",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page has no %s", want)
		}
	}
	for _, r := range []struct{ offset, owner string }{{"0", "s1"}, {"1", "s1"}, {"2", "s2"}} {
		tags := tagsWith(page, "data-offset", r.offset, "data-record-state", core.RecordAcquired, "data-owner", r.owner, "data-delivery-count", "1")
		if len(tags) != 1 {
			t.Errorf("offset %s is not drawn Acquired by %s, delivered once", r.offset, r.owner)
		}
	}
	// Only the explicit member has the acknowledge buttons.
	if n := len(tagsWith(page, "data-command", "acknowledge")); n != 4 {
		t.Errorf("%d acknowledge buttons, want s1's 4", n)
	}

	s1 := &ShareMember{Group: "workers", Member: p.view.ShareGroups[0].Members[0]}
	lines, problem := s1.lines(core.AckAccept)
	if problem != "" || strings.Join(lines, "\n") != "acknowledge workers s1 accept orders/0 offsets=0,1" {
		t.Fatalf("accept lines %q, %q", lines, problem)
	}
	ApplyFrom(d.Context(), s1.control(), lines...)
	d.Consume()
	// The accepted records are the first in flight: the start offset
	// moves past them, and only s2's record is left in flight.
	sp := p.view.ShareGroups[0].Partitions[0]
	if sp.StartOffset != 2 || len(sp.InFlight) != 1 || sp.InFlight[0].Offset != 2 || sp.InFlight[0].State != core.RecordAcquired {
		t.Errorf("after s1's accept the share-partition is %+v", sp)
	}
	if page := app.HTMLString(p); !strings.Contains(page, `data-spso="2"`) || !strings.Contains(page, `data-share-lag="1"`) {
		t.Error("the card does not show the start offset and share lag the accept left")
	}

	// The card's config form writes the line that set the reset.
	cf := &ShareGroupConfigForm{Group: "workers", Configs: p.view.ShareGroups[0].Configs}
	if l := cf.choiceLine("share.auto.offset.reset", "earliest"); l != "config group workers share.auto.offset.reset=earliest" {
		t.Errorf("config line %q", l)
	}

	// A share group may not take a consumer group's id: the engine says so
	// beside the form.
	join := &ShareJoinForm{group: "billing", member: "s3", topics: "orders"}
	line, problem := join.joinLine()
	if problem != "" {
		t.Fatal(problem)
	}
	ApplyFrom(d.Context(), shareJoinControl, line)
	d.Consume()
	var alert ControlAlert
	d.Context().GetState(controlAlertState, &alert)
	if alert.Control != shareJoinControl || !strings.Contains(alert.Message, "not a share group") {
		t.Errorf("alert = %+v, want the share join form's, saying billing is not a share group", alert)
	}
	// And a member with nothing to acknowledge is told to poll first.
	if _, problem := (&ShareMember{Group: "workers", Member: core.ShareMemberView{Name: "s9"}}).lines(core.AckReject); !strings.Contains(problem, "poll first") {
		t.Errorf("acknowledging nothing: %q", problem)
	}
}
