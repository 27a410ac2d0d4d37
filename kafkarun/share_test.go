package kafkarun

import (
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A share group on kfake, franz-go's in-process Kafka, which implements
// KIP-932: two members share one partition, an explicit member releases
// and rejects, a crashed member's locks expire in the playground's virtual
// time and the run releases its records through its client, and the
// start offset, lag, deliveries and acknowledgements agree; the in-flight
// records and archived count are the broker's, not shown, with their
// reason. kfake reports the broker's start offset itself, where Kafka
// 4.4 reports its share coordinator's, one write behind (the
// conformance suite compares that with Kafka's): that row is checked
// here to differ by kfake's.
func TestShareGroupOnKfake(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `topic jobs partitions=1
share-join work a topics=jobs max.poll.records=2
config group work share.auto.offset.reset=earliest
share-join work b topics=jobs share.acknowledgement.mode=explicit max.poll.records=2
produce jobs key=k value=v count=6
share-poll work a
share-poll work b
acknowledge work b release jobs/0 offsets=2
acknowledge work b reject jobs/0 offsets=3
share-poll work a
crash work a
advance 30s
share-poll work b
acknowledge work b accept
`)
	except := map[string]Reason{
		"share work jobs/0 in flight": ReasonShareInFlight,
		"share work archived":         ReasonShareInFlight,
	}
	for i, row := range res.Comparison.Rows {
		if row.What == "share work jobs/0 reported start offset" {
			if row.Playground != "2" || row.Cluster != "5" {
				t.Errorf("reported start offset: playground %s (Kafka's, one write behind), kfake %s (its live start offset); want 2 and 5", row.Playground, row.Cluster)
			}
			res.Comparison.Rows = append(res.Comparison.Rows[:i], res.Comparison.Rows[i+1:]...)
			break
		}
	}
	allSame(t, res, except)
	if len(res.Cluster.ShareGroups) != 1 || res.Cluster.ShareGroups[0].Name != "work" {
		t.Errorf("the cluster's share groups are %+v, want work alone", res.Cluster.ShareGroups)
	}
	text := res.Comparison.Text()
	for _, want := range []string{"share work deliveries", "share work jobs/0 reported lag", "released those records through a's client"} {
		if !strings.Contains(text, want) {
			t.Errorf("the comparison lacks %q:\n%s", want, text)
		}
	}
}

// slowPollReturn holds each PollRecords a moment after it took its
// records, while the poll is still active: franz-go's poll-driven share
// consumer grants one more ShareFetch in that window, which a loaded
// machine opens by itself now and then.
type slowPollReturn struct{}

func (slowPollReturn) OnFetchRecordUnbuffered(_ *kgo.Record, polled bool) {
	if polled {
		time.Sleep(300 * time.Millisecond)
	}
}

// A fetch the client sends as a poll returns acquires the next record:
// the member's next poll returns it where the playground's redelivers the
// record the member released. The run sees the records buffered outside
// a poll and names the difference (ReasonSharePrefetch), where without it
// the deliveries would differ unexplained.
func TestSharePrefetchIsNamed(t *testing.T) {
	t.Parallel()
	brokers := startKfake(t)
	opts := testOptions(brokers)
	opts.ClientOpts = []kgo.Opt{kgo.WithHooks(slowPollReturn{})}
	res := runOn(t, opts, `topic payments partitions=1
share-join refunds r1 topics=payments share.acknowledgement.mode=explicit max.poll.records=1
config group refunds share.auto.offset.reset=earliest
produce payments key=pay-1 value=corrupt
produce payments key=pay-2 value=refund
share-poll refunds r1
acknowledge refunds r1 release payments/0 offsets=0
share-poll refunds r1
`)
	var deliveries Row
	for _, row := range res.Comparison.Rows {
		if row.What == "share refunds deliveries" {
			deliveries = row
		}
	}
	if deliveries.Match || deliveries.Reason != ReasonSharePrefetch || !strings.Contains(deliveries.Cluster, "payments/0@1×1") {
		t.Errorf("deliveries: %+v, want the cluster's second poll to return offset 1, named ReasonSharePrefetch\n%s", deliveries, res.Comparison.Text())
	}
	if !res.Comparison.OK() {
		t.Errorf("unexpected differences:\n%s", res.Comparison.Text())
	}
	if text := res.Comparison.Text(); !strings.Contains(text, "had acquired records outside a poll") {
		t.Errorf("the comparison does not say the client fetched outside a poll:\n%s", text)
	}
}

// A consumer workload on a share group's member is not run on the cluster:
// the playground's member polls and accepts records the cluster's never
// sees, and the run explains the share group's rows by the workload, as
// it does a consumer group's; the topic's rows still agree.
func TestShareWorkloadIsExplained(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `topic jobs partitions=1
share-join work a topics=jobs max.poll.records=2
config group work share.auto.offset.reset=earliest
produce jobs key=k value=v count=4
consumer work a rate=1/s
advance 3s
`)
	explained := 0
	for _, row := range res.Comparison.Rows {
		switch {
		case row.Reason == ReasonShareInFlight && !row.Match: // never shown by Kafka's admin API
		case strings.HasPrefix(row.What, "share work") && !row.Match:
			if row.Reason != ReasonWorkload {
				t.Errorf("%s: playground %s, cluster %s, reason %q; want %q", row.What, row.Playground, row.Cluster, row.Reason, ReasonWorkload)
			}
			explained++
		case !row.Match && row.Reason != ReasonNoGeneration:
			t.Errorf("%s: playground %s, cluster %s (reason %q)", row.What, row.Playground, row.Cluster, row.Reason)
		}
	}
	if explained == 0 {
		t.Errorf("no share group row differs, though the playground's workload polled:\n%s", res.Comparison.Text())
	}
	if !strings.Contains(res.Comparison.Text(), "consumer work a: not run on the cluster") {
		t.Errorf("the run does not say the workload was not run:\n%s", res.Comparison.Text())
	}
}

// A poll the playground finds empty ends on the cluster once the broker
// has answered the member's ShareFetches twice with nothing, however long
// it takes: with share.auto.offset.reset at its default, latest, that
// first poll starts the share-partition at the log's end, so the records
// produced after it are the next poll's, on both sides. The broker here
// answers the first ShareFetch late, as a busy one does, and only then
// starts the share-partition (a run that stopped waiting first would
// produce before it, and find those records gone to the log's end).
func TestAnEmptySharePollWaitsForTheBroker(t *testing.T) {
	t.Parallel()
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cluster.Close)
	cluster.ControlKey(int16(kmsg.ShareFetch), func(kmsg.Request) (kmsg.Response, error, bool) {
		cluster.DropControl()
		cluster.SleepControl(func() { time.Sleep(3 * time.Second) })
		return nil, nil, false
	})
	res := runOn(t, testOptions(cluster.ListenAddrs()), `topic jobs partitions=1
produce jobs key=before value=v
share-join work a topics=jobs max.poll.records=5
share-poll work a
produce jobs key=after value=v count=3
share-poll work a
`)
	for _, row := range res.Comparison.Rows {
		if (row.What == "share work acquired" || row.What == "share work deliveries") && (!row.Match || !strings.HasPrefix(row.Playground, "3 ")) {
			t.Errorf("%s: playground %s, cluster %s; want 3 on both sides", row.What, row.Playground, row.Cluster)
		}
	}
}
