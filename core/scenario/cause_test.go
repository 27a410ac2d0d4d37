package scenario

import (
	"strings"
	"testing"

	"plog/core"
)

// TestEventsCarryTheirTypedCause: the events whose readers act on why
// (lesson checks, the page's notes, the comparison with a cluster) carry
// a typed core.Cause, and it agrees with the sentence the learner reads.
func TestEventsCarryTheirTypedCause(t *testing.T) {
	cases := []struct {
		name   string
		script string // its last line's events are read
		kind   core.EventKind
		cause  core.Cause
		says   string // what the event's Detail says of it
	}{
		{"classic session timeout", "topic t\njoin g a topics=t\njoin g b topics=t\nadvance 6s\ncrash g b\nadvance 1m",
			core.EventMemberLeft, core.CauseSessionTimeout, "session timeout"},
		{"consumer protocol session timeout", "topic t\njoin g a topics=t group.protocol=consumer\njoin g b topics=t group.protocol=consumer\nadvance 6s\ncrash g b\nadvance 1m",
			core.EventMemberLeft, core.CauseFenced, "fenced: its session timed out"},
		{"static member fenced", "topic t\njoin g a topics=t instance=i1\nadvance 6s\njoin g a2 topics=t instance=i1",
			core.EventMemberLeft, core.CauseFenced, "joined with its group.instance.id"},
		{"static member back", "topic t\njoin g a topics=t instance=i1\njoin g b topics=t\nadvance 6s\nleave g a\njoin g a topics=t instance=i1",
			core.EventMemberJoined, core.CauseStaticReturn, "is back"},
		{"classic poll timeout", "topic t\njoin g a topics=t\nadvance 6s\npoll g a\nadvance 6m",
			core.EventMemberLeft, core.CausePollTimeout, "did not poll within max.poll.interval.ms"},
		{"consumer protocol poll timeout", "topic t\njoin g a topics=t group.protocol=consumer\nadvance 6s\npoll g a\nadvance 6m",
			core.EventMemberLeft, core.CausePollTimeout, "did not poll within max.poll.interval.ms"},
		{"static classic poll timeout", "topic t\njoin g a topics=t instance=i1\nadvance 6s\npoll g a\nadvance 6m",
			core.EventMemberStopped, core.CausePollTimeout, "did not poll within max.poll.interval.ms"},
		{"retention by time", "topic t retention.ms=10m segment.records=2\nproduce t count=4\nadvance 15m",
			core.EventSegmentDeleted, core.CauseRetentionTime, "retention.ms"},
		{"retention by size", "topic t retention.bytes=300 segment.records=2\nproduce t count=4 value=" + strings.Repeat("v", 200) + "\nadvance 10m",
			core.EventSegmentDeleted, core.CauseRetentionSize, "retention.bytes"},
		{"metadata refresh", "topic t\njoin g a topics=t\nadvance 6s\npoll g a\npartitions t count=3\nadvance 4m\npoll g a\nadvance 2m",
			core.EventRebalanceStarted, core.CauseMetadataRefresh, "metadata refresh"},
		{"transaction committed", "topic t\nproducer-config p transactional.id=x\ntxn p init\ntxn p begin\nproduce t producer=p\ntxn p commit",
			core.EventTxnEnded, core.CauseCommit, "committed"},
		{"commit marker", "topic t\nproducer-config p transactional.id=x\ntxn p init\ntxn p begin\nproduce t producer=p\ntxn p commit",
			core.EventTxnMarker, core.CauseCommit, "COMMIT"},
		{"transaction aborted", "topic t\nproducer-config p transactional.id=x\ntxn p init\ntxn p begin\nproduce t producer=p\ntxn p abort",
			core.EventTxnEnded, core.CauseAbort, "aborted"},
		{"abort marker", "topic t\nproducer-config p transactional.id=x\ntxn p init\ntxn p begin\nproduce t producer=p\ntxn p abort",
			core.EventTxnMarker, core.CauseAbort, "ABORT"},
		{"empty transaction", "topic t\nproducer-config p transactional.id=x\ntxn p init\ntxn p begin\ntxn p abort",
			core.EventTxnEmpty, core.CauseAbort, "aborted"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Load(tc.script)
			if err != nil {
				t.Fatal(err)
			}
			var found bool
			for _, e := range s.Events() {
				if e.Kind != tc.kind {
					continue
				}
				found = true
				if e.Cause != tc.cause || !strings.Contains(e.Detail, tc.says) {
					t.Errorf("%s event with cause %d and detail %q; want cause %d and a detail that says %q", e.Kind, e.Cause, e.Detail, tc.cause, tc.says)
				}
			}
			if !found {
				t.Fatalf("no %s event in %v", tc.kind, s.Events())
			}
		})
	}
}

// TestCauseIsSetOnlyWhereItIsKnown: the events of a scenario with none of
// the causes above carry none.
func TestCauseIsSetOnlyWhereItIsKnown(t *testing.T) {
	s, err := Load("topic t\njoin g a topics=t\njoin g b topics=t\nadvance 6s\nleave g b")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range s.Events() {
		if e.Cause != core.CauseNone {
			t.Errorf("%s event (%q) has cause %d", e.Kind, e.Detail, e.Cause)
		}
	}
}
