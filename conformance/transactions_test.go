package conformance

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"plog/core"
	"plog/core/scenario"
	"plog/kafkarun"
)

// Transactions and named producers against Kafka 4.4's broker: scripts run
// through kafkarun (franz-go v1.22.3 clients, the transaction protocol v2 of
// KIP-890), and the rows that show what the broker did (the markers and
// their offsets, the last stable offset, what read_committed and
// read_uncommitted groups read and committed, the producers' epochs) must
// be there and agree with the playground.

// runTxnScript runs a script through kafkarun on the shared broker and
// fails on an error or a difference without a reason.
func runTxnScript(t *testing.T, script string) *kafkarun.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
	defer cancel()
	res, err := kafkarun.Run(ctx, script, runOptions())
	if err != nil {
		t.Fatalf("kafkarun: %v", err)
	}
	if testing.Verbose() {
		t.Logf("comparison:\n%s", res.Comparison.Text())
	}
	if bad := res.Comparison.Unexpected(); len(bad) > 0 {
		t.Errorf("%d differences without a reason:\n%s\ncluster:\n%s", len(bad), res.Comparison.Text(), res.Cluster.Text())
	}
	return res
}

// wantRows fails unless each row named is in the comparison, the same on
// both sides, and the value given.
func wantRows(t *testing.T, res *kafkarun.Result, want map[string]string) {
	t.Helper()
	rows := map[string]kafkarun.Row{}
	for _, row := range res.Comparison.Rows {
		rows[row.What] = row
	}
	for what, value := range want {
		row, ok := rows[what]
		switch {
		case !ok:
			t.Errorf("no row %q in the comparison", what)
		case !row.Match || row.Cluster != value:
			t.Errorf("%s: playground %s, cluster %s, want %s on both", what, row.Playground, row.Cluster, value)
		}
	}
	if t.Failed() {
		t.Logf("comparison:\n%s", res.Comparison.Text())
	}
}

// A consume-transform-produce transaction over two topics commits (a COMMIT
// marker in each partition it wrote, the group's offset arriving with it),
// the next one aborts (an ABORT marker), and a third is left open: the last
// stable offset stays at its first record. read_committed reads below the
// last stable offset and skips the aborted record, read_uncommitted reads
// it; both move past the markers. Kafka 4.4: TransactionCoordinator,
// UnifiedLog.lastStableOffset, FetchCollector.
func TestTransactionsCommitAbortAndIsolation(t *testing.T) {
	t.Parallel()
	res := runTxnScript(t, `topic in
topic out
topic audit
produce in key=a value=1 count=2
join g c topics=in
config group g auto.offset.reset=earliest enable.auto.commit=false
join rc r topics=out
config group rc isolation.level=read_committed auto.offset.reset=earliest enable.auto.commit=false
join ru u topics=out
config group ru auto.offset.reset=earliest enable.auto.commit=false
producer-config t transactional.id=tx
advance 4s
txn t init
poll g c
txn t begin
produce out key=a value=x producer=t
produce audit key=a value=seen producer=t
txn t send-offsets group=g
poll rc r
poll ru u
txn t commit
poll rc r
txn t begin
produce out key=a value=z producer=t
txn t abort
poll rc r
poll ru u
commit rc r
commit ru u
txn t begin
produce out key=b value=open producer=t
`)
	wantRows(t, res, map[string]string{
		"out/0 markers":                "1:COMMIT 3:ABORT",
		"audit/0 markers":              "1:COMMIT",
		"out/0 transactions":           "0:committed 2:aborted 4:open",
		"out/0 high watermark":         "5",
		"out/0 last stable offset":     "4",
		"audit/0 last stable offset":   "2",
		"g in/0 committed":             "2",
		"rc out/0 committed":           "4",
		"ru out/0 committed":           "4",
		"rc out/0 lag to last stable":  "0",
		"producer t epoch":             "2",
		"producer t transaction state": "in-transaction",
		"producer ids":                 "t=#1",
	})
}

