package kafkabroker

import (
	"bufio"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// standIn is a cluster of one node whose process is a stand-in for java:
// a shell that writes a log line, says so on its output, and sleeps. It
// returns once the line is written.
func standIn(t *testing.T) *Cluster {
	t.Helper()
	dir := t.TempDir()
	n := &node{id: 1, dir: dir}
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", "echo 'Kafka stand-in started' > logs/server.log; echo logged; exec sleep 600")
	cmd.Dir = dir
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd.Stdout = w
	err = n.start(cmd)
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(r).ReadString('\n'); line != "logged\n" {
		t.Fatalf("the stand-in said %q (%v)", line, err)
	}
	c := &Cluster{dir: dir, nodes: []*node{n}}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitResult runs Wait in the background and hands back what it returns.
func waitResult(ctx context.Context, c *Cluster) <-chan error {
	out := make(chan error, 1)
	go func() { out <- c.Wait(ctx) }()
	return out
}

// Wait returns an error naming the node, how it ended and its log when
// the process dies by itself, and nil when its context ends while the
// node runs, or after the node was stopped on purpose.
func TestWaitSaysWhenANodeDies(t *testing.T) {
	t.Run("killed", func(t *testing.T) {
		c := standIn(t)
		got := waitResult(context.Background(), c)
		pid := c.Pids()[0]
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err := <-got
		if err == nil {
			t.Fatal("Wait returned nil after the node was killed")
		}
		for _, want := range []string{"kafka node 1", "exited by itself (signal: killed)", "Kafka stand-in started"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("Wait: %v\nwant it to say %q", err, want)
			}
		}
	})
	t.Run("context done", func(t *testing.T) {
		c := standIn(t)
		ctx, cancel := context.WithCancel(context.Background())
		got := waitResult(ctx, c)
		cancel()
		if err := <-got; err != nil {
			t.Fatalf("Wait after its context ended: %v", err)
		}
		if c.Pids()[0] == 0 {
			t.Error("the node stopped when Wait's context ended")
		}
	})
	t.Run("stopped on purpose", func(t *testing.T) {
		c := standIn(t)
		ctx, cancel := context.WithCancel(context.Background())
		got := waitResult(ctx, c)
		if err := c.StopNode(0); err != nil {
			t.Fatal(err)
		}
		// Wait must still be waiting: the stop was asked for. Its
		// context ending is what returns it, with nil.
		cancel()
		if err := <-got; err != nil {
			t.Fatalf("Wait after StopNode: %v", err)
		}
	})
}

// A real broker whose java process is killed ends Wait with an error
// naming the node and the signal.
func TestWaitSaysWhenKafkaIsKilled(t *testing.T) {
	t.Parallel()
	c := StartT(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	got := waitResult(ctx, c)
	if err := syscall.Kill(c.Pids()[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := <-got
	if err == nil || !strings.Contains(err.Error(), "kafka node 1") || !strings.Contains(err.Error(), "signal: killed") {
		t.Fatalf("Wait after the java process was killed: %v", err)
	}
}

// A port another process takes between freePorts and the node's listening
// on it fails that attempt only: Start tries again, on other ports. The
// test holds the first port it hands out.
func TestStartTriesOtherPortsWhenOneIsTaken(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	taken := held.Addr().(*net.TCPAddr).Port
	calls := 0
	free := freePorts
	freePorts = func(n int) ([]int, error) {
		calls++
		ports, err := free(n)
		if calls == 1 && err == nil {
			ports[0] = taken
		}
		return ports, err
	}
	defer func() { freePorts = free }()
	c := StartT(t, Options{})
	if calls != 2 || strings.HasSuffix(c.Brokers()[0], ":"+strconv.Itoa(taken)) {
		t.Errorf("Start asked for ports %d times and listens on %v; want a second attempt, on another port than %d", calls, c.Brokers(), taken)
	}
}
