package kafkarun

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The tests run scenarios on kfake, franz-go's in-process Kafka, started by
// each test. kfake applies neither retention nor compaction on its own (nor
// would a real broker within a run of a few seconds), so no test expects
// the cluster to match the playground there: what they check is that the
// comparison says why those differ.

// startKfake starts a one-broker kfake cluster for one test.
func startKfake(t *testing.T, opts ...kfake.Opt) []string {
	t.Helper()
	cluster, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cluster.Close)
	return cluster.ListenAddrs()
}

func testOptions(brokers []string) Options {
	return Options{Brokers: brokers, WaitTimeout: 5 * time.Second, DialTimeout: 2 * time.Second}
}

func runOn(t *testing.T, opts Options, script string) *Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := Run(ctx, script, opts)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

// allSame fails unless every row matches, but for the rows named in
// except, which must differ for the reason given, and the generations,
// which kfake keeps no __consumer_offsets to read from.
func allSame(t *testing.T, res *Result, except map[string]Reason) {
	t.Helper()
	for _, row := range res.Comparison.Rows {
		want, excepted := except[row.What]
		switch {
		case excepted && (row.Match || row.Reason != want):
			t.Errorf("%s: want a difference for %q, got %+v", row.What, want, row)
		case !excepted && !row.Match && row.Reason != ReasonNoGeneration:
			t.Errorf("%s: playground %s, cluster %s (reason %q)", row.What, row.Playground, row.Cluster, row.Reason)
		}
	}
	if t.Failed() {
		t.Logf("cluster:\n%s\ncomparison:\n%s", res.Cluster.Text(), res.Comparison.Text())
	}
}

