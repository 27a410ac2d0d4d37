package lesson

import (
	"fmt"
	"strings"
	"testing"

	"plog/core"
)

// The message for a group waiting on a stopped member names the session
// timeout that ends its session: session.timeout.ms for a classic member,
// the coordinator's group.consumer.session.timeout.ms, or the group's
// consumer.session.timeout.ms, for a consumer-protocol member.
func TestWaitingNamesTheSessionTimeoutThatApplies(t *testing.T) {
	cases := []struct {
		protocol, groupConfig, want string
	}{
		{core.ProtocolClassic, "", "(session.timeout.ms=45s)"},
		{core.ProtocolConsumer, "", "(the brokers' group.consumer.session.timeout.ms=45s)"},
		{core.ProtocolConsumer, "50s", "(the group's consumer.session.timeout.ms=50s)"},
	}
	for _, c := range cases {
		l := core.NewPartitionedLog(1)
		if err := l.CreateTopic("orders", 2, nil); err != nil {
			t.Fatal(err)
		}
		for _, m := range []string{"c1", "c2"} {
			if err := l.Join("g", m, core.JoinOptions{Topics: []string{"orders"}, Protocol: c.protocol}); err != nil {
				t.Fatal(err)
			}
		}
		if c.groupConfig != "" {
			if err := l.SetGroupConfig("g", "consumer.session.timeout.ms", c.groupConfig); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.Crash("g", "c2"); err != nil {
			t.Fatal(err)
		}
		v, err := l.Group("g")
		if err != nil {
			t.Fatal(err)
		}
		if got := waiting(v, l.Now()); !strings.Contains(got, "c2, which crashed, until its session times out") || !strings.HasSuffix(got, c.want) {
			t.Errorf("%s member, group config %q: %q, want it to end %q", c.protocol, c.groupConfig, got, c.want)
		}
	}
}

// A group in its first rebalance says how far to advance the clock: a new
// group's wait grows with each member joining in it, and "a few seconds"
// sent a walk three seconds ahead of a six-second wait.
func TestWaitingSaysHowLongTheRebalanceWaits(t *testing.T) {
	l := core.NewPartitionedLog(1)
	if err := l.CreateTopic("orders", 2, nil); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"c1", "c2"} {
		if err := l.Join("g", m, core.JoinOptions{Topics: []string{"orders"}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		advance int64
		want    string
	}{
		{0, "until 3s: press +1 s 3 times"},
		{1500, "until 3s: press +1 s 2 times"}, // 1.5 s, rounded up
	} {
		if c.advance > 0 {
			if err := l.Advance(c.advance); err != nil {
				t.Fatal(err)
			}
		}
		v, err := l.Group("g")
		if err != nil {
			t.Fatal(err)
		}
		r := pending("%s", waiting(v, l.Now()))
		if got := r.Progress; !strings.HasSuffix(got, c.want) {
			t.Errorf("at %dms waiting says %q, want it to end %q", l.Now(), got, c.want)
		}
		if !strings.Contains(fmt.Sprint(r.ProgressDoc), "advance-1s") {
			t.Errorf("at %dms waiting's sentence does not point at +1 s: %+v", l.Now(), r.ProgressDoc)
		}
	}
}
