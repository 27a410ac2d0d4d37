package conformance

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"plog/core"
	"plog/core/scenario"
	"plog/kafkarun"
)

// shareGroupConfigs are the conformance broker's configs for share groups
// (KIP-932). Kafka 4.4 needs nothing to turn them on: kafka-storage format
// finalizes the release's share.version (ShareVersion.SV_2, bootstrapped
// from metadata version 4.4-IV0), which TestShareGroupsEnabled checks.
// Its least acquisition lock and heartbeat interval are 15 s and 5 s
// (ShareGroupConfig.group.share.min.record.lock.duration.ms,
// GroupCoordinatorConfig.group.share.min.heartbeat.interval.ms); lower
// minimums let TestShareLockExpiryLikeKafka give its group a lock of a
// second, so that real locks expire within the test, and let plogsim
// kafka's members heartbeat every 200 ms (kafkarun/share.go), so that
// they learn their partitions in moments. The defaults, which the
// playground follows (core/share_config.go), stay Kafka's.
var shareGroupConfigs = map[string]string{
	"group.share.min.record.lock.duration.ms": "1000",
	"group.share.min.heartbeat.interval.ms":   "100",
}

// The broker formatted as Kafka 4.4's kafka-storage format does has share
// groups on: its finalized share.version is at least 1, the level Kafka
// 4.2 made production-ready (ShareVersion.SV_1).
func TestShareGroupsEnabled(t *testing.T) {
	t.Parallel()
	client, _ := adminOf(t, brokers)
	ctx, cancel := context.WithTimeout(context.Background(), brokerDeadline)
	defer cancel()
	resp, err := kmsg.NewPtrApiVersionsRequest().RequestWith(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	var levels []string
	for _, f := range resp.FinalizedFeatures {
		levels = append(levels, fmt.Sprintf("%s=%d", f.Name, f.MaxVersionLevel))
		if f.Name == "share.version" && f.MaxVersionLevel >= 1 {
			return
		}
	}
	t.Fatalf("share.version is not finalized at 1 or more: finalized features %s", strings.Join(levels, " "))
}

// Share group scenarios through plogsim kafka (kafkarun) on the broker:
// members sharing one partition, implicit and explicit acknowledgement, a
// poison record released until its fifth delivery archives it, a hung
// member whose records go back when the playground's locks expire, more
// members than partitions. Acquired and accepted counts, every delivery
// with its delivery count, the refusals, the start offset (SPSO) and the
// lag agree with the playground's prediction.
func TestShareGroupsLikeKafka(t *testing.T) {
	cases := map[string]string{
		"implicit": `topic jobs partitions=1
share-join work a topics=jobs max.poll.records=2
config group work share.auto.offset.reset=earliest
share-join work b topics=jobs max.poll.records=2
produce jobs key=k value=v count=5
share-poll work a
share-poll work b
share-poll work a
share-poll work b
share-leave work a
`,
		"latest": `topic jobs partitions=1
produce jobs key=old value=v count=2
share-join work a topics=jobs
share-poll work a
produce jobs key=new value=v count=3
share-poll work a
share-poll work a
`,
		"explicit": `topic jobs partitions=1
share-join work a topics=jobs share.acknowledgement.mode=explicit max.poll.records=4
config group work share.auto.offset.reset=earliest
produce jobs key=k value=v count=6
share-poll work a
acknowledge work a accept jobs/0 offsets=0
acknowledge work a release jobs/0 offsets=1
acknowledge work a reject jobs/0 offsets=2
acknowledge work a accept jobs/0 offsets=3
share-poll work a
acknowledge work a accept
`,
		"poison": `topic jobs partitions=1
share-join work a topics=jobs share.acknowledgement.mode=explicit max.poll.records=1
config group work share.auto.offset.reset=earliest
produce jobs key=poison value=v
produce jobs key=fine value=v
share-poll work a
acknowledge work a release
share-poll work a
acknowledge work a release
share-poll work a
acknowledge work a release
share-poll work a
acknowledge work a release
share-poll work a
acknowledge work a release
share-poll work a
acknowledge work a accept
`,
		"delivery-limit": `topic jobs partitions=1
share-join work a topics=jobs share.acknowledgement.mode=explicit max.poll.records=3
config group work share.auto.offset.reset=earliest share.delivery.count.limit=2
produce jobs key=k value=v count=3
share-poll work a
acknowledge work a release
share-poll work a
acknowledge work a release
share-poll work a
`,
		"crash": `topic jobs partitions=1
share-join work a topics=jobs max.poll.records=3
config group work share.auto.offset.reset=earliest
share-join work b topics=jobs max.poll.records=3
produce jobs key=k value=v count=4
share-poll work a
crash work a
share-poll work b
advance 30s
share-poll work b
share-poll work b
`,
		"more-members": `topic jobs partitions=1
share-join work a topics=jobs max.poll.records=1
config group work share.auto.offset.reset=earliest
share-join work b topics=jobs max.poll.records=1
share-join work c topics=jobs max.poll.records=1
produce jobs key=k value=v count=6
share-poll work a
share-poll work b
share-poll work c
share-poll work c
share-poll work b
share-poll work a
`,
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range cases {
			if !yield(k) {
				return
			}
		}
	}) {
		t.Run(name, func(t *testing.T) { runCase(t, "share", "share-"+name, cases[name]) })
	}
}

