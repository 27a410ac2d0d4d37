package kafkarun

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"plog/core"
	"plog/core/scenario"
)

// The named producers and transactions on kfake, which runs transactions
// as Kafka does (kfake's txns.go): markers, the last stable offset, what
// read_committed reads, a transaction's offsets reaching its group at the
// commit, and fencing.

const txnScript = `topic in
topic out
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
txn t send-offsets group=g
txn t commit
txn t begin
produce out values=y,z producer=t
txn t abort
poll rc r
poll ru u
commit rc r
commit ru u
txn t begin
produce out key=b value=open producer=t
`

func TestTransactionsOnKfake(t *testing.T) {
	res := runOn(t, testOptions(startKfake(t)), txnScript)
	allSame(t, res, nil)
	rows := map[string]Row{}
	for _, row := range res.Comparison.Rows {
		rows[row.What] = row
	}
	for what, want := range map[string]string{
		"out/0 markers":               "1:COMMIT 4:ABORT",
		"out/0 transactions":          "0:committed 2:aborted 3:aborted 5:open",
		"out/0 last stable offset":    "5",
		"g in/0 committed":            "2",
		"rc out/0 committed":          "5",
		"ru out/0 committed":          "5",
		"rc out/0 lag to last stable": "0",
		"line 13: poll g c read":      "in/0:0,1",
		"line 21: poll rc r read":     "out/0:0",
		"line 22: poll ru u read":     "out/0:0,2,3",
	} {
		if row, ok := rows[what]; !ok || row.Cluster != want {
			t.Errorf("%s: got %+v, want %s on the cluster", what, row, want)
		}
	}
	if t.Failed() {
		t.Log(res.Comparison.Text())
	}
}

// A wire fault hitting a produce of one record is made on the cluster, by
// the producer's connections: the plain producer's retry writes the record
// twice, the idempotent one's is dropped, a lost request is sent again;
// the logs agree. One hitting a produce of several records is not made
// (franz-go sends them in one batch, the playground one by one): its rows
// differ with their reason, and the run says so.
func TestWireFaults(t *testing.T) {
	res := runOn(t, testOptions(startKfake(t)), `topic orders
topic many
producer-config plain enable.idempotence=false
producer-config idem
wire plain lose-response
produce orders key=a value=x producer=plain
wire idem lose-response
produce orders key=a value=y producer=idem
wire idem lose-request count=2
produce orders key=a values=z producer=idem
wire plain lose-response
produce many values=a,b,c producer=plain
`)
	withoutKfakeSequences(res, "idem")
	allSame(t, res, map[string]Reason{
		"many all records":          ReasonWireFault,
		"many/0 high watermark":     ReasonWireFault,
		"many/0 records":            ReasonWireFault,
		"many/0 last stable offset": ReasonWireFault,
	})
	for _, row := range res.Comparison.Rows {
		if row.What == "orders/0 records" && row.Cluster != "4 records" {
			t.Errorf("orders/0 on the cluster: %s, want x twice, y and z", row.Cluster)
		}
	}
	found := false
	for _, line := range res.Comparison.NotCompared {
		found = found || strings.Contains(line, "produce many producer=plain values=a,b,c: its wire faults were not made")
	}
	if !found {
		t.Errorf("no note that the wire fault was not made: %q", res.Comparison.NotCompared)
	}
}

