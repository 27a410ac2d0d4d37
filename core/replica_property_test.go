package core

import (
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// durableConfigs is Kafka's durable setup: three replicas, two in sync at
// least, no unclean elections. Retention is off so that no record leaves
// for another reason.
var durableConfigs = map[string]string{
	"replication.factor": "3", "min.insync.replicas": "2", "retention.ms": "-1",
}

// TestAcksAllNeverLosesAnAcknowledgedRecord: with acks=all,
// min.insync.replicas=2 and unclean election off, no sequence of crashes,
// restarts, isolations and slowdowns loses a record whose producer was told
// it was written.
func TestAcksAllNeverLosesAnAcknowledgedRecord(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		o, err := newReplicaOps(rapid.Int64().Draw(rt, "seed"), AcksAll, durableConfigs)
		if err != nil {
			rt.Fatal(err)
		}
		c := rapidChooser{rt}
		for range rapid.IntRange(1, 120).Draw(rt, "steps") {
			o.step(c)
			if err := checkReplicationInvariants(o.l); err != nil {
				rt.Fatalf("%v after %s", err, strings.Join(o.trace, "; "))
			}
			if v := o.lost(); v != "" {
				rt.Fatalf("acknowledged %s lost after %s", v, strings.Join(o.trace, "; "))
			}
		}
	})
}

// findLoss runs random sequences until one loses an acknowledged record
// and returns its trace, or nil after tries sequences.
func findLoss(t *testing.T, acks string, configs map[string]string, tries int) []string {
	t.Helper()
	for i := range tries {
		o, err := newReplicaOps(int64(i), acks, configs)
		if err != nil {
			t.Fatal(err)
		}
		c := &randomChooser{rand.New(rand.NewPCG(uint64(i), 7))}
		for range 60 {
			o.step(c)
			if err := checkReplicationInvariants(o.l); err != nil {
				t.Fatalf("%v after %s", err, strings.Join(o.trace, "; "))
			}
			if v := o.lost(); v != "" {
				t.Logf("sequence %d loses %s: %s", i, v, strings.Join(o.trace, "; "))
				return o.trace
			}
		}
	}
	return nil
}

type randomChooser struct{ r *rand.Rand }

func (c *randomChooser) choose(n int, _ string) int { return c.r.IntN(n) }

// TestAcks1CanLoseAnAcknowledgedRecord: the model really can lose data.
// With acks=1 the leader answers before its followers copy.
func TestAcks1CanLoseAnAcknowledgedRecord(t *testing.T) {
	if findLoss(t, Acks1, durableConfigs, 500) == nil {
		t.Fatal("no sequence lost an acks=1 record")
	}
}

// TestUncleanElectionCanLoseAnAcknowledgedRecord: with acks=all but unclean
// leader election on, an out-of-sync replica may lead without records the
// ISR had acknowledged.
func TestUncleanElectionCanLoseAnAcknowledgedRecord(t *testing.T) {
	configs := map[string]string{"unclean.leader.election.enable": "true"}
	for k, v := range durableConfigs {
		configs[k] = v
	}
	if findLoss(t, AcksAll, configs, 2000) == nil {
		t.Fatal("no sequence lost an acks=all record to an unclean election")
	}
}

// TestReplicationDeterministic: the same operations on two engines with
// the same seed, and on a clone taken half way, give the same state.
func TestReplicationDeterministic(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		seed := rapid.Int64().Draw(rt, "seed")
		input := rapid.SliceOfN(rapid.Byte(), 0, 400).Draw(rt, "input")
		run := func(o *replicaOps, data []byte) {
			c := &bytesChooser{data: data}
			for !c.done() {
				o.step(c)
			}
		}
		a, _ := newReplicaOps(seed, Acks1, durableConfigs)
		b, _ := newReplicaOps(seed, Acks1, durableConfigs)
		half := len(input) / 2
		run(a, input[:half])
		clone := &replicaOps{l: a.l.Clone(), acks: a.acks, acked: map[string]int{}, seq: a.seq}
		if dumpLog(clone.l)+dumpReplication(clone.l) != dumpLog(a.l)+dumpReplication(a.l) {
			rt.Fatal("a clone differs from its original")
		}
		run(a, input[half:])
		run(clone, input[half:])
		run(b, input[:half])
		run(b, input[half:])
		want := dumpLog(a.l) + dumpReplication(a.l)
		if got := dumpLog(b.l) + dumpReplication(b.l); got != want {
			rt.Fatalf("same operations, different states:\n%s\n%s", got, want)
		}
		if got := dumpLog(clone.l) + dumpReplication(clone.l); got != want {
			rt.Fatalf("the clone went its own way:\n%s\n%s", got, want)
		}
	})
}