// A share member that does not poll still heartbeats, on its client's
// background thread (ShareHeartbeatRequestManager of kafka-clients 4.4;
// franz-go's share consumer alike), and gets a topic's new partitions at
// its next heartbeat (GroupMetadataManager.onMetadataUpdate, then
// shareGroupHeartbeat), as the playground's member gets them under rules
// 6, without a poll. Under rules 5 the playground gives them at the next
// poll, so the member's row differs until one, and says why
// (ReasonShareNewPartitions).
func TestShareNewPartitionsWithoutAPollLikeKafka(t *testing.T) {
	t.Parallel()
	const script = `topic jobs partitions=1
share-join work a topics=jobs
partitions jobs count=3
`
	wantRows(t, runTxnScript(t, "rules 6\n"+script), map[string]string{
		"share work a owns": "jobs/0,1,2",
	})
	for _, row := range runTxnScript(t, "rules 5\n"+script).Comparison.Rows {
		if row.What == "share work a owns" && (row.Playground != "jobs/0" || !row.Match && row.Reason != kafkarun.ReasonShareNewPartitions) {
			t.Errorf("rules 5, the member that has not polled since: %+v, want jobs/0 in the playground, any difference with ReasonShareNewPartitions", row)
		}
	}
}

// Real acquisition locks expire on the broker as the playground's do in
// virtual time (SharePartition.releaseAcquisitionLockOnTimeout, Kafka
// 4.4): a member polls three records and hangs; once its lock has run
// out another member's poll acquires the same records, delivered a second
// time; that member hangs too, and at share.delivery.count.limit=2 the
// expired lock archives them, so the start offset moves past them: a
// third member gets only the next record, and once it accepts it the
// start offset Kafka reports is past the archived records. The
// playground predicts it with a 30 s lock (its least is the brokers'
// default bound, 15 s); the broker's lock is one second of wall time,
// which only this test's minimum allows.
func TestShareLockExpiryLikeKafka(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
	defer cancel()
	client, admin := adminOf(t, brokers)
	prefix := fmt.Sprintf("share-lock-%d-", time.Now().UnixNano())
	topic, group := prefix+"jobs", prefix+"work"
	if _, err := admin.CreateTopic(ctx, 1, 1, nil, topic); err != nil {
		t.Fatal(err)
	}
	waitForTopic(t, ctx, client, topic)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		admin.DeleteGroups(ctx, group)
		admin.DeleteTopics(ctx, topic)
	})
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	res := kmsg.NewIncrementalAlterConfigsRequestResource()
	res.ResourceType, res.ResourceName = kmsg.ConfigResourceTypeGroupConfig, group
	for k, v := range map[string]string{"share.record.lock.duration.ms": "1000", "share.delivery.count.limit": "2", "share.auto.offset.reset": "earliest", "share.heartbeat.interval.ms": "200"} {
		cfg := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
		cfg.Name, cfg.Value = k, kmsg.StringPtr(v)
		res.Configs = append(res.Configs, cfg)
	}
	req.Resources = append(req.Resources, res)
	if resp, err := req.RequestWith(ctx, client); err != nil || kerr.ErrorForCode(resp.Resources[0].ErrorCode) != nil {
		t.Fatalf("group configs: %v %v", err, resp)
	}
	for i := range 3 {
		if err := client.ProduceSync(ctx, &kgo.Record{Topic: topic, Key: []byte("k"), Value: []byte(fmt.Sprint(i))}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	member := func(name string) *kgo.Client {
		c, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.ClientID(name), kgo.ShareGroup(group), kgo.ConsumeTopics(topic),
			kgo.ShareMaxRecords(3), kgo.ShareMaxRecordsStrict(), kgo.MaxConcurrentFetches(0), kgo.FetchMaxWait(200*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	// poll polls until the member acquires records: b's first records
	// are a's, once a's lock has expired on the broker, so b polls until
	// then, however late the broker's timer fires.
	poll := func(c *kgo.Client, name string) string {
		var got []string
		waitFor(t, name+"'s poll to acquire the records", func() bool {
			pollCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
			defer cancel()
			for _, r := range c.PollRecords(pollCtx, 3).Records() {
				got = append(got, fmt.Sprintf("%d×%d", r.Offset, r.DeliveryCount()))
			}
			return len(got) > 0
		})
		return strings.Join(got, " ")
	}
	// reported is the start offset and lag the share coordinator reports,
	// -1 and -1 before it has any.
	reported := func() (int64, int64) {
		described, err := admin.DescribeShareGroupOffsets(ctx, group)
		if err != nil {
			return -1, -1
		}
		o, ok := described[group].Offsets.Lookup(topic, 0)
		if !ok || o.Err != nil {
			return -1, -1
		}
		return o.StartOffset, o.Lag
	}
	a := member("a")
	gotA := poll(a, "a")
	b := member("b")
	gotB := poll(b, "b")
	// b hangs too. Its lock expires at share.delivery.count.limit and
	// archives the records; the broker writes that to the share
	// coordinator, whose share lag (KIP-1226: the high watermark, less the
	// start offset, less the records delivered for good) is then 0 where
	// it was 3, before it moves the start offset past them
	// (SharePartition.writeShareGroupState, then
	// maybeUpdateCachedStateAndOffsets). So the coordinator keeps the
	// start offset as it was before that write: a new record accepted by a
	// third member writes the start offset past the archived ones.
	waitFor(t, "b's lock to expire and archive the records", func() bool {
		start, lag := reported()
		return start >= 0 && lag == 0
	})
	if err := client.ProduceSync(ctx, &kgo.Record{Topic: topic, Key: []byte("k"), Value: []byte("3")}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	c := member("c")
	gotC := poll(c, "c")
	c.MarkAcks(kgo.AckAccept)
	if err := c.FlushAcks(ctx); err != nil {
		t.Fatal(err)
	}
	var start, lag int64
	waitFor(t, "the reported start offset to move past the archived records", func() bool {
		start, lag = reported()
		return start >= 3
	})

	s := scenario.NewSession()
	want := map[string][]string{}
	for _, line := range strings.Split(`topic jobs partitions=1
share-join work a topics=jobs max.poll.records=3
config group work share.auto.offset.reset=earliest share.delivery.count.limit=2
produce jobs key=k value=v count=3
share-poll work a
crash work a
share-join work b topics=jobs max.poll.records=3
advance 30s
share-poll work b
crash work b
advance 30s
produce jobs key=k value=v
share-join work c topics=jobs max.poll.records=3
share-poll work c
share-poll work c`, "\n") {
		events, err := s.Apply(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		for _, e := range events {
			if e.Kind == core.EventShareAcquired {
				want[e.Member] = append(want[e.Member], fmt.Sprintf("%d×%d", e.Offset, e.Count))
			}
		}
	}
	v, err := s.Log().ShareGroup("work")
	if err != nil || len(v.Partitions) != 1 {
		t.Fatalf("the playground's share group: %v %+v", err, v)
	}
	p := v.Partitions[0]
	for _, row := range [][3]string{
		{"a's poll", strings.Join(want["a"], " "), gotA},
		{"b's poll after a's lock expired", strings.Join(want["b"], " "), gotB},
		{"c's poll after b's lock expired at the delivery count limit", strings.Join(want["c"], " "), gotC},
		{"reported start offset", fmt.Sprint(p.ReportedStartOffset), fmt.Sprint(start)},
		{"reported lag", fmt.Sprint(p.ReportedLag), fmt.Sprint(lag)},
	} {
		if row[1] != row[2] {
			t.Errorf("%s: playground %s, Kafka %s", row[0], row[1], row[2])
		}
	}
}
