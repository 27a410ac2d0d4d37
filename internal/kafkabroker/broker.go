// Package kafkabroker runs Apache Kafka's own broker, from its jars on
// Maven Central (maven/pom.xml), for plog's conformance tests and for
// `make kafka`: KRaft nodes that are broker and controller at once, on free
// loopback ports, in a temporary folder removed when they stop.
//
// It does what Kafka 4.4's scripts do, without them: bin/kafka-storage.sh
// format runs kafka.tools.StorageTool (format --standalone for one node;
// a static controller.quorum.voters for three), bin/kafka-server-start.sh
// runs kafka.Kafka with a server.properties like Kafka's
// config/server.properties. The broker logs to a file in its folder
// (log4j2, as Kafka 4 does), never to the caller's output.
package kafkabroker

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Options says what cluster to start.
type Options struct {
	// Nodes is the number of nodes, each broker and controller (default 1).
	Nodes int
	// Configs are broker configs set on every node, over the defaults
	// (see serverProperties).
	Configs map[string]string
	// StartTimeout bounds formatting and starting, until every node
	// answers (default 2 minutes: a JVM starts slowly on a busy machine).
	StartTimeout time.Duration
	// Dir is the folder the cluster's data and logs go in, removed when
	// it stops; "" makes a temporary one.
	Dir string
}

// StopTimeout is how long a node may take to shut down after SIGTERM
// before it is killed. A controlled shutdown takes a few seconds; a node
// whose controller quorum is gone (two of three stopped) waits for it
// forever.
const StopTimeout = 10 * time.Second

// Cluster is a running Kafka cluster.
type Cluster struct {
	dir       string
	classpath string
	nodes     []*node
	closeOnce sync.Once
	closeErr  error
}

// node is one Kafka process.
type node struct {
	id             int
	port, ctrlPort int
	dir            string // data in dir/data, logs in dir/logs
	props          string // server.properties
	cmd            *exec.Cmd
	done           chan struct{} // closed when the process has exited
	waitErr        error         // how it exited, once done is closed
	// stopped says the process was stopped on purpose, by stop (StopNode
	// or Close), which Wait reads as it waits.
	stopped atomic.Bool
}

// Start formats and starts a cluster and waits until every node answers.
// Whatever it started is stopped and removed when it fails.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	if opts.Nodes <= 0 {
		opts.Nodes = 1
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, opts.StartTimeout)
	defer cancel()
	jars, err := Jars()
	if err != nil {
		return nil, err
	}
	if _, err := exec.LookPath("java"); err != nil {
		return nil, fmt.Errorf("java not found: %s", NeedsJava)
	}
	cp, err := classpath(jars)
	if err != nil {
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		c, err := startOnce(ctx, opts, cp)
		if errors.Is(err, errPortTaken) && attempt < startAttempts && ctx.Err() == nil {
			continue // on other free ports
		}
		return c, err
	}
}

// startAttempts is how many times Start tries free ports that another
// process takes before a node listens on them.
const startAttempts = 3

// errPortTaken is a node that could not listen on a port freePorts found
// free: freePorts closes its listeners before the JVM, seconds later on a
// busy machine, binds the ports, and another process (a client's
// connection takes an ephemeral port too) may take one in between.
var errPortTaken = errors.New("a port was taken before the node listened on it")