// Two producers' transactions interleaved on one partition: the last
// stable offset stays at the first record of the one still open, though
// the other committed after it, and once that one aborts, read_committed
// skips its record and reads the other's (Kafka 4.4 UnifiedLog's
// firstUnstableOffset, the aborted transactions index and FetchCollector).
func TestTransactionsInterleaved(t *testing.T) {
	t.Parallel()
	res := runTxnScript(t, `topic out
producer-config a transactional.id=ta
producer-config b transactional.id=tb
txn a init
txn b init
txn a begin
produce out key=a value=a1 producer=a
txn b begin
produce out key=b value=b1 producer=b
txn b commit
join rc r topics=out
config group rc isolation.level=read_committed auto.offset.reset=earliest enable.auto.commit=false
join ru u topics=out
config group ru auto.offset.reset=earliest enable.auto.commit=false
advance 4s
poll rc r
poll ru u
txn a abort
poll rc r
commit rc r
`)
	wantRows(t, res, map[string]string{
		"line 16: poll rc r read":  "none",
		"line 17: poll ru u read":  "out/0:0,1",
		"line 19: poll rc r read":  "out/0:1",
		"rc out/0 committed":       "4",
		"out/0 markers":            "2:COMMIT 3:ABORT",
		"out/0 transactions":       "0:aborted 1:committed",
		"out/0 last stable offset": "4",
		"producer ids":             "a=#1 b=#2",
	})
}

// A read_committed member of Kafka 4's consumer protocol (KIP-848) reads
// below the last stable offset, and commits past the marker.
func TestTransactionReadCommittedConsumerProtocol(t *testing.T) {
	t.Parallel()
	res := runTxnScript(t, `rules 4
topic out
config group rc isolation.level=read_committed auto.offset.reset=earliest enable.auto.commit=false
join rc r topics=out group.protocol=consumer
producer-config t transactional.id=tx
txn t init
txn t begin
produce out key=a value=x producer=t
txn t commit
txn t begin
produce out key=a value=y producer=t
advance 20s
poll rc r
commit rc r
`)
	wantRows(t, res, map[string]string{
		"line 13: poll rc r read":     "out/0:0",
		"rc out/0 committed":          "2",
		"out/0 last stable offset":    "2",
		"rc out/0 lag to last stable": "0",
	})
}

// A second producer with the same transactional.id fences the first: the
// coordinator aborts the first one's open transaction (an ABORT marker, the
// epoch moved on for it) and moves the epoch past it again for the new
// producer (Kafka 4.4 TransactionCoordinator.handleInitProducerId), so both
// hold the same producer id, the new one at epoch 2, and the first is
// fenced. With no transaction open, the new producer takes the next epoch:
// 2 after the first's commit.
func TestTransactionFencedByANewProducer(t *testing.T) {
	t.Parallel()
	res := runTxnScript(t, `topic out
producer-config old transactional.id=tx
producer-config new transactional.id=tx
txn old init
txn old begin
produce out key=a value=open producer=old
txn new init
producer-config a transactional.id=ty
producer-config b transactional.id=ty
txn a init
txn a begin
produce out key=b value=done producer=a
txn a commit
txn b init
`)
	wantRows(t, res, map[string]string{
		"out/0 markers":                  "1:ABORT 3:COMMIT",
		"out/0 transactions":             "0:aborted 2:committed",
		"out/0 last stable offset":       "4",
		"producer old transaction state": "fenced",
		"producer new transaction state": "ready",
		"producer new epoch":             "2",
		"producer a transaction state":   "fenced",
		"producer b epoch":               "2",
		"producer ids":                   "a=#1 b=#1 new=#2 old=#2",
	})
	if t.Failed() {
		return
	}
	for _, row := range res.Comparison.Rows {
		if strings.HasSuffix(row.What, " epoch") {
			t.Logf("%s: playground %s, cluster %s", row.What, row.Playground, row.Cluster)
		}
	}
}

// Named producers with Kafka's producer configs: an idempotent producer
// (the default) has a producer id and numbers its records per partition
// from 0 (Kafka 4.4 TransactionManager, the leader's ProducerStateManager
// keeps the last), one with acks=1 has no idempotence and no producer id
// (ProducerConfig turns the default off), and both write where the
// playground says.
func TestTransactionNamedProducersAndSequences(t *testing.T) {
	t.Parallel()
	res := runTxnScript(t, `topic orders partitions=2
producer-config idem linger.ms=0 batch.size=1KB
producer-config plain acks=1
produce orders key=a values=1,2,3 producer=idem
produce orders key=b value=x count=2 producer=plain
produce orders key=c values=4,5 producer=idem
`)
	wantRows(t, res, map[string]string{
		"producer idem sequences":  "orders/0:5",
		"producer idem epoch":      "0",
		"producer plain sequences": "none",
		"producer ids":             "idem=#1 plain=none",
		"orders/0 records":         "7 records",
		"orders/1 records":         "0 records",
	})
}

