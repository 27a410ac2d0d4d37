package app

import (
	"html"
	"regexp"
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

// The share group's inspector, opened from its card, and the workload
// run side by side from the card's Compare button: the share group's
// records of one partition go to several members, and each run says what
// s1's crash cost, the consumer group's stall (the session timeout) longer
// than the share group's (the record lock). Under the lane, the share
// group's strip shows each in-flight record with its owner and lock.
func TestShareGroupInspectorAndComparison(t *testing.T) {
	const script = "topic orders partitions=2\n" +
		"share-join workers s1 topics=orders\nshare-join workers s2 topics=orders\nshare-join workers s3 topics=orders\n" +
		"share-poll workers s1\nproduce orders value=v count=4 partition=0\nshare-poll workers s1 max=2\nadvance 5s\n"
	p, d := mountAt(t, mustLink(t, script))
	if p.err != "" {
		t.Fatalf("unexpected alert: %s", p.err)
	}
	page := html.UnescapeString(app.HTMLString(p))
	if n := len(tagsWith(page, "data-share-strip", "workers", "data-spso", "0", "data-speo", "1")); n != 1 {
		t.Errorf("%d strips of workers with SPSO 0 and SPEO 1, want orders/0's", n)
	}
	for _, o := range []string{"0", "1"} {
		if n := len(tagsWith(page, "data-inflight", o, "data-record-state", core.RecordAcquired, "data-owner", "s1", "data-lock-left-ms", "25000")); n != 1 {
			t.Errorf("offset %s under the lane: %d strip records acquired by s1 with 25s of lock left, want 1", o, n)
		}
	}
	if n := len(tagsWith(page, "data-offset", "0", "data-record-state", core.RecordAcquired)); n != 1 {
		t.Errorf("%d records of offset 0 drawn Acquired with data-offset, want the card's only: the strip's are data-inflight", n)
	}

	got := inspect(t, p, d, selection{Kind: selectShareGroup, Group: "workers"})
	for _, want := range []string{`data-share-inspector="workers"`, `data-inspector-share-member="s3"`, `data-config="share.record.lock.duration.ms"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the share group's inspector has no %s", want)
		}
	}
	if n := len(tagsWith(got, "data-share-row", "orders/0", "data-acquired", "2", "data-share-lag", "4")); n != 1 {
		t.Error("the inspector's orders/0 row does not count 2 acquired records and a share lag of 4")
	}

	choice := defaultShareCompare("workers", []string{"s1", "s2", "s3"})
	got = html.UnescapeString(inspect(t, p, d, selection{Kind: selectShareGroup, Group: "workers", ShareCompare: choice}))
	if choice.Crash != "s1" || p.view.ShareCompared == nil || p.view.ShareCompared.Err != "" {
		t.Fatalf("the comparison of %+v: %+v", choice, p.view.ShareCompared)
	}
	for _, kind := range []string{core.CompareConsumerGroup, core.CompareShareGroup} {
		if len(tagsWith(got, "data-share-compare-run", kind)) != 1 {
			t.Errorf("no %s run side by side", kind)
		}
	}
	cmp := p.view.ShareCompared.Comparison
	if !cmp.Share.StallKnown || cmp.Consumer.StalledMs <= cmp.Share.StalledMs {
		t.Errorf("the consumer group's stall %d ms is not longer than the share group's %d ms", cmp.Consumer.StalledMs, cmp.Share.StalledMs)
	}
	// In the share group one partition's records go to several members.
	shared := false
	for _, tag := range tagsWith(got, "data-compare-partition", "orders/0") {
		if m := regexp.MustCompile(`data-order="([^"]*)"`).FindStringSubmatch(tag); m != nil {
			members := map[string]bool{}
			for _, name := range strings.Fields(m[1]) {
				members[name] = true
			}
			shared = shared || len(members) > 1
		}
	}
	if !shared {
		t.Error("no run shows orders/0's records going to more than one member")
	}
	if !strings.Contains(got, "once their locks expired") || !strings.Contains(got, "until its session timed out") {
		t.Error("the runs do not say what the crash cost each")
	}
	if len(p.view.ShareGroups[0].Partitions[0].InFlight) != 2 {
		t.Error("the comparison changed the real share group")
	}
	// A crashed member restarts under the next free name.
	s1 := p.view.ShareGroups[0].Members[0]
	s1.CrashedAt = 0
	if id := shareComeBackID(p.view.ShareGroups[0], s1); id != "s4" {
		t.Errorf("s1 restarts as %q, want s4", id)
	}
}
