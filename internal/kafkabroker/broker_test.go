package kafkabroker

import (
	"context"
	"encoding/hex"
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

func adminOf(t *testing.T, brokers []string) *kadm.Client {
	t.Helper()
	client, err := kgo.NewClient(kgo.SeedBrokers(brokers...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	return kadm.NewClient(client)
}

// listening returns the addresses process pid listens on, from Linux's
// /proc: its socket inodes, looked up in the TCP tables.
func listening(t *testing.T, pid int) []string {
	t.Helper()
	fds, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	if err != nil {
		t.Fatal(err)
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		link, _ := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "fd", fd.Name()))
		if ino, ok := strings.CutPrefix(link, "socket:["); ok {
			inodes[strings.TrimSuffix(ino, "]")] = true
		}
	}
	var out []string
	for _, table := range []string{"tcp", "tcp6"} {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/net/" + table)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 10 || f[3] != "0A" || !inodes[f[9]] { // 0A: LISTEN
				continue
			}
			out = append(out, procAddr(f[1]))
		}
	}
	return out
}

// procAddr reads /proc/net/tcp's HEXIP:HEXPORT (IPv4 as one little-endian
// word, IPv6 as four).
func procAddr(s string) string {
	hexIP, hexPort, _ := strings.Cut(s, ":")
	port, _ := strconv.ParseUint(hexPort, 16, 16)
	raw, _ := hex.DecodeString(hexIP)
	for i := 0; i+4 <= len(raw); i += 4 {
		raw[i], raw[i+1], raw[i+2], raw[i+3] = raw[i+3], raw[i+2], raw[i+1], raw[i]
	}
	return net.JoinHostPort(net.IP(raw).String(), strconv.Itoa(int(port)))
}

func gone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// One node starts, answers on loopback only, takes a topic and records,
// and when closed leaves no process, port or folder behind.
func TestOneNodeAnswersOnLoopbackAndLeavesNothing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Fatal("this test reads Linux's /proc")
	}
	c, err := Start(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	pid := c.Pids()[0]
	addrs := listening(t, pid)
	if len(addrs) != 2 {
		t.Errorf("listening on %v, want the broker's and the controller's port", addrs)
	}
	for _, a := range addrs {
		if host, _, _ := net.SplitHostPort(a); host != "127.0.0.1" {
			t.Errorf("kafka listens on %s, want 127.0.0.1 only", a)
		}
	}

	admin := adminOf(t, c.Brokers())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.CreateTopic(ctx, 3, 1, nil, "t"); err != nil {
		t.Fatal(err)
	}
	// A topic just created may be unknown to the broker for a moment.
	client, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...), kgo.DefaultProduceTopic("t"), kgo.UnknownTopicRetries(-1))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	if err := client.ProduceSync(ctx, kgo.StringRecord("v")).FirstErr(); err != nil {
		t.Fatal(err)
	}
	ends, err := admin.ListEndOffsets(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	total := int64(0)
	ends.Each(func(o kadm.ListedOffset) { total += o.Offset })
	if total != 1 {
		t.Errorf("end offsets sum to %d, want 1", total)
	}
	if b, err := os.ReadFile(c.LogFile(0)); err != nil || !strings.Contains(string(b), "Kafka version: 4.4.0") {
		t.Errorf("the server log does not say Kafka 4.4.0 started (%v)", err)
	}

	dir := c.Dir()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if !gone(pid) {
		t.Errorf("kafka (pid %d) still runs after Close", pid)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there after Close (%v)", dir, err)
	}
	for _, a := range c.Brokers() {
		if conn, err := net.DialTimeout("tcp", a, time.Second); err == nil {
			conn.Close()
			t.Errorf("%s still answers after Close", a)
		}
	}
}

// Without Java or Maven, resolving the broker fails with what to install,
// and creates no cache.
func TestMissingJavaSaysWhatToInstall(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	t.Setenv("PLOG_KAFKA_CACHE", cache)
	t.Setenv("PATH", t.TempDir())
	_, err := resolveJars()
	if err == nil || !strings.Contains(err.Error(), "java and mvn not found") ||
		!strings.Contains(err.Error(), "apt-get install -y default-jdk-headless maven") {
		t.Fatalf("resolveJars without java and mvn: %v, want what to install", err)
	}
	if _, err := os.Stat(cache); !os.IsNotExist(err) {
		t.Errorf("the cache folder was made (%v)", err)
	}
}