// adminOn returns an admin client of the cluster, closed when the test
// ends.
func adminOn(t *testing.T, brokers []string) *kadm.Client {
	t.Helper()
	client, err := kgo.NewClient(kgo.SeedBrokers(brokers...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	return kadm.NewClient(client)
}

// topicsOn lists the cluster's topics, internal ones left out.
func topicsOn(t *testing.T, brokers []string) []string {
	t.Helper()
	topics, err := adminOn(t, brokers).ListTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return topics.Names()
}

func TestProduceAgreesWithPlayground(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
rules 1
topic orders partitions=4
produce orders key=acct-1 value=created count=3
produce orders key=acct-2 value=paid
produce orders key=acct-3
produce orders key=acct-42 value=shipped count=2
produce orders key="" value=empty-key
produce orders value=keyless count=6
produce orders partition=3 key=acct-1 value=pinned
produce orders key=acct-2 tombstone
topic audit
produce audit value=a count=2
partitions orders count=6
produce orders key=acct-1 value=after-growth count=2
produce orders key=acct-2 value=after-growth
produce orders value=keyless-after count=3
`)
	allSame(t, res, nil)
	if !res.Comparison.OK() {
		t.Errorf("comparison not OK:\n%s", res.Comparison.Text())
	}
	// The rows must cover every partition: a comparison that compared
	// nothing would pass.
	var seen []string
	for _, row := range res.Comparison.Rows {
		if strings.HasSuffix(row.What, " records") {
			seen = append(seen, strings.TrimSuffix(row.What, " records"))
		}
	}
	want := []string{"audit/0", "orders/0", "orders/1", "orders/2", "orders/3", "orders/4", "orders/5"}
	if !slices.Equal(seen, want) {
		t.Errorf("records compared for %v, want %v", seen, want)
	}
	// And the cluster's state is read for real: the empty key and the
	// tombstone keep their nulls apart.
	var sawEmptyKey, sawTombstone bool
	for _, topic := range res.Cluster.Topics {
		for _, p := range topic.Partitions {
			for _, r := range p.Records {
				sawEmptyKey = sawEmptyKey || (r.Key != nil && *r.Key == "")
				sawTombstone = sawTombstone || (r.Key != nil && *r.Key == "acct-2" && r.Value == nil)
			}
		}
	}
	if !sawEmptyKey || !sawTombstone {
		t.Errorf("read back: empty key %v, tombstone %v; want both", sawEmptyKey, sawTombstone)
	}
	if left := topicsOn(t, brokers); len(left) != 0 {
		t.Errorf("topics left after the run: %v", left)
	}
}

func TestGroupCommitsAndLagAgree(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
rules 1
topic orders partitions=3
topic audit partitions=2
produce orders key=acct-1 value=a count=4
produce orders key=acct-2 value=b count=3
produce orders key=acct-7 value=c count=5
produce audit value=x count=6
join billing c1 topics=orders,audit strategy=range
join billing c2 topics=orders,audit
advance 5s
poll billing c1
commit billing c1
poll billing c2
commit billing c2
join ledger l1 topics=orders strategy=roundrobin
join ledger l2 topics=orders
join ledger l3 topics=orders
advance 5s
poll ledger l2 max=2
commit ledger l2
poll ledger l3 max=1
poll ledger l3 max=1
commit ledger l3
leave ledger l3
advance 5s
produce orders key=acct-1 value=late count=2
poll ledger l1
commit ledger l1
commit ledger orders/2 offset=1
join shipping s1 topics=audit strategy=cooperative-sticky
advance 5s
poll shipping s1
commit shipping s1
leave shipping s1
reset shipping to-offset=2 topic=audit/0
`)
	allSame(t, res, nil)
	// Lag is compared against real commits: every group has some.
	for _, g := range res.Cluster.Groups {
		committed := 0
		for _, o := range g.Offsets {
			if o.Committed != nil {
				committed++
			}
		}
		if committed == 0 {
			t.Errorf("group %s: no committed offsets read from the cluster", g.Name)
		}
	}
}

func TestDeleteRecordsAgrees(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
topic orders partitions=2
produce orders partition=0 value=v count=8
produce orders partition=1 value=w count=3
join billing c1 topics=orders
advance 5s
poll billing c1 max=500
commit billing c1
leave billing c1
reset billing to-offset=2
truncate orders/0 before=5
truncate orders/1 before=3
join billing c2 topics=orders
advance 5s
poll billing c2
commit billing c2
`)
	allSame(t, res, nil)
	o := res.Cluster.Topics[0].Partitions[0]
	if o.LogStartOffset != 5 || len(o.Records) != 3 {
		t.Errorf("orders/0 on the cluster: log start %d with %d records, want 5 with 3", o.LogStartOffset, len(o.Records))
	}
}

// TestExpectedDifferencesSayWhy runs what a cluster cannot follow: time
// that passes only in the playground (retention), the sticky partitioner's
// random choice, a workload. The comparison must give each difference its
// reason and still be OK; a poll during a rebalance waits for it to end,
// on both sides, and says so.
func TestExpectedDifferencesSayWhy(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
seed 7
rules 1
topic logs partitions=1 retention.ms=1m segment.records=2
produce logs value=old count=5
advance 5m
topic spread partitions=3 partitioner=sticky
produce spread value=s count=7
topic feed partitions=1
producer p1 feed rate=2/s
advance 3s
topic orders partitions=2
produce orders key=acct-1 count=3
join billing c1 topics=orders
poll billing c1
commit billing c1
`)
	if !res.Comparison.OK() {
		t.Fatalf("differences without a reason:\n%s", res.Comparison.Text())
	}
	reasons := map[Reason]bool{}
	for _, row := range res.Comparison.Rows {
		if !row.Match {
			reasons[row.Reason] = true
		}
	}
	for _, want := range []Reason{ReasonRetention, ReasonSticky, ReasonWorkload} {
		if !reasons[want] {
			t.Errorf("no difference explained by %q:\n%s", want, res.Comparison.Text())
		}
	}
	text := res.Comparison.Text()
	for _, want := range []string{"segment.records=2 is not sent", "producer p1: not run", "advanced its clock by 306s",
		"line 15: poll billing c1: the playground's group billing was rebalancing; its clock advanced 3s"} {
		if !strings.Contains(text, want) {
			t.Errorf("comparison does not say %q:\n%s", want, text)
		}
	}
}

