// Command kafkabroker starts Apache Kafka's broker (internal/kafkabroker)
// on a free loopback port for use by hand, says how to run a scenario on it,
// and stops it, removing its data, on Ctrl-C. `make kafka` runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"plog/internal/kafkabroker"
)

func main() {
	nodes := flag.Int("nodes", 1, "number of nodes, each broker and controller (3 for replication)")
	flag.Parse()
	fmt.Printf("starting Apache Kafka %s (%d node(s), KRaft, on 127.0.0.1)...\n", kafkabroker.Version, *nodes)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := kafkabroker.Start(ctx, kafkabroker.Options{Nodes: *nodes})
	if err != nil {
		fmt.Fprintln(os.Stderr, "kafkabroker:", err)
		os.Exit(1)
	}
	brokers := strings.Join(c.Brokers(), ",")
	fmt.Printf("Kafka %s is up on %s (logs: %s).\n\n", kafkabroker.Version, brokers, c.LogFile(0))
	fmt.Printf("  go run ./cmd/plogsim kafka --brokers %s scenario.txt\n\n", brokers)
	fmt.Println("Press Ctrl-C to stop it; its data is removed.")
	<-ctx.Done()
	fmt.Println("\nstopping Kafka...")
	if err := c.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "kafkabroker:", err)
		os.Exit(1)
	}
	fmt.Println("stopped.")
}
