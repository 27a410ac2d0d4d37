package kafkarun

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// freezable is a kfake cluster that stops answering, as a broker stopped
// with SIGSTOP does: connections stay open and requests get no answer.
type freezable struct {
	cluster *kfake.Cluster
	brokers []string
	frozen  atomic.Bool
}

// startFreezable starts a cluster that freezes when a request of key
// freezeAt arrives (that request is not answered either).
func startFreezable(t *testing.T, freezeAt kmsg.Key) *freezable {
	t.Helper()
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cluster.Close)
	f := &freezable{cluster: cluster, brokers: cluster.ListenAddrs()}
	cluster.Control(func(req kmsg.Request) (kmsg.Response, error, bool) {
		cluster.KeepControl()
		if req.Key() == int16(freezeAt) {
			f.frozen.Store(true)
		}
		return nil, nil, f.frozen.Load() // handled with no answer: the client waits
	})
	return f
}

// runFrozen runs script with short deadlines (3 s a command, 1 s to close
// the members, 1 s to delete) and checks that it fails in time (5 s, and
// room for a busy machine), saying each of want.
func runFrozen(t *testing.T, f *freezable, script string, want ...string) error {
	t.Helper()
	opts := testOptions(f.brokers)
	opts.Prefix, opts.WaitTimeout = "frozen-", time.Second
	start := time.Now()
	res, err := Run(context.Background(), script, opts)
	if err == nil {
		t.Fatalf("Run on a frozen broker succeeded: %+v", res)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the run took %s to fail on a frozen broker", took)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error does not say %q:\n%v", w, err)
		}
	}
	return err
}

// A broker that freezes mid-run fails the run at the command it froze in,
// within that command's deadline plus the cleanup's, and the error names
// what the cleanup could not delete and how to delete it.
func TestFrozenBrokerFailsWithinItsDeadlineAndNamesWhatIsLeft(t *testing.T) {
	f := startFreezable(t, kmsg.Produce)
	err := runFrozen(t, f, "topic orders partitions=2\nproduce orders key=k value=v\njoin billing c1 topics=orders\npoll billing c1\n",
		"line 2: produce orders key=k value=v: the cluster did not answer within 3s: is a broker down or frozen?",
		"could not delete all the run created",
		"kafka-topics.sh --bootstrap-server "+f.brokers[0]+" --delete --topic frozen-orders")
	var left *LeftBehindError
	if !errors.As(err, &left) || !slices.Equal(left.Topics, []string{"frozen-orders"}) {
		t.Errorf("left behind: %+v", left)
	}
	// The broker resumes: what the error named is there, and the command
	// it gave (DeleteTopics) deletes it.
	f.frozen.Store(false)
	if got := topicsOn(t, f.brokers); !slices.Equal(got, []string{"frozen-orders"}) {
		t.Fatalf("topics after the run: %v, want the one the error names", got)
	}
	if _, err := adminOn(t, f.brokers).DeleteTopics(context.Background(), left.Topics...); err != nil {
		t.Fatal(err)
	}
}

// A member's close waits for its LeaveGroup, which a frozen broker never
// answers: the leave is bounded too, and the group is named as left.
func TestFrozenBrokerAtLeaveGroupIsBounded(t *testing.T) {
	f := startFreezable(t, kmsg.LeaveGroup)
	runFrozen(t, f, "topic orders\nproduce orders key=k\njoin billing c1 topics=orders\nadvance 1s\npoll billing c1\nleave billing c1\n",
		"line 6: leave billing c1: the cluster did not answer within 3s",
		"--delete --topic frozen-orders",
		"kafka-consumer-groups.sh --bootstrap-server "+f.brokers[0]+" --delete --group frozen-billing")
}

// A run whose context is cancelled part way (Ctrl-C in plogsim) stops at
// once, says why, and still deletes what it created.
func TestCancelledRunStopsAndCleansUp(t *testing.T) {
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cluster.Close)
	brokers := cluster.ListenAddrs()
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	// Cancel as the member's poll starts to fetch: the group is formed,
	// the topic has records.
	var cancelled atomic.Int64
	cluster.ControlKey(int16(kmsg.Fetch), func(kmsg.Request) (kmsg.Response, error, bool) {
		cancelled.CompareAndSwap(0, time.Now().UnixNano())
		cancel(errors.New("interrupted by a test"))
		return nil, nil, false
	})
	opts := testOptions(brokers)
	opts.Prefix = "stopped-"
	_, err = Run(ctx, "topic orders\nproduce orders key=k count=3\njoin billing c1 topics=orders\nadvance 1s\npoll billing c1\ncommit billing c1\n", opts)
	if err == nil || !strings.Contains(err.Error(), "the run was stopped (interrupted by a test)") {
		t.Fatalf("want the run stopped, got %v", err)
	}
	if took := time.Since(time.Unix(0, cancelled.Load())); took > 3*time.Second {
		t.Errorf("a cancelled run took %s to stop and clean up", took)
	}
	if got := topicsOn(t, brokers); len(got) != 0 {
		t.Errorf("topics left after a cancelled run: %v", got)
	}
	if got := groupsOn(t, brokers); len(got) != 0 {
		t.Errorf("groups left after a cancelled run: %v", got)
	}
}

// Names Kafka would refuse or read as its own internal topics are refused
// before the cluster is touched (no broker listens on port 1).
func TestTopicNamesKafkaRefusesAreRefusedFirst(t *testing.T) {
	long := strings.Repeat("a", maxTopicName-len("p-"))
	for _, tc := range []struct{ prefix, script, want string }{
		{"_", "topic _consumer_offsets\n", "topic _consumer_offsets would be __consumer_offsets on the cluster: names starting with \"__\" are Kafka's internal topics"},
		{"__", "topic t\n", `prefix "__": names starting with "__" are Kafka's internal topics`},
		{"p-", "topic " + long + "x\n", "line 1: topic " + long + "x would be p-" + long + "x on the cluster, 250 characters: Kafka's topic names hold at most 249"},
		{strings.Repeat("p", 249), "topic t\n", "is 249 characters"},
	} {
		t.Run(tc.prefix+" "+strings.TrimSpace(tc.script), func(t *testing.T) {
			opts := testOptions([]string{"127.0.0.1:1"})
			opts.Prefix = tc.prefix
			_, err := Run(context.Background(), tc.script, opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("prefix %q, %q: got %v, want %q", tc.prefix, tc.script, err, tc.want)
			}
		})
	}
	// At the limit, the name goes to the cluster (which is not there).
	opts := testOptions([]string{"127.0.0.1:1"})
	opts.Prefix, opts.DialTimeout = "p-", 500*time.Millisecond
	if _, err := Run(context.Background(), "topic "+long+"\n", opts); err == nil || !strings.Contains(err.Error(), "cannot reach") {
		t.Errorf("a 249-character name: %v, want it sent to the cluster", err)
	}
}