// A transaction that holds only a group's offsets (sendOffsetsToTransaction
// and no record) commits them to the group when it commits: the offsets
// partition is the transaction's only one (Kafka 4.4 GroupCoordinator's
// pending transactional offsets).
func TestTransactionOfOffsetsOnly(t *testing.T) {
	t.Parallel()
	res := runTxnScript(t, `topic in
produce in key=a value=1 count=2
join g c topics=in
config group g auto.offset.reset=earliest enable.auto.commit=false
producer-config t transactional.id=tx
advance 4s
txn t init
poll g c
txn t begin
txn t send-offsets group=g
txn t commit
`)
	wantRows(t, res, map[string]string{
		"g in/0 committed":             "2",
		"in/0 markers":                 "none",
		"producer t transaction state": "ready",
	})
}

// A transaction in which nothing was sent ends in the client: Kafka 4.4's
// producer sends no EndTxn for it (TransactionManager.nextRequest), nor
// does franz-go, so the epoch stays 0 on the broker, as it does in the
// playground under rules 5, commit or abort, with no marker; rules 4 move
// it on, and the row says why.
func TestTransactionEmptyKeepsTheEpoch(t *testing.T) {
	t.Parallel()
	const script = `topic out
producer-config t transactional.id=tx
txn t init
txn t begin
txn t commit
txn t begin
txn t abort
`
	wantRows(t, runTxnScript(t, script), map[string]string{
		"producer t epoch":             "0",
		"out/0 markers":                "none",
		"producer t transaction state": "ready",
	})
	for _, row := range runTxnScript(t, "rules 4\n"+script).Comparison.Rows {
		if row.What == "producer t epoch" && (row.Cluster != "0" || row.Playground != "2" || row.Reason != kafkarun.ReasonEmptyTxn) {
			t.Errorf("rules 4, producer t epoch: %+v, want 2 in the playground, 0 on the broker, with ReasonEmptyTxn", row)
		}
	}
}

// The playground's wire faults on produces of one record are made on the
// broker by kafkarun's producers' own connections (a connection cut
// before the request, or once the broker's answer arrives), and franz-go
// sends the batch again, as Kafka's Sender does: the plain producer's
// retry after a lost answer is written twice, the idempotent one's is
// dropped by producer id and sequence (Kafka 4.4 ProducerStateManager,
// ProducerAppendInfo), a lost request is sent again, and a transactional
// producer's retried record is in its transaction once.
func TestTransactionWireFaultsOnTheBroker(t *testing.T) {
	t.Parallel()
	res := runTxnScript(t, `topic orders
producer-config plain enable.idempotence=false
producer-config idem
producer-config t transactional.id=tx
wire plain lose-response
produce orders key=a value=x producer=plain
wire idem lose-response
produce orders key=a value=y producer=idem
wire idem lose-request count=2
produce orders key=a value=z producer=idem
txn t init
txn t begin
wire t lose-response
produce orders key=a value=w producer=t
txn t commit
`)
	wantRows(t, res, map[string]string{
		"orders/0 records":        "6 records",
		"orders/0 markers":        "5:COMMIT",
		"orders/0 transactions":   "4:committed",
		"producer idem sequences": "orders/0:2",
		"producer t epoch":        "1",
	})
}

// readAll reads partition 0 of topic to its end, with the isolation level
// given (nil: read_uncommitted), and returns the records a consumer gets.
func readAll(t *testing.T, ctx context.Context, topic string, isolation *kgo.IsolationLevel) []scenario.RecordState {
	t.Helper()
	_, admin := adminOf(t, brokers)
	end := offsetOf(admin.ListEndOffsets(ctx, topic))
	if isolation != nil {
		end = offsetOf(admin.ListCommittedOffsets(ctx, topic))
	}
	opts := []kgo.Opt{kgo.SeedBrokers(brokers...), kgo.FetchMaxWait(100 * time.Millisecond),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}})}
	if isolation != nil {
		opts = append(opts, kgo.FetchIsolationLevel(*isolation))
	}
	client, err := kgo.NewClient(append(opts, kgo.KeepControlRecords())...)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	var out []scenario.RecordState
	if end <= 0 {
		return out
	}
	next := int64(0)
	waitFor(t, fmt.Sprintf("%s to be read to offset %d", topic, end), func() bool {
		pollCtx, cancel := context.WithTimeout(ctx, time.Second)
		fetches := client.PollFetches(pollCtx)
		cancel()
		fetches.EachError(func(_ string, _ int32, err error) {
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("reading %s: %v", topic, err)
			}
		})
		fetches.EachRecord(func(r *kgo.Record) {
			next = r.Offset + 1
			if r.Attrs.IsControl() {
				return // markers are never delivered
			}
			key, value := string(r.Key), string(r.Value)
			out = append(out, scenario.RecordState{Offset: r.Offset, Key: &key, Value: &value})
		})
		return next >= end
	})
	return out
}