func TestUnreachableBrokerFailsFastAndCreatesNothing(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // a closed loopback port: connections are refused at once
	start := time.Now()
	opts := testOptions([]string{addr})
	opts.DialTimeout = time.Second
	res, err := Run(context.Background(), "topic orders\nproduce orders key=k\n", opts)
	if err == nil {
		t.Fatalf("Run on a closed port succeeded: %+v", res)
	}
	if want := "cannot reach broker " + addr; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("took %s to give up", elapsed)
	}
}

// TestFailurePartWayDeletesWhatItCreated makes the second topic's creation
// fail (it exists already, outside the run): the first topic, which the run
// created, must be gone, and the one it did not create untouched.
func TestFailurePartWayDeletesWhatItCreated(t *testing.T) {
	brokers := startKfake(t, kfake.SeedTopics(1, "run1-audit"))
	opts := testOptions(brokers)
	opts.Prefix, opts.Keep = "run1-", true
	_, err := Run(context.Background(), "topic orders partitions=2\nproduce orders key=k\ntopic audit\n", opts)
	if err == nil || !strings.Contains(err.Error(), "run1-audit already exists") {
		t.Fatalf("want an error saying run1-audit exists, got %v", err)
	}
	if !strings.Contains(err.Error(), "line 3") {
		t.Errorf("error %q does not name the script line", err)
	}
	if got := topicsOn(t, brokers); !slices.Equal(got, []string{"run1-audit"}) {
		t.Errorf("topics after the failed run: %v, want only the one it did not create", got)
	}
}

func TestKeepLeavesTopicsAndOthersAreUntouched(t *testing.T) {
	brokers := startKfake(t, kfake.SeedTopics(1, "orders"))
	opts := testOptions(brokers)
	opts.Prefix, opts.Keep = "kept-", true
	res := runOn(t, opts, "topic orders\nproduce orders key=k\n")
	if !res.Kept || res.Prefix != "kept-" {
		t.Errorf("Kept %v, Prefix %q", res.Kept, res.Prefix)
	}
	if got := topicsOn(t, brokers); !slices.Equal(got, []string{"kept-orders", "orders"}) {
		t.Errorf("topics: %v, want kept-orders beside the untouched orders", got)
	}
}

func TestDefaultPrefixIsRandom(t *testing.T) {
	a, b := randomPrefix(), randomPrefix()
	if a == b || !strings.HasPrefix(a, "plog-") || !strings.HasSuffix(a, "-") || checkPrefix(a) != nil {
		t.Errorf("prefixes %q and %q", a, b)
	}
	if err := checkPrefix("bad prefix/"); err == nil {
		t.Error("a prefix with a space and a slash was accepted")
	}
}

// runAs runs a one-topic script as a SASL user and returns Run's error.
func runAs(t *testing.T, brokers []string, mechanism, user, password string) error {
	t.Helper()
	auth, err := SASL(mechanism, user, password)
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions(brokers)
	opts.ClientOpts = []kgo.Opt{auth}
	_, err = Run(context.Background(), "topic orders\n", opts)
	return err
}

