package kafkarun

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"

	"plog/core"
	"plog/core/scenario"
)

// Options says which cluster to run on and how.
type Options struct {
	// Brokers are the bootstrap addresses, HOST:PORT.
	Brokers []string
	// Prefix starts the name of every topic and group id the run creates;
	// "" picks plog-<random>-.
	Prefix string
	// Keep leaves the topics and groups in place after a successful run.
	Keep bool
	// DialTimeout bounds connecting to a broker (default 5s).
	DialTimeout time.Duration
	// WaitTimeout bounds each wait on the cluster: a group settling, a poll
	// filling, the records being read back (default 15s).
	WaitTimeout time.Duration
	// ClientOpts are added to every client the run makes: TLS, SASL, a
	// logger.
	ClientOpts []kgo.Opt
}

// Result is what a run found.
type Result struct {
	// Prefix is the prefix of the run's topics and group ids.
	Prefix string
	// Kept says the topics and groups were left on the cluster.
	Kept bool
	// Cluster is the cluster's state after the script, with names
	// unprefixed; Prediction is the playground's for the same script.
	Cluster, Prediction scenario.State
	Comparison          Comparison
}

const (
	defaultDialTimeout = 5 * time.Second
	defaultWaitTimeout = 15 * time.Second
)

// Run runs a scenario on the cluster and compares the outcome with the
// playground's. A script the playground refuses is refused before the
// cluster is touched. Errors name the broker, the script line or the
// permission that failed; whatever the run created is deleted on error.
func Run(ctx context.Context, script string, opts Options) (*Result, error) {
	cmds, err := scenario.Parse(script)
	if err != nil {
		return nil, err
	}
	if _, err := scenario.Load(script); err != nil {
		return nil, err
	}
	if len(opts.Brokers) == 0 {
		return nil, errors.New("no broker to connect to: give at least one HOST:PORT")
	}
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = defaultDialTimeout
	}
	if opts.WaitTimeout <= 0 {
		opts.WaitTimeout = defaultWaitTimeout
	}
	if opts.Prefix == "" {
		opts.Prefix = randomPrefix()
	}
	if err := checkPrefix(opts.Prefix); err != nil {
		return nil, err
	}

	r, err := newRunner(ctx, opts)
	if err != nil {
		return nil, err
	}
	res, err := r.run(ctx, cmds)
	keep := err == nil && opts.Keep
	if cerr := r.close(keep); cerr != nil && err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	res.Kept = keep
	return res, nil
}

// randomPrefix returns plog-<8 hex digits>-.
func randomPrefix() string {
	var b [4]byte
	rand.Read(b[:])
	return "plog-" + hex.EncodeToString(b[:]) + "-"
}

// checkPrefix refuses a prefix Kafka would refuse in a topic name.
func checkPrefix(prefix string) error {
	for _, c := range prefix {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("prefix %q: topic names may hold only letters, digits, '.', '_' and '-'", prefix)
		}
	}
	return nil
}

// runner is one run in progress.
type runner struct {
	opts    Options
	start   time.Time
	base    *kgo.Client // admin requests and producing
	admin   *kadm.Client
	session *scenario.Session // the playground's prediction, in step

	created    []string       // topics created, script names, in order
	partitions map[string]int // the cluster's partition count per topic
	roundRobin map[string]int // keyless records sent round-robin per topic
	groups     map[string]*groupRun
	groupNames []string // in order of first join
	marks      marks
}

