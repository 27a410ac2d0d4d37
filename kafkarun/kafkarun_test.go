package kafkarun

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
)

// startKfake starts franz-go's in-process Kafka for one test.
func startKfake(t *testing.T) []string {
	t.Helper()
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cluster.Close)
	return cluster.ListenAddrs()
}

func runOn(t *testing.T, brokers []string, script string) *Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := Run(ctx, script, Options{Brokers: brokers, WaitTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

func TestSmoke(t *testing.T) {
	brokers := startKfake(t)
	res := runOn(t, brokers, `
topic orders partitions=3
produce orders key=acct-1 value=created count=3
produce orders key=acct-2 value=x
produce orders value=no-key count=4
produce orders key="" value=empty-key
produce orders partition=2 tombstone key=k
join billing c1 topics=orders
join billing c2 topics=orders
advance 5s
poll billing c1 max=100
commit billing c1
poll billing c2 max=1
commit billing c2
truncate orders/0 before=1
`)
	t.Log("\n" + res.Cluster.Text())
	t.Log("\n" + res.Comparison.Text())
}