// recordsText writes records as the playground's state does: 0:a=x.
func recordsText(records []scenario.RecordState) string {
	var parts []string
	for _, r := range records {
		if r.Control != "" {
			continue
		}
		parts = append(parts, fmt.Sprintf("%d:%s=%s", r.Offset, deref(r.Key), deref(r.Value)))
	}
	return strings.Join(parts, " ")
}

func deref(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

// A fenced producer's later write is refused by the broker: under the
// transaction protocol v2 the partition leader checks the producer's epoch
// with the coordinator (KIP-890's produce verification), which holds a
// newer one (Kafka 4.4 returns PRODUCER_FENCED or INVALID_PRODUCER_EPOCH,
// which the Java client raises as ProducerFencedException). The
// playground refuses the same write with Kafka's words. And what each
// isolation level reads of a committed, an aborted and an open
// transaction is the playground's: read_committed the committed record
// only, read_uncommitted all three (FetchCollector, Kafka 4.4).
func TestTransactionFencedWriteRefusedAndIsolationReads(t *testing.T) {
	t.Parallel()
	const script = `topic out
producer-config old transactional.id=tx
producer-config new transactional.id=tx
txn old init
txn old begin
produce out key=a value=committed producer=old
txn old commit
txn old begin
produce out key=a value=aborted producer=old
txn old abort
txn old begin
produce out key=a value=zombie producer=old
txn new init
txn new begin
produce out key=a value=open producer=new
join rc r topics=out
config group rc isolation.level=read_committed auto.offset.reset=earliest
join ru u topics=out
config group ru auto.offset.reset=earliest
advance 4s
`
	s, err := scenario.Load(script)
	if err != nil {
		t.Fatal(err)
	}
	_, refused := s.Apply("produce out key=a value=late producer=old")
	if refused == nil || !strings.Contains(refused.Error(), "ProducerFencedException") {
		t.Fatalf("the playground's fenced producer's write: want ProducerFencedException, got %v", refused)
	}
	wantRead := map[string]string{}
	for _, group := range []string{"rc r", "ru u"} {
		events, err := s.Apply("poll " + group)
		if err != nil {
			t.Fatal(err)
		}
		var read []string
		for _, e := range events {
			if e.Kind == core.EventDelivered {
				records, _ := s.Log().Records("out", 0)
				for _, r := range records {
					if r.Offset == e.Offset {
						read = append(read, fmt.Sprintf("%d:%s=%s", r.Offset, r.Key, r.Value))
					}
				}
			}
		}
		wantRead[group[:2]] = strings.Join(read, " ")
	}

	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
	defer cancel()
	topic := "plog-fence-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	txnID := topic + "-tx"
	client, admin := adminOf(t, brokers)
	if _, err := admin.CreateTopic(ctx, 1, 1, nil, topic); err != nil {
		t.Fatal(err)
	}
	defer admin.DeleteTopics(context.Background(), topic)
	waitForTopic(t, ctx, client, topic)
	producer := func() *kgo.Client {
		client, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.TransactionalID(txnID), kgo.DefaultProduceTopic(topic),
			kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerLinger(0), kgo.RecordRetries(2))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(client.Close)
		return client
	}
	send := func(client *kgo.Client, value string) error {
		return client.ProduceSync(ctx, &kgo.Record{Key: []byte("a"), Value: []byte(value)}).FirstErr()
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	old, new := producer(), producer()
	for _, end := range []struct {
		value string
		how   kgo.TransactionEndTry
	}{{"committed", kgo.TryCommit}, {"aborted", kgo.TryAbort}} {
		must(old.BeginTransaction())
		must(send(old, end.value))
		must(old.EndTransaction(ctx, end.how))
	}
	must(old.BeginTransaction())
	must(send(old, "zombie"))
	if _, _, err := new.ProducerID(ctx); err != nil {
		t.Fatal(err)
	}
	must(new.BeginTransaction())
	must(send(new, "open"))
	err = send(old, "late")
	if !errors.Is(err, kerr.ProducerFenced) && !errors.Is(err, kerr.InvalidProducerEpoch) {
		t.Errorf("the fenced producer's write: want PRODUCER_FENCED or INVALID_PRODUCER_EPOCH from the broker, got %v", err)
	} else {
		t.Logf("the broker refused the fenced producer's write: %v", err)
	}
	committed := kgo.ReadCommitted()
	got := map[string]string{"rc": recordsText(readAll(t, ctx, topic, &committed)), "ru": recordsText(readAll(t, ctx, topic, nil))}
	for _, level := range []string{"rc", "ru"} {
		if got[level] != wantRead[level] {
			t.Errorf("group %s read %q on the broker, %q in the playground", level, got[level], wantRead[level])
		}
	}
	must(new.EndTransaction(ctx, kgo.TryAbort))
}
