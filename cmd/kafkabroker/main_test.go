package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"plog/internal/kafkabroker"
)

// fakeCluster stands in for a running cluster: its Wait returns died's
// error once something is sent on it, or nil when its context ends.
type fakeCluster struct {
	died   chan error
	closed bool
}

func (f *fakeCluster) Brokers() []string  { return []string{"127.0.0.1:9"} }
func (f *fakeCluster) LogFile(int) string { return "/tmp/server.log" }
func (f *fakeCluster) Close() error       { f.closed = true; return nil }
func (f *fakeCluster) Wait(ctx context.Context) error {
	select {
	case err := <-f.died:
		return err
	case <-ctx.Done():
		return nil
	}
}

// kafkabroker exits with status 1 and says so when its broker dies, and
// with 0 when stopped by Ctrl-C; either way it closes the cluster.
func TestRunEndsWhenTheBrokerDies(t *testing.T) {
	for _, c := range []struct {
		name   string
		end    func(f *fakeCluster, cancel context.CancelFunc)
		code   int
		stdout string
		stderr string
	}{
		{"died", func(f *fakeCluster, _ context.CancelFunc) {
			f.died <- errors.New("kafka node 1 (pid 7) exited by itself (signal: killed)")
		}, 1, "Kafka 4.4.0 is up on 127.0.0.1:9", "kafkabroker: Kafka on 127.0.0.1:9 is down: kafka node 1 (pid 7) exited by itself (signal: killed)\n"},
		{"interrupted", func(_ *fakeCluster, cancel context.CancelFunc) { cancel() }, 0, "stopping Kafka...\nstopped.\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeCluster{died: make(chan error, 1)}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c.end(f, cancel)
			var out, errOut bytes.Buffer
			code := run(ctx, 1, &out, &errOut, func(context.Context, kafkabroker.Options) (cluster, error) { return f, nil })
			if code != c.code || !strings.Contains(out.String(), c.stdout) || !strings.Contains(errOut.String(), c.stderr) {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out.String(), errOut.String())
			}
			if !f.closed {
				t.Error("the cluster was not closed")
			}
		})
	}
}

func TestRunSaysWhyTheBrokerDidNotStart(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), 1, &out, &errOut, func(context.Context, kafkabroker.Options) (cluster, error) {
		return nil, errors.New("java not found")
	})
	if code != 1 || errOut.String() != "kafkabroker: java not found\n" {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
}