// startOnce starts a cluster on ports found free now; whatever it started
// is stopped and removed when it fails.
func startOnce(ctx context.Context, opts Options, cp string) (*Cluster, error) {
	dir := opts.Dir
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "plog-kafka-"); err != nil {
			return nil, err
		}
	}
	c := &Cluster{dir: dir, classpath: cp}
	ports, err := freePorts(2 * opts.Nodes)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	for i := range opts.Nodes {
		c.nodes = append(c.nodes, &node{id: i + 1, port: ports[2*i], ctrlPort: ports[2*i+1],
			dir: filepath.Join(dir, "node-"+strconv.Itoa(i+1))})
	}
	if err := c.start(ctx, opts); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *Cluster) start(ctx context.Context, opts Options) error {
	clusterID := randomUUID()
	var voters []string
	for _, n := range c.nodes {
		voters = append(voters, fmt.Sprintf("%d@127.0.0.1:%d", n.id, n.ctrlPort))
	}
	errs := make([]error, len(c.nodes))
	var wg sync.WaitGroup
	for i, n := range c.nodes {
		if err := os.MkdirAll(filepath.Join(n.dir, "logs"), 0o755); err != nil {
			return err
		}
		n.props = filepath.Join(n.dir, "server.properties")
		if err := os.WriteFile(n.props, []byte(serverProperties(n, voters, opts.Configs)), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(n.dir, "log4j2.properties"), []byte(log4j2Properties), 0o644); err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.format(ctx, n, clusterID, len(c.nodes) == 1)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, n := range c.nodes {
		if err := c.launch(n); err != nil {
			return err
		}
	}
	return c.waitReady(ctx)
}

// serverProperties is a node's server.properties: Kafka 4.4's
// config/server.properties for a combined node, on loopback, with what a
// cluster of one or three needs, and the caller's configs over it.
func serverProperties(n *node, voters []string, configs map[string]string) string {
	replicas := strconv.Itoa(min(len(voters), 3))
	p := map[string]string{
		"process.roles":                  "broker,controller",
		"node.id":                        strconv.Itoa(n.id),
		"listeners":                      fmt.Sprintf("PLAINTEXT://127.0.0.1:%d,CONTROLLER://127.0.0.1:%d", n.port, n.ctrlPort),
		"advertised.listeners":           fmt.Sprintf("PLAINTEXT://127.0.0.1:%d,CONTROLLER://127.0.0.1:%d", n.port, n.ctrlPort),
		"inter.broker.listener.name":     "PLAINTEXT",
		"controller.listener.names":      "CONTROLLER",
		"listener.security.protocol.map": "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
		"log.dirs":                       filepath.Join(n.dir, "data"),
		"num.partitions":                 "1",
		// The internal topics are replicated over every node, up to three.
		"offsets.topic.replication.factor":                 replicas,
		"transaction.state.log.replication.factor":         replicas,
		"transaction.state.log.min.isr":                    "1",
		"share.coordinator.state.topic.replication.factor": replicas,
		"share.coordinator.state.topic.min.isr":            "1",
		// Kafka's default is 6 s, the playground's least session.timeout.ms;
		// lower lets a test give static members short sessions that end
		// on the wall clock within a run.
		"group.min.session.timeout.ms": "500",
		// group.initial.rebalance.delay.ms keeps Kafka's default, 3 s,
		// the playground's default too (rules 4, core/group_timing.go):
		// an empty group's first rebalance waits it for more members.
	}
	if len(voters) == 1 {
		// kafka-storage format --standalone: a dynamic quorum of one.
		p["controller.quorum.bootstrap.servers"] = strings.TrimPrefix(voters[0], "1@")
	} else {
		p["controller.quorum.voters"] = strings.Join(voters, ",")
	}
	for k, v := range configs {
		p[k] = v
	}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(p)) {
		fmt.Fprintf(&b, "%s=%s\n", k, p[k])
	}
	return b.String()
}

// log4j2Properties sends everything the broker logs to logs/server.log,
// at Kafka's config/log4j2.yaml levels, never to the console.
const log4j2Properties = `status = warn
appender.file.type = File
appender.file.name = file
appender.file.fileName = ${sys:kafka.logs.dir}/server.log
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = file
logger.state.name = state.change.logger
logger.state.level = WARN
logger.request.name = kafka.request.logger
logger.request.level = WARN
`

// jvm is the java command line before the main class: kafka-run-class.sh's
// performance options, a smaller heap than kafka-server-start.sh's 1 GB
// (a test broker holds little), and the log folder and log4j2 config. The
// JIT stops at C1 (TieredStopAtLevel=1): a node then starts in half the
// time on two busy cores, and a test broker is never busy enough for C2 to
// pay off.
func (c *Cluster) jvm(n *node) []string {
	return []string{"-Xmx512m", "-server", "-XX:TieredStopAtLevel=1", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20",
		"-XX:InitiatingHeapOccupancyPercent=35", "-XX:+ExplicitGCInvokesConcurrent",
		"-XX:MaxInlineLevel=15", "-Djava.awt.headless=true",
		"-Dkafka.logs.dir=" + filepath.Join(n.dir, "logs"),
		"-Dlog4j2.configurationFile=" + filepath.Join(n.dir, "log4j2.properties"),
		"-cp", c.classpath}
}

