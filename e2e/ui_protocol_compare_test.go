package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// A crash replayed under each protocol, as a learner does it: a topic and
// a consumer-protocol group of three members made with the page's forms,
// the clock advanced to 12 s, the group's inspector asked what happens if
// c2 crashes. The three columns say what Kafka's defaults make of it
// (session.timeout.ms and consumer.session.timeout.ms 45 s,
// consumer.heartbeat.interval.ms 5 s, members polling every 1 s): eager
// stops all six partitions, cooperative-sticky and the consumer protocol
// only c2's two. Then the learner crashes c2 with its card's button, and
// the real group's partitions move at the very millisecond, and to the
// very members, the consumer protocol's column said.
func TestUIProtocolCompareCrash(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "")
	b.createTopic(t, "orders", 6)
	b.openJoinForm(t)
	b.fill(t, `.join-form [name=group]`, "billing")
	b.fill(t, `.join-form [name=member]`, "c1")
	b.fill(t, `.join-form [name=topics]`, "orders")
	b.fill(t, `.join-form [name="group.protocol"]`, "consumer")
	b.click(t, `.join-form button[type=submit]`)
	b.waitCount(t, member("billing", "c1"), 1)
	form := group("billing") + " .member-join"
	for _, id := range []string{"c2", "c3"} {
		if b.count(t, form) == 0 {
			b.click(t, group("billing")+" [data-action=join-member]")
			b.waitCount(t, form, 1)
		}
		b.fill(t, form+" [name=member]", id)
		b.fill(t, form+` [name="group.protocol"]`, "consumer")
		if got, want := b.clickAndLine(t, form+" button[type=submit]"), "join billing "+id+" topics=orders group.protocol=consumer"; got != want {
			t.Fatalf("the join form wrote %q, want %q", got, want)
		}
	}
	// All three joined at 0 s and heartbeat every 5 s: at 12 s the group is
	// stable and c2's last heartbeat was at 10 s.
	b.advanceBy(t, "12s")
	b.waitCount(t, group("billing")+`[data-state=stable]`, 1)

	inspector := b.groupInspector(t, "billing")
	if b.count(t, inspector+` [data-inspector-assignor=uniform] [data-topic-ids-note]`) != 1 {
		t.Error("the consumer group's inspector does not say its assignor uniform with the note on topic ids")
	}
	b.click(t, inspector+` details.movement summary`)
	compare := inspector + ` [data-protocol-compare=billing]`
	b.waitFor(t, shown(compare+` [name=change]`))
	b.fill(t, compare+` [name=change]`, "crash")
	b.fill(t, compare+` [name=member]`, "c2")
	b.click(t, compare+` button[type=submit]`)
	b.waitCount(t, compare+` [data-compare-protocol]`, 3)

	const (
		session     = 45_000 // session.timeout.ms and consumer.session.timeout.ms
		halfPoll    = 500    // the replay's members poll every 1 s, the first half a second after the change
		consumerGap = 10_000 + session - 12_000
	)
	type partition struct {
		name, before, after string
		stopped             int64
	}
	column := func(protocol string) []partition {
		t.Helper()
		raw := eval[[][]string](t, b, fmt.Sprintf(`Array.from(document.querySelectorAll(%s)).map(el =>
			[el.dataset.partitionStop, el.dataset.before, el.dataset.after, el.dataset.stoppedMs])`,
			js(compare+` [data-compare-protocol=`+protocol+`] [data-partition-stop]`)))
		var out []partition
		for _, r := range raw {
			ms, err := strconv.ParseInt(r[3], 10, 64)
			if err != nil {
				t.Fatalf("%s: data-stopped-ms=%q", protocol, r[3])
			}
			out = append(out, partition{r[0], r[1], r[2], ms})
		}
		if len(out) != 6 {
			t.Fatalf("%s lists %d partitions, want orders' 6", protocol, len(out))
		}
		return out
	}
	// Eager revokes everything when the rebalance starts, at c2's session
	// end; the members rejoin at their next poll. Cooperative-sticky and
	// the consumer protocol stop only c2's partitions; the consumer
	// protocol's end when c2 is fenced, 45 s after its last heartbeat, at
	// the heartbeat the others send then.
	for _, c := range []struct {
		protocol             string
		crashed, others      int64
		stoppedTotal, wantC2 int
	}{
		{"eager", session + halfPoll, halfPoll, 6, 2},
		{"cooperative", session + halfPoll, 0, 2, 2},
		{"consumer", consumerGap, 0, 2, 2},
	} {
		if got := b.attr(t, compare+` [data-compare-protocol=`+c.protocol+`]`, "data-stopped"); got != strconv.Itoa(c.stoppedTotal) {
			t.Errorf("%s: data-stopped=%s, want %d", c.protocol, got, c.stoppedTotal)
		}
		c2 := 0
		for _, p := range column(c.protocol) {
			want := c.others
			if p.before == "c2" {
				c2++
				want = c.crashed
				if p.after == "c2" || p.after == "" {
					t.Errorf("%s: %s goes from c2 to %q", c.protocol, p.name, p.after)
				}
			}
			if p.stopped != want {
				t.Errorf("%s: %s (%s → %s) stops %dms, want %dms", c.protocol, p.name, p.before, p.after, p.stopped, want)
			}
		}
		if c2 != c.wantC2 {
			t.Errorf("%s: c2 owned %d partitions before the crash, want %d", c.protocol, c2, c.wantC2)
		}
	}
	summary := b.text(t, compare+` [data-protocol-compare-summary]`)
	for _, want := range []string{"eager: all 6 partitions stop, for up to 45.5 s", "cooperative: 2 partitions stop, for up to 45.5 s",
		"consumer protocol: 2 partitions stop, for up to 43.0 s"} {
		if !strings.Contains(summary, want) {
			t.Errorf("the summary says %q, want it to say %q", summary, want)
		}
	}
	if b.count(t, compare+` [data-protocol-compare-differs]`) != 1 {
		t.Error("the comparison does not say where plog simplifies")
	}
	for _, v := range runAxe(t, b) {
		t.Errorf("with the columns drawn: %s (%s): %s at %s", v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
	}

	// Now the learner crashes c2 for real: a millisecond before the
	// consumer column's time nobody has c2's partitions; at it, the
	// members the column named have them.
	moved := map[string]string{}
	for _, p := range column("consumer") {
		if p.before == "c2" {
			moved[p.name] = p.after
		}
	}
	if got := b.clickAndLine(t, member("billing", "c2")+" [data-action=crash]"); got != "crash billing c2" {
		t.Fatalf("c2's Crash wrote %q", got)
	}
	b.advanceBy(t, strconv.Itoa(consumerGap-1)+"ms")
	for name, owner := range moved {
		if assigned := b.attr(t, member("billing", owner), "data-assigned"); strings.Contains(" "+assigned+" ", " "+name+" ") {
			t.Errorf("%s already has %s a millisecond before the replay's time", owner, name)
		}
	}
	b.advanceBy(t, "1ms")
	for name, owner := range moved {
		if assigned := b.attr(t, member("billing", owner), "data-assigned"); !strings.Contains(" "+assigned+" ", " "+name+" ") {
			t.Errorf("at the replay's time, %s has %q, not %s as the consumer column said", owner, assigned, name)
		}
	}
	b.waitCount(t, group("billing")+`[data-state=stable]`, 1)
	if b.count(t, member("billing", "c2")) != 0 {
		t.Error("c2 is still in the group after it was fenced")
	}
	b.noErrors(t)
}

// advanceBy advances the clock with the Time tab's duration box, as a
// learner does, and waits for the step.
func (b *browser) advanceBy(t *testing.T, duration string) {
	t.Helper()
	b.click(t, `[data-dock-tab=time]`)
	b.fill(t, `#advance-duration`, duration)
	if got := b.clickAndLine(t, `#advance-go`); got != "advance "+duration {
		t.Fatalf("Advance wrote %q, want advance %s", got, duration)
	}
}
