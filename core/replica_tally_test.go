package core

import (
	"fmt"
	"testing"
)

// The ack tally counts the retained offsets by what their producers were
// told, and follows them as acks=all writes resolve and retention or
// truncation removes records. Under rules 2 the acks=all writes fail once
// the ISR shrinks below min.insync.replicas; under rules 3 the high
// watermark waits instead (Kafka 3.7+), so they stay pending.
func TestAckTallyCountsRetainedOffsetsByStatus(t *testing.T) {
	for _, rules := range []int{RulesV2, RulesV3} {
		t.Run(fmt.Sprintf("rules %d", rules), func(t *testing.T) { ackTallyUnder(t, rules) })
	}
}

func ackTallyUnder(t *testing.T, rules int) {
	l := newTestLogUnder(t, rules, "t", 1, map[string]string{"replication.factor": "3", "min.insync.replicas": "2"})
	produceAcks(t, l, "a", "0")
	produceAcks(t, l, "b", "0")
	produceAcks(t, l, "c", "1")
	for _, v := range []string{"d", "e", "f"} {
		produceAcks(t, l, v, "all")
	}
	check := func(when string, want AckTally) {
		t.Helper()
		v := replication(t, l)
		var sum AckTally
		for _, a := range v.Acks {
			sum.add(a)
		}
		if v.AckTally != want || sum != want {
			t.Errorf("%s: tally %+v (the ranges add up to %+v), want %+v", when, v.AckTally, sum, want)
		}
	}
	check("as produced", AckTally{Sent: 2, Acknowledged: 1, Pending: 3})
	mustAdvance(t, l, ReplicaFetchIntervalMs)
	check("once the followers fetched", AckTally{Sent: 2, Acknowledged: 4})

	// Both followers cut off: acks=all waits, then fails when the ISR
	// shrinks below min.insync.replicas (NOT_ENOUGH_REPLICAS_AFTER_APPEND).
	for _, b := range []int{2, 3} {
		if err := l.IsolateBroker(b); err != nil {
			t.Fatal(err)
		}
	}
	produceAcks(t, l, "g", "all")
	produceAcks(t, l, "h", "all")
	check("while the followers are cut off", AckTally{Sent: 2, Acknowledged: 4, Pending: 2})
	mustAdvance(t, l, l.ReplicaLagTimeMaxMs()+ReplicaFetchIntervalMs)
	if rules >= RulesV3 {
		check("once the ISR shrank to the leader", AckTally{Sent: 2, Acknowledged: 4, Pending: 2})
		if err := l.Truncate("t", 0, 3); err != nil {
			t.Fatal(err)
		}
		check("truncated before offset 3", AckTally{Acknowledged: 3, Pending: 2})
		if err := l.HealBroker(2); err != nil {
			t.Fatal(err)
		}
		mustAdvance(t, l, ReplicaFetchIntervalMs)
		check("once broker 2 rejoined the ISR", AckTally{Acknowledged: 5})
		return
	}
	check("once the ISR shrank to the leader", AckTally{Sent: 2, Acknowledged: 4, Failed: 2})

	if err := l.Truncate("t", 0, 3); err != nil {
		t.Fatal(err)
	}
	check("truncated before offset 3", AckTally{Acknowledged: 3, Failed: 2})
}