// A lost answer is an append's: an answer refusing the request (a leader
// not yet leading the partition says NOT_LEADER_OR_FOLLOWER, and writes
// nothing) is handed on to the client, and the fault waits for its retry,
// whose answer is lost after the broker wrote: the plain producer's record
// is written twice on the cluster, as in the playground.
func TestWireFaultLosesAnAppendsAnswer(t *testing.T) {
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cluster.Close)
	refused := 0
	cluster.ControlKey(int16(kmsg.Produce), func(kreq kmsg.Request) (kmsg.Response, error, bool) {
		refused++
		req := kreq.(*kmsg.ProduceRequest)
		resp := req.ResponseKind().(*kmsg.ProduceResponse)
		for _, t := range req.Topics {
			rt := kmsg.NewProduceResponseTopic()
			rt.Topic, rt.TopicID = t.Topic, t.TopicID
			for _, p := range t.Partitions {
				rp := kmsg.NewProduceResponseTopicPartition()
				rp.Partition, rp.ErrorCode = p.Partition, kerr.NotLeaderForPartition.Code
				rt.Partitions = append(rt.Partitions, rp)
			}
			resp.Topics = append(resp.Topics, rt)
		}
		return resp, nil, true
	})
	res := runOn(t, testOptions(cluster.ListenAddrs()), `topic orders
producer-config plain enable.idempotence=false
wire plain lose-response
produce orders key=a value=x producer=plain
`)
	allSame(t, res, nil)
	if refused != 1 {
		t.Errorf("%d produce requests refused, want the first", refused)
	}
	for _, row := range res.Comparison.Rows {
		if row.What == "orders/0 records" && row.Cluster != "2 records" {
			t.Errorf("orders/0 on the cluster: %s, want x twice", row.Cluster)
		}
	}
}

// A transaction the playground's coordinator aborts on its timeout, in
// virtual time, stays open on the cluster: the rows it changed differ with
// that reason.
func TestTransactionTimeoutIsExplained(t *testing.T) {
	res := runOn(t, testOptions(startKfake(t)), `topic out
producer-config t transactional.id=tx transaction.timeout.ms=15s
txn t init
txn t begin
produce out key=a value=slow producer=t
advance 30s
`)
	allSame(t, res, map[string]Reason{
		"out/0 high watermark":         ReasonTxnTimeout,
		"out/0 records":                ReasonTxnTimeout,
		"out/0 last stable offset":     ReasonTxnTimeout,
		"out/0 markers":                ReasonTxnTimeout,
		"out/0 transactions":           ReasonTxnTimeout,
		"producer t transaction state": ReasonTxnTimeout,
	})
}

