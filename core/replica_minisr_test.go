package core

import (
	"strings"
	"testing"
)

// heldLog returns, under the rules given, topic t (one partition, three
// replicas on brokers 1, 2, 3, min.insync.replicas=2) with group g's member
// c1 owning t/0, and brokers 2 and 3 crashed: the leader, broker 1, is the
// whole ISR.
func heldLog(t *testing.T, rules int, minInsync string) *PartitionedLog {
	t.Helper()
	l := newTestLogUnder(t, rules, "t", 1, map[string]string{"replication.factor": "3", "min.insync.replicas": minInsync})
	if err := l.Join("g", "c1", JoinOptions{Topics: []string{"t"}}); err != nil {
		t.Fatal(err)
	}
	mustAdvance(t, l, 10*secondMs) // the first rebalance ends
	for _, b := range []int{2, 3} {
		if err := l.CrashBroker(b); err != nil {
			t.Fatal(err)
		}
	}
	if v := replication(t, l); len(v.ISR) != 1 || v.ISR[0] != 1 {
		t.Fatalf("ISR %v, want the leader alone", v.ISR)
	}
	return l
}

// Kafka 3.7+ (KAFKA-15583): while the ISR is smaller than
// min.insync.replicas, acks=1 writes are appended and acknowledged, but the
// high watermark stays, so consumers do not see them and the group's lag
// does not count them; once a follower catches up and rejoins the ISR, the
// high watermark moves up. Under rules 2 the leader alone committed them.
func TestHighWatermarkWaitsForMinInsyncReplicas(t *testing.T) {
	for _, rules := range []int{RulesV2, RulesV3} {
		l := heldLog(t, rules, "2")
		for _, v := range []string{"a", "b", "c"} {
			if res := produceAcks(t, l, v, "1"); res.Ack != AckAcknowledged {
				t.Fatalf("rules %d: acks=1 answered %s", rules, res.Ack)
			}
		}
		if _, err := l.Produce(ProduceRequest{Topic: "t", Partition: 0, Value: "d", Acks: "all"}); err == nil || !strings.Contains(err.Error(), "NOT_ENOUGH_REPLICAS") {
			t.Fatalf("rules %d: acks=all with the leader alone in sync: %v", rules, err)
		}
		deliveries, err := l.Poll("g", "c1", 10)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Commit("g", "c1"); err != nil {
			t.Fatal(err)
		}
		view, err := l.Group("g")
		if err != nil {
			t.Fatal(err)
		}
		rep := replication(t, l)
		if rules < RulesV3 {
			if rep.HighWatermark != 3 || len(deliveries) != 3 || view.TotalLag != 0 || rep.HighWatermarkHeld != "" {
				t.Fatalf("rules 2: hw %d, %d delivered, lag %d, held %q; want the leader alone to commit all 3",
					rep.HighWatermark, len(deliveries), view.TotalLag, rep.HighWatermarkHeld)
			}
			continue
		}
		if rep.HighWatermark != 0 || rep.LogEndOffset != 3 || len(deliveries) != 0 {
			t.Fatalf("rules 3: hw %d, log end %d, %d delivered; want the high watermark held at 0 under 3 records", rep.HighWatermark, rep.LogEndOffset, len(deliveries))
		}
		if !strings.Contains(rep.HighWatermarkHeld, "smaller than min.insync.replicas=2") || !strings.Contains(rep.HighWatermarkHeld, "KAFKA-15583") {
			t.Fatalf("rules 3: held reason %q", rep.HighWatermarkHeld)
		}
		if held, _ := l.HighWatermarkHeld("t", 0); held != rep.HighWatermarkHeld {
			t.Fatalf("HighWatermarkHeld %q, Replication says %q", held, rep.HighWatermarkHeld)
		}
		if got, err := l.Consume("t", 0, 0, 10); err != nil || len(got) != 0 {
			t.Fatalf("rules 3: a consumer read %d records above the high watermark (%v)", len(got), err)
		}
		if view.TotalLag != 0 || view.Members[0].EmptyPoll == "" || !strings.Contains(view.Members[0].EmptyPoll, "min.insync.replicas=2") {
			t.Fatalf("rules 3: lag %d (the records above the high watermark are not committed), empty poll %q", view.TotalLag, view.Members[0].EmptyPoll)
		}
		// One more acks=1 record, then a follower comes back.
		produceAcks(t, l, "e", "1")
		if hw, _ := l.HighWatermark("t", 0); hw != 0 {
			t.Fatalf("rules 3: hw %d after another acks=1 record", hw)
		}
		if err := l.RestartBroker(2); err != nil {
			t.Fatal(err)
		}
		if hw, _ := l.HighWatermark("t", 0); hw != 0 {
			t.Fatalf("rules 3: hw %d before broker 2 fetched", hw)
		}
		mustAdvance(t, l, ReplicaFetchIntervalMs)
		rep = replication(t, l)
		if len(rep.ISR) != 2 || rep.HighWatermark != 4 || rep.HighWatermarkHeld != "" {
			t.Fatalf("rules 3: once broker 2 caught up: ISR %v, hw %d, held %q; want ISR 1,2 and hw 4", rep.ISR, rep.HighWatermark, rep.HighWatermarkHeld)
		}
		if deliveries, err := l.Poll("g", "c1", 10); err != nil || len(deliveries) != 4 {
			t.Fatalf("rules 3: after the rejoin the member got %d records (%v), want 4", len(deliveries), err)
		}
	}
}

