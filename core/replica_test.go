package core

import (
	"slices"
	"strings"
	"testing"
)

// replicatedLog returns an engine with one topic "t" of one partition and
// the given configs, on the default three brokers.
func replicatedLog(t *testing.T, configs map[string]string) *PartitionedLog {
	t.Helper()
	return newTestLog(t, "t", 1, configs)
}

func produceAcks(t *testing.T, l *PartitionedLog, value, acks string) ProduceResult {
	t.Helper()
	return mustProduce(t, l, ProduceRequest{Topic: "t", Partition: 0, Value: value, Acks: acks})
}

func replication(t *testing.T, l *PartitionedLog) PartitionReplication {
	t.Helper()
	v, err := l.Replication("t", 0)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func values(t *testing.T, l *PartitionedLog) []string {
	t.Helper()
	records, err := l.Records("t", 0)
	if err != nil {
		t.Fatal(err)
	}
	var vs []string
	for _, r := range records {
		vs = append(vs, r.Value)
	}
	return vs
}

func eventsOf(l *PartitionedLog, kind EventKind) []Event {
	var out []Event
	for _, e := range l.DrainEvents() {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

func TestPlacementFollowsKafkaRule(t *testing.T) {
	l := newTestLog(t, "t", 7, map[string]string{"replication.factor": "3"})
	want := [][]int{{1, 2, 3}, {2, 3, 1}, {3, 1, 2}, {1, 3, 2}, {2, 1, 3}, {3, 2, 1}, {1, 2, 3}}
	for p, w := range want {
		v, _ := l.Replication("t", p)
		var got []int
		for _, r := range v.Replicas {
			got = append(got, r.Broker)
		}
		if !slices.Equal(got, w) || v.Leader != w[0] {
			t.Errorf("partition %d: replicas %v leader %d, want %v", p, got, v.Leader, w)
		}
	}
}

func TestOneReplicaChangesNothing(t *testing.T) {
	l := replicatedLog(t, nil)
	res := produceAcks(t, l, "a", "")
	if res.Ack != AckAcknowledged {
		t.Fatalf("ack %s", res.Ack)
	}
	hw, _ := l.HighWatermark("t", 0)
	if hw != 1 {
		t.Fatalf("hw %d", hw)
	}
	if l.ReplicationInUse() {
		t.Fatal("replication in use with one replica")
	}
}

func TestAcksAllWaitsForTheFollowers(t *testing.T) {
	l := replicatedLog(t, map[string]string{"replication.factor": "3", "min.insync.replicas": "2"})
	res := produceAcks(t, l, "a", "all")
	if res.Ack != AckPending {
		t.Fatalf("ack %s, want pending", res.Ack)
	}
	if hw, _ := l.HighWatermark("t", 0); hw != 0 {
		t.Fatalf("hw %d before replication", hw)
	}
	if recs, _ := l.Consume("t", 0, 0, 10); len(recs) != 0 {
		t.Fatalf("consumer read %d uncommitted records", len(recs))
	}
	l.DrainEvents()
	mustAdvance(t, l, ReplicaFetchIntervalMs)
	if acked := eventsOf(l, EventAcknowledged); len(acked) != 1 || acked[0].From != 0 || acked[0].To != 1 {
		t.Fatalf("acknowledged events %+v", acked)
	}
	if s, _ := l.AckOf("t", 0, 0); s != AckAcknowledged {
		t.Fatalf("status %s", s)
	}
	if hw, _ := l.HighWatermark("t", 0); hw != 1 {
		t.Fatalf("hw %d after replication", hw)
	}
}

// The classic acks=1 loss: the leader acknowledges, then dies before its
// followers copied the records; a follower from the ISR leads without them.
func TestAcks1LosesRecordsOnLeaderFailure(t *testing.T) {
	l := replicatedLog(t, map[string]string{"replication.factor": "3"})
	produceAcks(t, l, "kept", "1")
	mustAdvance(t, l, ReplicaFetchIntervalMs)
	for _, v := range []string{"x", "y"} {
		if res := produceAcks(t, l, v, "1"); res.Ack != AckAcknowledged {
			t.Fatalf("acks=1 answered %s", res.Ack)
		}
	}
	l.DrainEvents()
	if err := l.CrashBroker(1); err != nil {
		t.Fatal(err)
	}
	events := l.DrainEvents()
	lost := filter(events, EventRecordsLost)
	if len(lost) != 1 || lost[0].Count != 2 || !strings.Contains(lost[0].Detail, "2 acknowledged") {
		t.Fatalf("lost events %+v", lost)
	}
	elected := filter(events, EventLeaderElected)
	if len(elected) != 1 || elected[0].Broker != 2 || elected[0].Generation != 1 {
		t.Fatalf("elected %+v", elected)
	}
	if got := values(t, l); !slices.Equal(got, []string{"kept"}) {
		t.Fatalf("records %v", got)
	}
	// Broker 1 comes back, truncates to the new leader and rejoins.
	if err := l.RestartBroker(1); err != nil {
		t.Fatal(err)
	}
	v := replication(t, l)
	if v.Replicas[0].LogEndOffset != 3 || v.Replicas[0].MatchOffset != 1 {
		t.Fatalf("restarted replica %+v before its fetch", v.Replicas[0])
	}
	mustAdvance(t, l, ReplicaFetchIntervalMs)
	v = replication(t, l)
	if v.Replicas[0].LogEndOffset != 1 || !v.Replicas[0].InSync || !slices.Equal(v.ISR, []int{1, 2, 3}) {
		t.Fatalf("after its fetch %+v", v)
	}
}

func filter(events []Event, kind EventKind) []Event {
	var out []Event
	for _, e := range events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

func TestAcksAllSurvivesLeaderFailure(t *testing.T) {
	l := replicatedLog(t, map[string]string{"replication.factor": "3", "min.insync.replicas": "2"})
	for _, v := range []string{"a", "b", "c"} {
		produceAcks(t, l, v, "all")
	}
	mustAdvance(t, l, ReplicaFetchIntervalMs)
	if err := l.CrashBroker(1); err != nil {
		t.Fatal(err)
	}
	if got := values(t, l); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("records %v", got)
	}
	if err := l.CrashBroker(2); err != nil {
		t.Fatal(err)
	}
	// One replica left in sync: below min.insync.replicas.
	_, err := l.Produce(ProduceRequest{Topic: "t", Partition: 0, Value: "d", Acks: "all"})
	if err == nil || !strings.Contains(err.Error(), "NOT_ENOUGH_REPLICAS") {
		t.Fatalf("produce with ISR of 1: %v", err)
	}
	if _, err := l.Produce(ProduceRequest{Topic: "t", Partition: 0, Value: "d", Acks: "1"}); err != nil {
		t.Fatalf("acks=1 with ISR of 1: %v", err)
	}
	if err := l.CrashBroker(3); err != nil {
		t.Fatal(err)
	}
	v := replication(t, l)
	if !v.Offline || v.Leader != -1 || !slices.Equal(v.ISR, []int{3}) {
		t.Fatalf("all down: %+v", v)
	}
	if _, err := l.Produce(ProduceRequest{Topic: "t", Partition: 0, Value: "e"}); err == nil || !strings.Contains(err.Error(), "offline") {
		t.Fatalf("produce to offline: %v", err)
	}
	if _, err := l.Consume("t", 0, 0, 1); err == nil || !strings.Contains(err.Error(), "offline") {
		t.Fatalf("consume from offline: %v", err)
	}
	// Its replicas keep its records: the page draws them, unavailable.
	if stored, err := l.LogRecords("t", 0, 0, 10); err != nil || len(stored) != 4 || stored[3].Value != "d" {
		t.Fatalf("stored records of the offline partition: %v, %v", stored, err)
	}
	if why, brokers, err := l.Offline("t", 0); err != nil || why == "" || !slices.Equal(brokers, []int{1, 2, 3}) {
		t.Fatalf("Offline: %q on %v, %v", why, brokers, err)
	}
	// Broker 1 is not in the ISR: it may not lead.
	if err := l.RestartBroker(1); err != nil {
		t.Fatal(err)
	}
	if v := replication(t, l); !v.Offline {
		t.Fatalf("out-of-sync broker led: %+v", v)
	}
	if err := l.RestartBroker(3); err != nil {
		t.Fatal(err)
	}
	if v := replication(t, l); v.Offline || v.Leader != 3 {
		t.Fatalf("last in-sync replica back: %+v", v)
	}
	if got := values(t, l); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
		t.Fatalf("records %v", got)
	}
}

// The classic unclean election: followers fall out of the ISR, the leader
// goes on alone, dies, and an out-of-sync follower leads without the
// records it lacked, committed ones included.
func TestUncleanElectionLosesCommittedRecords(t *testing.T) {
	l := replicatedLog(t, map[string]string{"replication.factor": "3", "unclean.leader.election.enable": "true"})
	produceAcks(t, l, "a", "all")
	mustAdvance(t, l, ReplicaFetchIntervalMs)
	if err := l.IsolateBroker(1); err != nil {
		t.Fatal(err)
	}
	produceAcks(t, l, "b", "all")
	l.DrainEvents()
	mustAdvance(t, l, defaultReplicaLagTimeMaxMs+secondMs)
	events := l.DrainEvents()
	if shrunk := filter(events, EventISRShrunk); len(shrunk) != 2 {
		t.Fatalf("isr-shrunk events %+v", shrunk)
	}
	if acked := filter(events, EventAcknowledged); len(acked) != 1 {
		t.Fatalf("b acknowledged by an ISR of the leader alone with min.insync.replicas=1: %+v", events)
	}
	if hw, _ := l.HighWatermark("t", 0); hw != 2 {
		t.Fatalf("hw %d", hw)
	}
	if err := l.CrashBroker(1); err != nil {
		t.Fatal(err)
	}
	events = l.DrainEvents()
	lost := filter(events, EventRecordsLost)
	if len(lost) != 1 || lost[0].From != 1 || !strings.Contains(lost[0].Detail, "1 committed") {
		t.Fatalf("lost %+v", events)
	}
	if e := filter(events, EventLeaderElected); len(e) != 1 || !strings.Contains(e[0].Detail, "unclean") {
		t.Fatalf("elected %+v", e)
	}
	if hw, _ := l.HighWatermark("t", 0); hw != 1 {
		t.Fatalf("hw %d after unclean election", hw)
	}
	// New writes reuse the lost offset in a new epoch; the old leader,
	// back, truncates its b away by leader epoch.
	produceAcks(t, l, "c", "1")
	if err := l.RestartBroker(1); err != nil {
		t.Fatal(err)
	}
	if err := l.HealBroker(1); err != nil {
		t.Fatal(err)
	}
	mustAdvance(t, l, secondMs)
	v := replication(t, l)
	if v.Replicas[0].MatchOffset != 2 || v.Replicas[0].LogEndOffset != 2 || !v.Replicas[0].InSync {
		t.Fatalf("old leader after truncation %+v", v)
	}
	if got := values(t, l); !slices.Equal(got, []string{"a", "c"}) {
		t.Fatalf("records %v", got)
	}
}

func TestUncleanElectionWhenTurnedOn(t *testing.T) {
	l := replicatedLog(t, map[string]string{"replication.factor": "2"})
	produceAcks(t, l, "a", "1")
	if err := l.CrashBroker(2); err != nil {
		t.Fatal(err)
	}
	if err := l.CrashBroker(1); err != nil {
		t.Fatal(err)
	}
	if err := l.RestartBroker(2); err != nil {
		t.Fatal(err)
	}
	if v := replication(t, l); !v.Offline || !strings.Contains(v.OfflineReason, "unclean.leader.election.enable=false") {
		t.Fatalf("%+v", v)
	}
	if err := l.SetTopicConfig("t", "unclean.leader.election.enable", "true"); err != nil {
		t.Fatal(err)
	}
	if v := replication(t, l); v.Offline || v.Leader != 2 {
		t.Fatalf("%+v", v)
	}
}

func TestSlowFollowerLeavesAndRejoinsTheISR(t *testing.T) {
	l := replicatedLog(t, map[string]string{"replication.factor": "2"})
	if err := l.SlowBroker(2, 1, secondMs); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		produceAcks(t, l, "v", "1")
	}
	l.DrainEvents()
	mustAdvance(t, l, 10*secondMs)
	if v := replication(t, l); v.Replicas[1].LogEndOffset != 10 || !v.Replicas[1].InSync {
		t.Fatalf("after 10s at 1/s: %+v", v.Replicas[1])
	}
	mustAdvance(t, l, defaultReplicaLagTimeMaxMs)
	if v := replication(t, l); v.Replicas[1].InSync || !slices.Equal(v.ISR, []int{1}) {
		t.Fatalf("slow follower still in sync: %+v", v)
	}
	if hw, _ := l.HighWatermark("t", 0); hw != 100 {
		t.Fatalf("hw %d with the leader alone in sync", hw)
	}
	if err := l.HealBroker(2); err != nil {
		t.Fatal(err)
	}
	mustAdvance(t, l, ReplicaFetchIntervalMs)
	if v := replication(t, l); !v.Replicas[1].InSync || v.Replicas[1].LogEndOffset != 100 {
		t.Fatalf("healed follower: %+v", v.Replicas[1])
	}
}

// Under rules 2 (the min.insync.replicas cases; rules 3 accepts them, as
// replica_minisr_test.go shows).
func TestReplicationBadInput(t *testing.T) {
	l := newTestLogUnder(t, RulesV2, "t", 1, map[string]string{"replication.factor": "2"})
	before := dumpLog(l) + dumpReplication(l)
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"unknown broker", l.CrashBroker(4), "unknown broker 4"},
		{"broker 0", l.IsolateBroker(0), "unknown broker 0"},
		{"restart a live broker", l.RestartBroker(1), "not down"},
		{"heal a healthy broker", l.HealBroker(2), "nothing to heal"},
		{"zero pace", l.SlowBroker(2, 0, secondMs), "between 1 and"},
		{"rf above brokers", l.CreateTopic("u", 1, map[string]string{"replication.factor": "4"}), "larger than the 3 available brokers"},
		{"min.insync above rf", l.CreateTopic("u", 1, map[string]string{"replication.factor": "2", "min.insync.replicas": "3"}), "more than replication.factor=2"},
		{"set min.insync above rf", l.SetTopicConfig("t", "min.insync.replicas", "3"), "more than replication.factor=2"},
		{"change rf", l.SetTopicConfig("t", "replication.factor", "3"), "fixed when the topic is created"},
		{"too few brokers", l.SetBrokers(1), "holds a replica"},
		{"no brokers", l.SetBrokers(0), "between 1 and"},
		{"bad acks", func() error { _, err := l.Produce(ProduceRequest{Topic: "t", Partition: 0, Acks: "2"}); return err }(), "acks must be"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
				t.Errorf("%s: error %v, want %q", c.name, c.err, c.want)
			}
		})
	}
	if after := dumpLog(l) + dumpReplication(l); after != before {
		t.Fatalf("a refused operation changed the state:\n%s\nwant\n%s", after, before)
	}
}

