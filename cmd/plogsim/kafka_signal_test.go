package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Ctrl-C (SIGINT) and SIGTERM stop plogsim kafka while the cluster hangs
// on a produce, and it still deletes the topic it created: the plogsim
// binary runs, and gets the signal, as a learner's terminal sends it.
func TestKafkaStopsOnASignalAndCleansUp(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "plogsim")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	file := writeFile(t, "topic orders partitions=2\nproduce orders key=k value=v\n")
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		cluster, err := kfake.NewCluster(kfake.NumBrokers(1))
		if err != nil {
			t.Fatal(err)
		}
		defer cluster.Close()
		producing := make(chan struct{}, 1)
		cluster.ControlKey(int16(kmsg.Produce), func(kmsg.Request) (kmsg.Response, error, bool) {
			cluster.KeepControl()
			select {
			case producing <- struct{}{}:
			default:
			}
			return nil, nil, true // never answered
		})
		brokers := strings.Join(cluster.ListenAddrs(), ",")
		// A long --timeout: only the signal can end the run soon.
		cmd := exec.Command(bin, "kafka", "--brokers", brokers, "--prefix", "sig-", "--timeout", "20s", file)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-producing:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("plogsim never produced: %s", stderr.String())
		}
		start := time.Now()
		cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err = <-done:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: plogsim still runs 15 s after the signal: %s", sig, stderr.String())
		}
		t.Logf("%v: stopped in %s", sig, time.Since(start))
		if code := cmd.ProcessState.ExitCode(); code != 1 {
			t.Errorf("%v: exit %d (%v), want 1", sig, code, err)
		}
		for _, want := range []string{"stopping the run and deleting what it created", "line 2: produce orders key=k value=v: the run was stopped (interrupted by " + sig.String() + ")"} {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("%v: stderr does not say %q:\n%s", sig, want, stderr.String())
			}
		}
		client, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...))
		if err != nil {
			t.Fatal(err)
		}
		topics, err := kadm.NewClient(client).ListTopics(context.Background())
		client.Close()
		if err != nil || len(topics.Names()) != 0 {
			t.Errorf("%v: topics left after the signal: %v %v", sig, topics.Names(), err)
		}
	}
}