func newRunner(ctx context.Context, opts Options) (*runner, error) {
	clientOpts := append([]kgo.Opt{
		kgo.SeedBrokers(opts.Brokers...),
		kgo.DialTimeout(opts.DialTimeout),
		kgo.RetryTimeout(opts.WaitTimeout),
		kgo.RecordPartitioner(scriptPartitioner{keyed: kgo.StickyKeyPartitioner(nil)}),
		kgo.ProducerLinger(0),
	}, opts.ClientOpts...)
	base, err := kgo.NewClient(clientOpts...)
	if err != nil {
		return nil, fmt.Errorf("cannot make a client for %s: %v", strings.Join(opts.Brokers, ","), err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, opts.DialTimeout)
	defer cancel()
	if err := base.Ping(pingCtx); err != nil {
		base.Close()
		if pingCtx.Err() != nil && ctx.Err() == nil {
			err = fmt.Errorf("no answer within %s (%v)", opts.DialTimeout, err)
		}
		if mechanisms, _ := base.OptValue(kgo.SASL).([]sasl.Mechanism); len(mechanisms) > 0 && isClosed(err) {
			// Some brokers answer a failed SASL exchange by closing
			// the connection rather than with an error code.
			return nil, fmt.Errorf("cannot reach broker %s: authentication failed, or the broker wants TLS: "+
				"it closed the connection while authenticating as %s (%v)", strings.Join(opts.Brokers, ","), mechanisms[0].Name(), err)
		}
		return nil, fmt.Errorf("cannot reach broker %s: %v", strings.Join(opts.Brokers, ","), explain(err))
	}
	return &runner{
		opts:       opts,
		start:      time.Now(),
		base:       base,
		admin:      kadm.NewClient(base),
		session:    scenario.NewSession(),
		partitions: map[string]int{},
		roundRobin: map[string]int{},
		groups:     map[string]*groupRun{},
		marks:      newMarks(),
	}, nil
}

// run applies the commands to the playground and the cluster side by side,
// then reads the cluster back and compares.
func (r *runner) run(ctx context.Context, cmds []scenario.Command) (*Result, error) {
	for _, c := range cmds {
		r.markBefore(c)
		events, err := r.session.ApplyCommand(c)
		if err != nil {
			// Load accepted the script, so this cannot happen; say so
			// rather than run on with the two sides apart.
			return nil, fmt.Errorf("line %d: %s: the playground refused it on replay: %v", c.Line, c, err)
		}
		r.markAfter(c, events)
		if err := r.apply(ctx, c); err != nil {
			return nil, fmt.Errorf("line %d: %s: %v", c.Line, c, explain(err))
		}
	}
	for _, name := range r.groupNames {
		if g := r.groups[name]; len(g.members) > 0 {
			if err := r.settle(ctx, g); err != nil {
				return nil, fmt.Errorf("at the end of the script: %v", explain(err))
			}
		}
	}
	cluster, err := r.readState(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the cluster's state: %v", explain(err))
	}
	prediction := scenario.Snapshot(r.session.Log())
	return &Result{
		Prefix:     r.opts.Prefix,
		Cluster:    cluster,
		Prediction: prediction,
		Comparison: compare(prediction, cluster, &r.marks),
	}, nil
}

// close stops every client and, unless keep, deletes the groups and topics
// the run created.
func (r *runner) close(keep bool) error {
	static := map[string][]string{}
	for _, name := range r.groupNames {
		static[name] = r.groups[name].closeMembers()
	}
	defer r.base.Close()
	if keep {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.opts.WaitTimeout)
	defer cancel()
	var problems []string
	for _, name := range r.groupNames {
		// Static members send no LeaveGroup; a group that still has
		// them cannot be deleted, so remove them as an admin does.
		if ids := static[name]; len(ids) > 0 {
			if _, err := r.admin.LeaveGroup(ctx, kadm.LeaveGroup(r.groups[name].id).InstanceIDs(ids...)); err != nil {
				problems = append(problems, fmt.Sprintf("static members of group %s: %v", r.groups[name].id, explain(err)))
			}
		}
	}
	if len(r.groupNames) > 0 {
		ids := make([]string, len(r.groupNames))
		for i, name := range r.groupNames {
			ids[i] = r.opts.Prefix + name
		}
		resp, err := r.admin.DeleteGroups(ctx, ids...)
		if err == nil {
			for _, id := range ids {
				// A group that never got a commit or member may not
				// exist: nothing to delete.
				if g, ok := resp[id]; ok && g.Err != nil && !isGroupGone(g.Err) {
					problems = append(problems, fmt.Sprintf("group %s: %v", id, explain(g.Err)))
				}
			}
		} else {
			problems = append(problems, fmt.Sprintf("groups: %v", explain(err)))
		}
	}
	if len(r.created) > 0 {
		resp, err := r.admin.DeleteTopics(ctx, r.prefixed(r.created)...)
		if err == nil {
			err = resp.Error()
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("topics: %v", explain(err)))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("could not delete what the run created (prefix %s): %s", r.opts.Prefix, strings.Join(problems, "; "))
	}
	return nil
}

func (r *runner) prefixed(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = r.opts.Prefix + n
	}
	return out
}

// apply runs one command on the cluster.
func (r *runner) apply(ctx context.Context, c scenario.Command) error {
	switch c.Name {
	case "seed", "compact", "producer", "consumer", "stop", "brokers", "broker":
		return nil // not run on a cluster: markAfter noted what they change
	case "advance":
		return r.settleStable(ctx)
	case "topic":
		return r.createTopic(ctx, c)
	case "produce":
		return r.produce(ctx, c)
	case "partitions":
		return r.addPartitions(ctx, c)
	case "truncate":
		return r.truncate(ctx, c)
	case "config":
		if c.Positional(0) == "group" {
			return nil // applied when members join: see groupConfig
		}
		return r.alterTopicConfigs(ctx, c)
	case "join", "leave", "crash", "poll", "commit", "reset":
		return r.applyGroupCommand(ctx, c)
	}
	r.marks.note(fmt.Sprintf("line %d: %s: not run on the cluster", c.Line, c))
	return nil
}

// settleStable lets the cluster's groups finish the rebalances the
// playground's finished: the script's advance is where it lets rebalances
// end, and ending them at the same points keeps the sticky assignors'
// histories, and the generations, alike.
func (r *runner) settleStable(ctx context.Context) error {
	for _, name := range r.groupNames {
		g := r.groups[name]
		v, err := r.session.Log().Group(name)
		if err != nil || v.State != core.GroupStable || len(g.members) == 0 {
			continue
		}
		if err := r.settle(ctx, g); err != nil {
			return err
		}
	}
	return nil
}

// intArg returns a whole-number argument the grammar has already checked.
func intArg(c scenario.Command, name string) int {
	n, _ := strconv.Atoi(mustArg(c, name))
	return n
}

func mustArg(c scenario.Command, name string) string {
	v, _ := c.Value(name)
	return v
}

// topicPartition splits orders/0, which the grammar has already checked.
func topicPartition(text string) (string, int) {
	topic, num, _ := strings.Cut(text, "/")
	n, _ := strconv.Atoi(num)
	return topic, n
}

// groupConfig returns a group's configuration in the playground right now.
func (r *runner) groupConfig(group string) core.GroupConfig {
	v, err := r.session.Log().Group(group)
	if err != nil {
		return core.DefaultGroupConfig()
	}
	return v.Config
}