func TestWrongPasswordSaysAuthenticationFailed(t *testing.T) {
	brokers := startKfake(t, kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-256", "admin", "secret"))
	err := runAs(t, brokers, "scram-sha-256", "admin", "wrong")
	if err == nil || !strings.Contains(err.Error(), "authentication failed") || !strings.Contains(err.Error(), "SCRAM-SHA-256") {
		t.Fatalf("want an authentication failure, got %v", err)
	}
}

// TestMissingPermissionIsNamed runs as a user who may describe the cluster
// but not create topics.
func TestMissingPermissionIsNamed(t *testing.T) {
	brokers := startKfake(t,
		kfake.EnableSASL(), kfake.EnableACLs(),
		kfake.Superuser("PLAIN", "admin", "admin"),
		kfake.User("PLAIN", "learner", "pw",
			kfake.ACL{Resource: kmsg.ACLResourceTypeCluster, Name: "kafka-cluster", Pattern: kmsg.ACLResourcePatternTypeLiteral, Operation: kmsg.ACLOperationDescribe, Allow: true},
			kfake.ACL{Resource: kmsg.ACLResourceTypeTopic, Name: "*", Pattern: kmsg.ACLResourcePatternTypeLiteral, Operation: kmsg.ACLOperationDescribe, Allow: true},
		),
	)
	err := runAs(t, brokers, "plain", "learner", "pw")
	t.Log(err)
	if err == nil || !strings.Contains(err.Error(), "not authorized") {
		t.Fatalf("want a missing permission named, got %v", err)
	}
}

func TestScriptErrorsComeBeforeTheCluster(t *testing.T) {
	// No broker listens on port 1: a bad script must be refused before
	// any connection is tried.
	_, err := Run(context.Background(), "topic orders\nproduce nowhere key=k\n", testOptions([]string{"127.0.0.1:1"}))
	if err == nil || strings.Contains(err.Error(), "cannot reach") {
		t.Fatalf("want the script's error, got %v", err)
	}
}

// groupsOn lists the cluster's consumer groups.
func groupsOn(t *testing.T, brokers []string) []string {
	t.Helper()
	groups, err := adminOn(t, brokers).ListGroups(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return groups.Groups()
}

// TestStaticMemberStaysAndIsCleanedUp: a static member that leaves sends no
// LeaveGroup, on the cluster as in the playground, so it stays listed with
// its partitions; the run still deletes the group at the end.
func TestStaticMemberStaysAndIsCleanedUp(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
topic orders partitions=2
produce orders partition=0 value=a count=3
produce orders partition=1 value=b count=2
join billing c1 topics=orders instance=i1
join billing c2 topics=orders
advance 5s
poll billing c1
commit billing c1
leave billing c1
poll billing c2
commit billing c2
`)
	allSame(t, res, nil)
	if got := membersText(res.Cluster.Groups[0].Members); got != "c1 (down) c2" {
		t.Errorf("cluster members %q, want c1 still listed, down", got)
	}
	if left := groupsOn(t, brokers); len(left) != 0 {
		t.Errorf("groups left after the run: %v", left)
	}
}

// TestAutoCommitIsExplained: with auto.commit=true the client commits on
// the wall clock, the playground on its virtual clock.
func TestAutoCommitIsExplained(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
topic orders partitions=1
produce orders value=a count=4
config group billing auto.commit=true auto.commit.interval.ms=1s
join billing c1 topics=orders
advance 5s
poll billing c1 max=2
advance 2s
poll billing c1 max=1
`)
	if !res.Comparison.OK() {
		t.Fatalf("unexplained differences:\n%s", res.Comparison.Text())
	}
	for _, row := range res.Comparison.Rows {
		if !row.Match && !strings.HasSuffix(row.What, "generation") && row.Reason != ReasonAutoCommit {
			t.Errorf("%s differs for %q, want auto-commit", row.What, row.Reason)
		}
	}
}

// TestStickyAssignorsAgreeWhenTheScriptLetsRebalancesEnd: with an advance
// after each membership change, the cluster's rebalances end where the
// playground's do (from rules 4 the run polls the members that have not
// rejoined, on both sides), so even the sticky assignors, which build on
// the assignment before, agree. Auto-commit is off: it follows the wall
// clock on the cluster.
func TestStickyAssignorsAgreeWhenTheScriptLetsRebalancesEnd(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
topic events partitions=6
produce events key=k1 count=3
produce events key=k2 count=2
config group s enable.auto.commit=false
config group cs enable.auto.commit=false
join s a topics=events strategy=sticky
advance 5s
join s b topics=events
advance 5s
join s c topics=events
advance 5s
leave s a
advance 5s
poll s b
commit s b
join cs a topics=events strategy=cooperative-sticky
advance 10s
join cs b topics=events
advance 10s
join cs c topics=events
advance 10s
leave cs b
advance 10s
poll cs c
commit cs c
`)
	allSame(t, res, nil)
}

// TestRangeAgreesWhenJoinsFoldIntoOneRebalance: joins that the playground
// folds into one rebalance may be two on a cluster; only the sticky
// assignors' results depend on that, and those differences are explained.
func TestRangeAgreesWhenJoinsFoldIntoOneRebalance(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
topic events partitions=6
join r a topics=events strategy=range
join r b topics=events
join s a topics=events strategy=sticky
join s b topics=events
advance 5s
`)
	if !res.Comparison.OK() {
		t.Fatalf("unexplained differences:\n%s", res.Comparison.Text())
	}
	for _, row := range res.Comparison.Rows {
		if strings.HasPrefix(row.What, "r ") && !row.Match && !strings.HasSuffix(row.What, "generation") {
			t.Errorf("range group differs: %+v", row)
		}
	}
}

