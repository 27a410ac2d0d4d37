package app

import (
	"strconv"
	"strings"
	"testing"

	"plog/core"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The inspector replays the change the learner picks under each protocol
// and draws, per protocol, each partition's stopped time as the engine's
// CompareProtocols works it out; the choice follows the commands after
// it, and goes when another group is inspected.
func TestProtocolCompareDrawsTheEnginesReplay(t *testing.T) {
	script := "topic orders partitions=6\n" +
		"join g c1 topics=orders group.protocol=consumer\njoin g c2 topics=orders group.protocol=consumer\n" +
		"join g c3 topics=orders group.protocol=consumer\nadvance 30s\njoin h d1 topics=orders\nadvance 5s\n"
	p, d := mountAt(t, mustLink(t, script))
	page := inspect(t, p, d, selection{Kind: selectGroup, Group: "g"})
	if len(tagsWith(page, "data-protocol-compare", "g")) != 1 {
		t.Fatal("the group inspector has no protocol comparison")
	}
	if len(tagsWith(page, "data-compare-protocol", core.ReplayEager)) != 0 {
		t.Error("the inspector replays a change before the learner picks one")
	}
	if len(tagsWith(page, "data-topic-ids-note", "true")) != 1 || len(tagsWith(page, "data-inspector-assignor", "uniform")) != 1 {
		t.Error("a consumer group's inspector does not say its assignor and the note on topic ids")
	}

	d.Context().NewActionWithValue(protocolCompareAction, protocolChoice{Group: "g", Kind: core.ChangeCrash, Member: "c1", PollMs: 1000})
	d.Consume()
	page = app.HTMLString(p)
	want, err := p.session.Log().CompareProtocols("g", core.ProtocolChange{Kind: core.ChangeCrash, Member: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Replays) != 3 {
		t.Fatalf("replays %+v", want.Replays)
	}
	for _, r := range want.Replays {
		cols := tagsWith(page, "data-compare-protocol", r.Protocol, "data-duration-ms", strconv.FormatInt(r.DurationMs, 10),
			"data-stopped", strconv.Itoa(r.Stopped))
		if len(cols) != 1 {
			t.Errorf("no column for %s of %dms and %d stopped", r.Protocol, r.DurationMs, r.Stopped)
		}
		for _, ps := range r.Partitions {
			name := ps.Topic + "/" + strconv.Itoa(ps.Partition)
			if len(tagsWith(page, "data-partition-stop", name, "data-stopped-ms", strconv.FormatInt(ps.StoppedMs, 10), "data-after", ps.After)) == 0 {
				t.Errorf("%s: %s does not show %dms stopped, to %s", r.Protocol, name, ps.StoppedMs, ps.After)
			}
		}
	}
	if eager := want.Replays[0]; eager.Stopped != 6 || !strings.Contains(page, "eager: all 6 partitions stop, for up to "+seconds(eager.LongestStopMs)) {
		t.Errorf("the summary does not say eager stops all 6 partitions (%d): %s", eager.Stopped, page[strings.Index(page, "data-protocol-compare-summary"):][:300])
	}

	// A command later, the replay follows the new state: c1 has crashed.
	d.Context().NewActionWithValue(applyAction, applyRequest{Lines: []string{"crash g c1"}})
	d.Consume()
	if got := p.view.Groups[0].Protocols; got == nil || !strings.Contains(got.Err, `member "c1" of group "g" has crashed already`) {
		t.Errorf("after c1 crashed, the replay says %+v", got)
	}
	inspect(t, p, d, selection{Kind: selectGroup, Group: "h"})
	for _, g := range p.view.Groups {
		if g.Protocols != nil {
			t.Errorf("inspecting h, %s still has a replay", g.Name)
		}
	}
}