// Kafka accepts min.insync.replicas above the replication factor and uses
// min(min.insync.replicas, replication factor) (Partition.effectiveMinIsr):
// rules 3 does too; rules 2 refuses it, as before.
func TestMinInsyncAboveReplicationFactor(t *testing.T) {
	configs := map[string]string{"replication.factor": "3", "min.insync.replicas": "4"}
	l2 := NewPartitionedLog(1)
	if err := l2.UseRules(RulesV2); err != nil {
		t.Fatal(err)
	}
	if err := l2.CreateTopic("t", 1, configs); err == nil || !strings.Contains(err.Error(), "more than replication.factor=3") {
		t.Fatalf("rules 2: min.insync.replicas=4 on 3 replicas: %v", err)
	}

	l := newTestLogUnder(t, RulesV3, "t", 1, configs)
	rep := replication(t, l)
	if rep.MinInsyncReplicas != 4 || rep.EffectiveMinInsync != 3 {
		t.Fatalf("min.insync.replicas %d effective %d, want 4 and 3", rep.MinInsyncReplicas, rep.EffectiveMinInsync)
	}
	if res := produceAcks(t, l, "a", "all"); res.Ack != AckPending {
		t.Fatalf("acks=all with all three in sync: %s", res.Ack)
	}
	mustAdvance(t, l, ReplicaFetchIntervalMs)
	if status, _ := l.AckOf("t", 0, 0); status != AckAcknowledged {
		t.Fatalf("acks=all once the three have it: %s", status)
	}
	if err := l.CrashBroker(3); err != nil {
		t.Fatal(err)
	}
	_, err := l.Produce(ProduceRequest{Topic: "t", Partition: 0, Value: "b", Acks: "all"})
	if err == nil || !strings.Contains(err.Error(), "NOT_ENOUGH_REPLICAS") || !strings.Contains(err.Error(), "3, the replication factor") {
		t.Fatalf("acks=all with 2 of 3 in sync: %v", err)
	}
	produceAcks(t, l, "c", "1")
	mustAdvance(t, l, ReplicaFetchIntervalMs)
	if hw, _ := l.HighWatermark("t", 0); hw != 1 {
		t.Fatalf("hw %d with 2 of the 3 replicas in sync, want it held at 1", hw)
	}
	if err := l.SetTopicConfig("t", "min.insync.replicas", "2"); err != nil {
		t.Fatal(err)
	}
	produceAcks(t, l, "d", "1")
	mustAdvance(t, l, ReplicaFetchIntervalMs)
	if hw, _ := l.HighWatermark("t", 0); hw != 3 {
		t.Fatalf("hw %d once min.insync.replicas=2 with 2 in sync, want 3", hw)
	}
	if err := l.SetTopicConfig("t", "min.insync.replicas", "5"); err != nil {
		t.Fatalf("rules 3: min.insync.replicas=5 on 3 replicas: %v", err)
	}

	// One replica: its effective minimum is 1, whatever min.insync.replicas.
	one := newTestLogUnder(t, RulesV3, "t", 1, map[string]string{"min.insync.replicas": "2"})
	if res := produceAcks(t, one, "a", "all"); res.Ack != AckAcknowledged {
		t.Fatalf("acks=all on one replica with min.insync.replicas=2: %s", res.Ack)
	}
}