// A transaction that holds only a group's offsets commits them to the
// group on the cluster too; the producer's epoch moves on once more there,
// with its reason.
func TestTransactionOfOffsetsOnly(t *testing.T) {
	res := runOn(t, testOptions(startKfake(t)), `topic in
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
	allSame(t, res, map[string]Reason{"producer t epoch": ReasonOffsetsOnlyTxn})
	for _, row := range res.Comparison.Rows {
		if row.What == "g in/0 committed" && row.Cluster != "2" {
			t.Errorf("the transaction's offset on the cluster: %+v, want 2", row)
		}
	}
}

// A transaction in which nothing was sent ends in the client alone: the
// epoch stays on the cluster, as under rules 5 in the playground; rules 4
// move it on, with its reason.
func TestEmptyTransactionKeepsTheEpochOnTheCluster(t *testing.T) {
	const script = `topic out
producer-config t transactional.id=tx
txn t init
txn t begin
txn t commit
txn t begin
txn t abort
`
	brokers := startKfake(t)
	allSame(t, runOn(t, testOptions(brokers), script), nil)
	allSame(t, runOn(t, testOptions(brokers), "rules 4\n"+script), map[string]Reason{"producer t epoch": ReasonEmptyTxn})
}

// A producer's configs at the edges of what Kafka takes make a client
// franz-go takes too.
func TestProducerConfigsAtTheEdges(t *testing.T) {
	res := runOn(t, testOptions(startKfake(t)), `topic out
producer-config p batch.size=0 linger.ms=0 request.timeout.ms=0 delivery.timeout.ms=0 retries=1 max.in.flight.requests.per.connection=1
producer-config q batch.size=1GB linger.ms=1h enable.idempotence=false acks=0
produce out key=a value=1 producer=p
produce out key=a value=2 producer=q
`)
	withoutKfakeSequences(res, "p")
	allSame(t, res, nil)
}

// withoutKfakeSequences drops the sequences rows of the producers named,
// not transactional: kfake's DescribeProducers describes transactional
// producers only (Kafka's describes every idempotent one, which
// conformance/transactions_test.go checks).
func withoutKfakeSequences(res *Result, producers ...string) {
	res.Comparison.Rows = slices.DeleteFunc(res.Comparison.Rows, func(row Row) bool {
		name, ok := strings.CutSuffix(strings.TrimPrefix(row.What, "producer "), " sequences")
		return ok && slices.Contains(producers, name)
	})
}

func TestClassifyTxnsAndWhatEachIsolationSkips(t *testing.T) {
	id := func(n int64) *int64 { return &n }
	records := []scenario.RecordState{
		{Offset: 0, RecordTxnState: scenario.RecordTxnState{ProducerID: id(7)}},
		{Offset: 1, RecordTxnState: scenario.RecordTxnState{Control: "COMMIT", ProducerID: id(7)}},
		{Offset: 2, RecordTxnState: scenario.RecordTxnState{ProducerID: id(7)}},
		{Offset: 3},
		{Offset: 4, RecordTxnState: scenario.RecordTxnState{Control: "ABORT", ProducerID: id(7)}},
		{Offset: 5, RecordTxnState: scenario.RecordTxnState{ProducerID: id(8)}},
	}
	classifyTxns(records)
	var got []string
	for _, r := range records {
		got = append(got, fmt.Sprintf("%d:%s%s", r.Offset, r.Control, r.Transaction))
	}
	if want := "0:committed 1:COMMIT 2:aborted 3: 4:ABORT 5:open"; strings.Join(got, " ") != want {
		t.Errorf("classified %q, want %q", strings.Join(got, " "), want)
	}
	if records[1].ProducerID != nil {
		t.Error("a marker keeps its producer id in the state; the playground's has none")
	}
	for level, want := range map[string]string{core.ReadCommitted: "0 3 5", core.ReadUncommitted: "0 2 3 5"} {
		var given []string
		for _, r := range records {
			if !skipped(r, level) {
				given = append(given, strconv.FormatInt(r.Offset, 10))
			}
		}
		if strings.Join(given, " ") != want {
			t.Errorf("%s is given %v, want %s", level, given, want)
		}
	}
}

// A poll that read all it could moves past the markers and skipped records
// up to the fetch's end, as the Java consumer's position does; one that
// stopped at max does not.
func TestFetchLayoutPass(t *testing.T) {
	out := tp{"out", 0}
	l := &fetchLayout{given: map[tp][]int64{out: {0, 5}}, end: map[tp]int64{out: 7}}
	for _, c := range []struct {
		pos          int64
		stoppedAtMax bool
		want         int64
	}{
		{1, false, 5}, // past the marker and the aborted records to the next record given
		{6, false, 7}, // past the trailing marker to the fetch's end
		{1, true, 1},  // stopped at max: read no further
		{7, false, 7}, // at the end already
	} {
		positions := map[tp]int64{out: c.pos}
		l.pass(positions, c.stoppedAtMax)
		if positions[out] != c.want {
			t.Errorf("from %d (stopped at max %v): at %d, want %d", c.pos, c.stoppedAtMax, positions[out], c.want)
		}
	}
	var none *fetchLayout
	positions := map[tp]int64{out: 1}
	none.pass(positions, false) // no named producers: positions stay
	if positions[out] != 1 {
		t.Errorf("a nil layout moved a position to %d", positions[out])
	}
}

// A read_committed member of Kafka 4's consumer protocol reads below the
// last stable offset too, and the transaction's offsets reach its group.
func TestReadCommittedConsumerProtocolMember(t *testing.T) {
	brokers := startKfake(t, kfake.BrokerConfigs(map[string]string{"group.consumer.heartbeat.interval.ms": "200"}))
	res := runOn(t, testOptions(brokers), `rules 4
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
	rows := map[string]Row{}
	for _, row := range res.Comparison.Rows {
		rows[row.What] = row
	}
	for what, want := range map[string]string{"line 13: poll rc r read": "out/0:0", "rc out/0 committed": "2", "out/0 last stable offset": "2"} {
		if row, ok := rows[what]; !ok || !row.Match || row.Cluster != want {
			t.Errorf("%s: %+v (present %v), want %s on both\n%s", what, row, ok, want, res.Comparison.Text())
		}
	}
	if !res.Comparison.OK() {
		t.Errorf("unexpected differences:\n%s", res.Comparison.Text())
	}
}