// format runs kafka-storage format on a node's folder.
func (c *Cluster) format(ctx context.Context, n *node, clusterID string, standalone bool) error {
	args := append(c.jvm(n), "kafka.tools.StorageTool", "format", "-t", clusterID, "-c", n.props)
	if standalone {
		args = append(args, "--standalone")
	}
	cmd := exec.CommandContext(ctx, "java", args...)
	cmd.SysProcAttr = sysProcAttr()
	cmd.WaitDelay = 5 * time.Second
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("kafka-storage format on node %d: %v\n%s", n.id, err, tail(string(out), 20))
	}
	return nil
}

// launch starts a node's kafka.Kafka.
func (c *Cluster) launch(n *node) error {
	out, err := os.OpenFile(filepath.Join(n.dir, "logs", "console.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer out.Close()
	cmd := exec.Command("java", append(c.jvm(n), "kafka.Kafka", n.props)...)
	cmd.Stdout, cmd.Stderr = out, out
	return n.start(cmd)
}

// start starts a node's process and watches for its end.
func (n *node) start(cmd *exec.Cmd) error {
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting node %d: %v", n.id, err)
	}
	n.cmd, n.done = cmd, make(chan struct{})
	n.stopped.Store(false)
	done := n.done
	go func() {
		n.waitErr = cmd.Wait()
		close(done)
	}()
	return nil
}

// waitReady waits until every running node is in the cluster's metadata,
// a controller is elected, and group coordinators answer: a new cluster
// creates __consumer_offsets at the first FindCoordinator and answers
// COORDINATOR_NOT_AVAILABLE until its partitions are loaded, which a test's
// first group should not have to wait out.
func (c *Cluster) waitReady(ctx context.Context) error {
	client, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...), kgo.DialTimeout(2*time.Second))
	if err != nil {
		return err
	}
	defer client.Close()
	admin := kadm.NewClient(client)
	want := 0
	for _, n := range c.nodes {
		if n.running() {
			want++
		}
	}
	var last error
	for {
		for _, n := range c.nodes {
			if n.cmd != nil && !n.stopped.Load() && !n.running() {
				err := fmt.Errorf("kafka node %d exited while starting (%v); its log ends:\n%s", n.id, n.waitErr, n.logTail(30))
				if n.portTaken() {
					err = fmt.Errorf("%w: %w", errPortTaken, err)
				}
				return err
			}
		}
		reqCtx, cancel := context.WithTimeout(ctx, 3*time.Second)
		m, err := admin.Metadata(reqCtx)
		cancel()
		switch {
		case err != nil:
			last = err
		case len(m.Brokers) != want || m.Controller < 0:
			last = fmt.Errorf("%d of %d brokers registered", len(m.Brokers), want)
		default:
			if last = coordinatorsReady(ctx, admin); last == nil {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("kafka did not answer on %s in time (%v); node 1's log ends:\n%s",
				strings.Join(c.Brokers(), ","), last, c.nodes[0].logTail(30))
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// coordinatorsReady asks for the coordinators of groups spread over
// __consumer_offsets' partitions and says why they are not all there.
func coordinatorsReady(ctx context.Context, admin *kadm.Client) error {
	probes := make([]string, 32)
	for i := range probes {
		probes[i] = "plog-probe-" + strconv.Itoa(i)
	}
	reqCtx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	for _, r := range admin.FindGroupCoordinators(reqCtx, probes...) {
		if r.Err != nil {
			return fmt.Errorf("group coordinator for %s: %v", r.Name, r.Err)
		}
	}
	return nil
}

func (n *node) running() bool {
	if n.done == nil {
		return false
	}
	select {
	case <-n.done:
		return false
	default:
		return true
	}
}

// portTaken says whether the node's logs say it could not listen on a
// port: Kafka 4.4's SocketServer fails its start with Java's
// BindException.
func (n *node) portTaken() bool {
	for _, name := range []string{"console.log", "server.log"} {
		if b, err := os.ReadFile(filepath.Join(n.dir, "logs", name)); err == nil && strings.Contains(string(b), "java.net.BindException: Address already in use") {
			return true
		}
	}
	return false
}

func (n *node) logTail(lines int) string {
	var parts []string
	for _, name := range []string{"console.log", "server.log"} {
		if b, err := os.ReadFile(filepath.Join(n.dir, "logs", name)); err == nil && len(b) > 0 {
			parts = append(parts, name+":\n"+tail(string(b), lines))
		}
	}
	return strings.Join(parts, "\n")
}

// Brokers are the bootstrap addresses, 127.0.0.1:PORT, one a node.
func (c *Cluster) Brokers() []string {
	out := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		out[i] = "127.0.0.1:" + strconv.Itoa(n.port)
	}
	return out
}

// Pids are the nodes' process ids (0 for one not running).
func (c *Cluster) Pids() []int {
	out := make([]int, len(c.nodes))
	for i, n := range c.nodes {
		if n.running() {
			out[i] = n.cmd.Process.Pid
		}
	}
	return out
}

// Dir is the folder of the cluster's data and logs.
func (c *Cluster) Dir() string { return c.dir }

// LogFile is node i's (from 0) server log.
func (c *Cluster) LogFile(i int) string {
	return filepath.Join(c.nodes[i].dir, "logs", "server.log")
}

// StopNode stops node i (from 0), keeping its data, as a broker that goes
// down does.
func (c *Cluster) StopNode(i int) error {
	return c.nodes[i].stop()
}

// RestartNode starts node i again on its data and ports and waits until
// the whole cluster answers.
func (c *Cluster) RestartNode(ctx context.Context, i int, timeout time.Duration) error {
	if c.nodes[i].running() {
		return fmt.Errorf("node %d is running", c.nodes[i].id)
	}
	if err := c.launch(c.nodes[i]); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return c.waitReady(ctx)
}

// stop sends SIGTERM, which Kafka answers with a controlled shutdown, and
// kills the process after StopTimeout; it fails only if the process will
// not go.
func (n *node) stop() error {
	if !n.running() {
		return nil
	}
	n.stopped.Store(true)
	n.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-n.done:
		return nil
	case <-time.After(StopTimeout):
	}
	n.cmd.Process.Kill()
	select {
	case <-n.done:
		return nil
	case <-time.After(10 * time.Second):
		return fmt.Errorf("kafka node %d (pid %d) did not exit even when killed", n.id, n.cmd.Process.Pid)
	}
}

// Wait waits until ctx is done, and then returns nil, or until a node's
// process ends that neither StopNode nor Close stopped: a broker that died
// (killed, out of memory, a fatal error in its log). Then it returns an
// error naming the node, how its process ended and the last lines of its
// logs, which Close removes. It watches the nodes running when it is
// called. `make kafka` (cmd/kafkabroker) waits on it, so that a broker
// that died ends it with a message rather than leave it saying the broker
// is up.
func (c *Cluster) Wait(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	died := make(chan *node, len(c.nodes))
	for _, n := range c.nodes {
		if !n.running() {
			continue
		}
		done := n.done
		go func() {
			select {
			case <-done:
				if !n.stopped.Load() {
					died <- n
				}
			case <-ctx.Done():
			}
		}()
	}
	select {
	case n := <-died:
		return fmt.Errorf("kafka node %d (pid %d) exited by itself (%v); its log ends:\n%s", n.id, n.cmd.Process.Pid, n.waitErr, n.logTail(30))
	case <-ctx.Done():
		return nil
	}
}

// Close stops every node (at once: a lone broker of a stopped quorum
// would wait for a controller that is gone) and removes the cluster's
// folder. It may be called more than once.
func (c *Cluster) Close() error {
	c.closeOnce.Do(func() {
		errs := make([]error, len(c.nodes))
		var wg sync.WaitGroup
		for i, n := range c.nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = n.stop()
			}()
		}
		wg.Wait()
		errs = append(errs, os.RemoveAll(c.dir))
		c.closeErr = errors.Join(errs...)
	})
	return c.closeErr
}

// freePorts returns n distinct free loopback ports (a variable, so that a
// test can hand out a port it holds).
var freePorts = func(n int) ([]int, error) {
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// randomUUID is a cluster id as kafka-storage random-uuid prints it:
// Kafka's Uuid, 16 random bytes in unpadded URL-safe base64.
func randomUUID() string {
	var b [16]byte
	rand.Read(b[:])
	// Kafka's Uuid.randomUuid never gives an id starting with '-'.
	b[0] &= 0x7f
	return base64.RawURLEncoding.EncodeToString(b[:])
}