// TestReplicationScenarioRunsOnOneBroker: a scenario written for three
// brokers runs on a one-broker cluster: the replication factor is lowered
// to fit, broker failures are not run, and the comparison says both.
func TestReplicationScenarioRunsOnOneBroker(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
brokers 3
topic orders partitions=2 replication.factor=3 min.insync.replicas=2
produce orders key=acct-1 value=a count=3 acks=all
broker crash 2
produce orders key=acct-2 value=b acks=1
`)
	if !res.Comparison.OK() {
		t.Fatalf("unexplained differences:\n%s", res.Comparison.Text())
	}
	text := res.Comparison.Text()
	for _, want := range []string{
		"replication.factor=3 lowered to 1",
		"min.insync.replicas=2 lowered to 1",
		"broker crash 2: not run",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("comparison does not say %q:\n%s", want, text)
		}
	}
	if n := len(res.Cluster.Topics[0].Partitions[0].Records) + len(res.Cluster.Topics[0].Partitions[1].Records); n != 4 {
		t.Errorf("the cluster holds %d records, want 4", n)
	}
}

// A member that joins again with another subscription is the same consumer
// subscribing anew, as in the repartition lesson: it keeps its place in the
// group, which settles with it owning the new topic's partitions too.
func TestJoinAgainChangesTheSubscription(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
topic accounts partitions=2
topic accounts-v2 partitions=3
produce accounts key=alice value=deposit count=2
produce accounts-v2 key=alice value=withdrawal count=2
join ledger l1 topics=accounts
advance 3s
poll ledger l1
commit ledger l1
join ledger l1 topics=accounts,accounts-v2
advance 3s
poll ledger l1
commit ledger l1
join ledger l1 topics=accounts-v2
advance 3s
poll ledger l1
commit ledger l1
`)
	allSame(t, res, nil)
	for _, g := range res.Cluster.Groups {
		if len(g.Members) != 1 {
			t.Errorf("group %s has %d members on the cluster, want the one l1", g.Name, len(g.Members))
		}
	}
}

