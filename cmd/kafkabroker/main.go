// Command kafkabroker starts Apache Kafka's broker (internal/kafkabroker)
// on a free loopback port for use by hand, says how to run a scenario on it,
// and stops it, removing its data, on Ctrl-C. When the broker dies by
// itself it says so, with the end of its log, and exits with status 1.
// `make kafka` runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"plog/internal/kafkabroker"
)

// cluster is what kafkabroker needs of a running cluster
// (kafkabroker.Cluster); a test gives it a stand-in.
type cluster interface {
	Brokers() []string
	LogFile(i int) string
	// Wait returns nil when ctx is done, or an error when a node died.
	Wait(ctx context.Context) error
	Close() error
}

func main() {
	nodes := flag.Int("nodes", 1, "number of nodes, each broker and controller (3 for replication)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, *nodes, os.Stdout, os.Stderr, func(ctx context.Context, opts kafkabroker.Options) (cluster, error) {
		return kafkabroker.Start(ctx, opts)
	}))
}

// run starts a cluster of nodes with start and supervises it until ctx is
// done (Ctrl-C) or a node dies, then stops it. It returns the exit status.
func run(ctx context.Context, nodes int, stdout, stderr io.Writer, start func(context.Context, kafkabroker.Options) (cluster, error)) int {
	fmt.Fprintf(stdout, "starting Apache Kafka %s (%d node(s), KRaft, on 127.0.0.1)...\n", kafkabroker.Version, nodes)
	c, err := start(ctx, kafkabroker.Options{Nodes: nodes})
	if err != nil {
		fmt.Fprintln(stderr, "kafkabroker:", err)
		return 1
	}
	brokers := strings.Join(c.Brokers(), ",")
	fmt.Fprintf(stdout, "Kafka %s is up on %s (logs: %s).\n\n", kafkabroker.Version, brokers, c.LogFile(0))
	fmt.Fprintf(stdout, "  go run ./cmd/plogsim kafka --brokers %s scenario.txt\n\n", brokers)
	fmt.Fprintln(stdout, "Press Ctrl-C to stop it; its data is removed.")
	died := c.Wait(ctx)
	if died != nil {
		fmt.Fprintf(stderr, "\nkafkabroker: Kafka on %s is down: %v\n", brokers, died)
		fmt.Fprintln(stderr, "kafkabroker: stopping what is left and removing its data")
	} else {
		fmt.Fprintln(stdout, "\nstopping Kafka...")
	}
	if err := c.Close(); err != nil {
		fmt.Fprintln(stderr, "kafkabroker:", err)
		return 1
	}
	if died != nil {
		return 1
	}
	fmt.Fprintln(stdout, "stopped.")
	return 0
}
