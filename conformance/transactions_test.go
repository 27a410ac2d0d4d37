package conformance

import (
	"context"
	"strings"
	"testing"
	"time"

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
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := kafkarun.Run(ctx, script, kafkarun.Options{Brokers: brokers, WaitTimeout: 20 * time.Second})
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

// A second producer with the same transactional.id fences the first: the
// coordinator aborts the first one's open transaction (an ABORT marker) and
// moves the epoch past it (Kafka 4.4 TransactionCoordinator.
// handleInitProducerId), so both hold the same producer id and the first is
// fenced.
func TestTransactionFencedByANewProducer(t *testing.T) {
	t.Parallel()
	res := runTxnScript(t, `topic out
producer-config old transactional.id=tx
producer-config new transactional.id=tx
txn old init
txn old begin
produce out key=a value=open producer=old
txn new init
`)
	wantRows(t, res, map[string]string{
		"out/0 markers":                  "1:ABORT",
		"out/0 transactions":             "0:aborted",
		"out/0 last stable offset":       "2",
		"producer old transaction state": "fenced",
		"producer new transaction state": "ready",
		"producer ids":                   "new=#1 old=#1",
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