// TestStaticMemberSessionEndsWhereThePlaygroundsDoes: a static member that
// left stays on the cluster, with its partitions, until its session ends in
// the playground's virtual time; then the run removes it, the group
// rebalances without it, and a member that joins later is not kept waiting
// for it. The scenario's session (10 s) is shorter than the cluster's for a
// static member, and the wall clock must not end it first.
func TestStaticMemberSessionEndsWhereThePlaygroundsDoes(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
topic orders partitions=2
produce orders partition=0 value=a count=3
produce orders partition=1 value=b count=2
config group billing session.timeout.ms=10s
join billing c1 topics=orders instance=i1
join billing c2 topics=orders
advance 5s
poll billing c1
commit billing c1
leave billing c1
advance 5s
poll billing c2
commit billing c2
advance 30s
join billing c3 topics=orders
advance 5s
poll billing c3
commit billing c3
`)
	allSame(t, res, nil)
	if got := membersText(res.Cluster.Groups[0].Members); got != "c2 c3" {
		t.Errorf("cluster members %q, want c2 c3: c1's session ended", got)
	}
	if left := groupsOn(t, brokers); len(left) != 0 {
		t.Errorf("groups left after the run: %v", left)
	}
}

// TestConfigOnlyGroupIsEmptyOnBothSides: a group that only config group
// named has no member on either side; the cluster has no such group, which
// kafka-consumer-groups describes as Dead, the playground's Empty.
func TestConfigOnlyGroupIsEmptyOnBothSides(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
topic orders partitions=2
config group billing auto.offset.reset=latest
`)
	allSame(t, res, nil)
	if len(res.Cluster.Groups) != 1 || res.Cluster.Groups[0].State != "empty" {
		t.Errorf("cluster groups %+v, want billing, empty", res.Cluster.Groups)
	}
}

// TestFailedRunDeletesGroupsWhoseMembersNeverFinishedJoining: the run
// fails while its members are still joining, a static one among them,
// which sends no LeaveGroup; the cleanup removes them and deletes the
// groups all the same.
func TestFailedRunDeletesGroupsWhoseMembersNeverFinishedJoining(t *testing.T) {
	brokers := startKfake(t, kfake.SeedTopics(1, "run2-audit"))
	opts := testOptions(brokers)
	opts.Prefix = "run2-"
	_, err := Run(context.Background(), `
topic orders partitions=2
join billing c1 topics=orders instance=i1
join billing c2 topics=orders
join ledger l1 topics=orders
topic audit
`, opts)
	if err == nil || !strings.Contains(err.Error(), "run2-audit already exists") {
		t.Fatalf("want the run to fail at topic audit, got %v", err)
	}
	if strings.Contains(err.Error(), "could not delete") {
		t.Errorf("the cleanup left something: %v", err)
	}
	if left := groupsOn(t, brokers); len(left) != 0 {
		t.Errorf("groups left after the failed run: %v", left)
	}
}

// TestKeylessRecordsGoThroughTheProducersPartitioner: keyless records on a
// sticky topic go where franz-go's sticky partitioner puts them, not where
// the runner or the playground would; the comparison checks its rule (one
// produce's records share a partition), the topic's records as a whole and
// each partition's keyed records, and a truncate the playground accepts
// past the cluster's end of a partition truncates there instead of failing
// the run.
func TestKeylessRecordsGoThroughTheProducersPartitioner(t *testing.T) {
	script := `
seed 3
rules 1
topic spread partitions=3 partitioner=sticky
produce spread key=k1 value=a count=2
produce spread value=s count=4
produce spread value=t count=3
produce spread key=k2 value=b
topic cut partitions=3 partitioner=sticky
produce cut value=c count=4
produce cut value=d count=2
topic turns partitions=2
produce turns value=r count=3
partitions turns count=3
produce turns value=q count=4
`
	// Truncate each partition of cut where the playground's ends: on the
	// cluster the sticky partitioner filled them otherwise.
	for _, p := range stateOf(t, script).Topics[0].Partitions {
		if p.HighWatermark > 0 {
			script += fmt.Sprintf("truncate cut/%d before=%d\n", p.Partition, p.HighWatermark)
		}
	}
	res := runOn(t, testOptions(startKfake(t)), script)
	if !res.Comparison.OK() {
		t.Fatalf("differences without a reason:\n%s", res.Comparison.Text())
	}
	rows := map[string]Row{}
	for _, row := range res.Comparison.Rows {
		rows[row.What] = row
	}
	for _, what := range []string{"spread keyless placement", "spread all records", "spread/0 keyed records",
		"spread/2 keyed records", "cut keyless placement", "turns keyless placement", "turns/2 records"} {
		if row, ok := rows[what]; !ok || !row.Match {
			t.Errorf("%s: %+v, want a row that matches\n%s", what, row, res.Comparison.Text())
		}
	}
	if row := rows["cut all records"]; row.Reason != ReasonSticky && !row.Match {
		t.Errorf("cut all records: %+v", row)
	}
}