// Like the Java client, keyless records skip partitions without a leader;
// keyed records do not (their partition is the key's).
func TestKeylessRecordsSkipOfflinePartitions(t *testing.T) {
	for _, partitioner := range []string{PartitionerRoundRobin, PartitionerSticky} {
		l := newTestLogUnder(t, RulesV1, "t", 3, map[string]string{"partitioner": partitioner})
		if err := l.CrashBroker(2); err != nil { // partition 1's only replica
			t.Fatal(err)
		}
		for range 20 {
			res, err := l.Produce(ProduceRequest{Topic: "t", Partition: -1, Value: "v"})
			if err != nil || res.Partition == 1 {
				t.Fatalf("%s: keyless record went to %d: %v", partitioner, res.Partition, err)
			}
		}
		key := "k"
		for PartitionFor(key, 3) != 1 {
			key += "k"
		}
		if _, err := l.Produce(ProduceRequest{Topic: "t", Partition: -1, Key: key, HasKey: true}); err == nil || !strings.Contains(err.Error(), "offline") {
			t.Fatalf("%s: keyed record for the offline partition: %v", partitioner, err)
		}
	}
}

// LogRecords reads the leader's log to its end, above the high watermark,
// where Consume, a consumer's fetch, stops at the high watermark.
func TestLogRecordsReadAboveTheHighWatermark(t *testing.T) {
	l := replicatedLog(t, map[string]string{"replication.factor": "3"})
	for _, v := range []string{"a", "b", "c"} {
		produceAcks(t, l, v, "1")
	}
	if hw, _ := l.HighWatermark("t", 0); hw != 0 {
		t.Fatalf("high watermark %d before the followers fetched, want 0", hw)
	}
	if got, err := l.Consume("t", 0, 0, 10); err != nil || len(got) != 0 {
		t.Errorf("Consume above the high watermark: %v, %v; want nothing", got, err)
	}
	got, err := l.LogRecords("t", 0, 0, 10)
	if err != nil || len(got) != 3 || got[2].Value != "c" {
		t.Fatalf("LogRecords: %v, %v; want the 3 records", got, err)
	}
	if _, err := l.LogRecords("t", 0, 4, 10); err == nil {
		t.Error("LogRecords past the log end is not out of range")
	}
	// An offline partition keeps its records, unavailable: they are still
	// there to show.
	mustAdvance(t, l, ReplicaFetchIntervalMs)
	for _, b := range []int{1, 2, 3} {
		if err := l.CrashBroker(b); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Consume("t", 0, 0, 10); err == nil {
		t.Error("Consume of an offline partition succeeds")
	}
	if got, err := l.LogRecords("t", 0, 0, 10); err != nil || len(got) != 3 {
		t.Errorf("LogRecords of an offline partition: %v, %v; want its 3 records", got, err)
	}
}
