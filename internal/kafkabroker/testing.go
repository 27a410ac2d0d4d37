package kafkabroker

import (
	"context"
	"testing"
)

// StartT starts a cluster for a test and stops it, removing its folder,
// when the test ends. Missing Java or Maven fails the test with what to
// install: the tests that need a broker are never skipped.
func StartT(t testing.TB, opts Options) *Cluster {
	t.Helper()
	c, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatalf("starting Kafka %s: %v", Version, err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("stopping Kafka: %v", err)
		}
	})
	return c
}