// TestKeylessRecordsUnderTheLatestRules: under rules 2 keyless records go
// through Kafka's built-in partitioner (KIP-794, franz-go's
// UniformBytesPartitioner on the cluster), whose choice is its own, and
// partitioner=round-robin places keyed records too, as Java's
// RoundRobinPartitioner ignores keys: both sides follow the same counter.
func TestKeylessRecordsUnderTheLatestRules(t *testing.T) {
	res := runOn(t, testOptions(startKfake(t)), `
topic built partitions=3
produce built value=a count=5
produce built key=k1 value=b
topic turns partitions=3
produce turns key=k1 value=r count=4 partitioner=round-robin
produce turns value=q count=2 partitioner=round-robin
produce turns key=k2 value=h
`)
	if !res.Comparison.OK() {
		t.Fatalf("differences without a reason:\n%s", res.Comparison.Text())
	}
	rows := map[string]Row{}
	for _, row := range res.Comparison.Rows {
		rows[row.What] = row
	}
	for _, what := range []string{"built keyless placement", "built all records", "turns keyless placement",
		"turns/0 records", "turns/1 records", "turns/2 records"} {
		if row, ok := rows[what]; !ok || !row.Match {
			t.Errorf("%s: %+v, want a row that matches\n%s", what, row, res.Comparison.Text())
		}
	}
}

// TestPositionsAreWhereTheClientReads: the client takes its positions at
// assignment and fetches ahead, but the Java consumer, and the playground,
// take them at the first poll: from the committed offset, or by
// auto.offset.reset against the log as it is then. So a latest reset with
// records produced after the assignment, a commit before the first poll
// and a truncate after the assignment must not leave the client reading
// from elsewhere: each poll sets the client's positions to where Kafka's
// consumer would read, and the commits that follow agree.
func TestPositionsAreWhereTheClientReads(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
topic orders partitions=1
topic audit partitions=1
topic logs partitions=1
produce orders value=a count=3
produce audit value=b count=4
produce logs value=c count=5
config group latest auto.offset.reset=latest
join latest c1 topics=orders
advance 5s
produce orders value=d count=2
poll latest c1
commit latest c1
produce orders value=e
poll latest c1 max=1
commit latest c1
join early c1 topics=audit
advance 5s
commit early audit/0 offset=2
poll early c1 max=1
commit early c1
join cut c1 topics=logs
advance 5s
truncate logs/0 before=3
poll cut c1 max=1
commit cut c1
`)
	allSame(t, res, nil)
}

// TestNewTopicTakesThePlaygroundsDefaultsWhereKafkasDiffer: a topic created
// without configs gets, on the broker, the playground's defaults where
// they are not Kafka's (retention.ms 1h, delete.retention.ms 10m), so that
// both sides run on the same values; a config the script sets is sent as
// set; Kafka's own defaults are left to the broker.
func TestNewTopicTakesThePlaygroundsDefaultsWhereKafkasDiffer(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
topic plain partitions=1
topic kept partitions=1 retention.ms=7d
`)
	want := map[string]map[string]string{
		"plain": {"retention.ms": "1h", "delete.retention.ms": "10m", "cleanup.policy": "delete"},
		"kept":  {"retention.ms": "7d", "delete.retention.ms": "10m"},
	}
	for _, topic := range res.Cluster.Topics {
		for name, value := range want[topic.Name] {
			if got := topic.Configs[name]; got != value {
				t.Errorf("topic %s: %s is %q on the broker, want %q", topic.Name, name, got, value)
			}
		}
	}
	if len(res.Cluster.Topics) != 2 {
		t.Errorf("topics on the cluster: %+v", res.Cluster.Topics)
	}
}
