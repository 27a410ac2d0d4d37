package kafkarun

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl"

	"plog/core"
	"plog/core/scenario"
	"plog/core/units"
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
	// filling, the records being read back (default 15s). It also sets the
	// run's other deadlines: one command may take 3 × WaitTimeout on the
	// cluster in all (a poll settles its group, then waits for records),
	// and the cleanup WaitTimeout to close the members and WaitTimeout to
	// delete what the run created. A frozen broker fails the run at the
	// command it froze in, within its deadline.
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
	if err := checkTopicNames(cmds, opts.Prefix); err != nil {
		return nil, err
	}
	if err := checkServerAssignors(cmds); err != nil {
		return nil, err
	}

	r, err := newRunner(ctx, opts)
	if err != nil {
		return nil, err
	}
	res, err := r.run(ctx, cmds)
	keep := err == nil && opts.Keep
	// The cleanup runs on its own deadlines, whatever became of ctx: a
	// run stopped by Ctrl-C still deletes what it created.
	if cerr := r.close(keep); cerr != nil {
		err = errors.Join(err, cerr)
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

// Kafka's rules for topic names, as Kafka 4.x's
// org.apache.kafka.common.internals.Topic has them: at most
// MAX_NAME_LENGTH = 249 characters of [a-zA-Z0-9._-]; its internal topics
// (INTERNAL_TOPICS: __consumer_offsets, __transaction_state,
// __share_group_state, and the KRaft log __cluster_metadata) all start
// with "__", so the run creates no topic whose name does: one it created
// and deleted could be one of them.
const (
	maxTopicName   = 249
	internalPrefix = "__"
	internalTopics = `names starting with "__" are Kafka's internal topics (__consumer_offsets, __transaction_state, ...); choose another --prefix`
)

// checkPrefix refuses a prefix Kafka would refuse in a topic name, and one
// that starts every name like Kafka's internal topics.
func checkPrefix(prefix string) error {
	for _, c := range prefix {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("prefix %q: topic names may hold only letters, digits, '.', '_' and '-'", prefix)
		}
	}
	if strings.HasPrefix(prefix, internalPrefix) {
		return fmt.Errorf("prefix %q: %s", prefix, internalTopics)
	}
	if len(prefix) >= maxTopicName {
		return fmt.Errorf("prefix %q is %d characters: Kafka's topic names hold at most %d, the script's name included", prefix, len(prefix), maxTopicName)
	}
	return nil
}

// checkTopicNames refuses, before anything is created, a script whose
// topic names, once prefixed, Kafka would refuse (longer than 249
// characters) or would read as its own (starting with "__").
func checkTopicNames(cmds []scenario.Command, prefix string) error {
	for _, c := range cmds {
		if c.Name != scenario.CmdTopic {
			continue
		}
		name := prefix + c.Positional(0)
		switch {
		case len(name) > maxTopicName:
			return fmt.Errorf("line %d: topic %s would be %s on the cluster, %d characters: Kafka's topic names hold at most %d; shorten the name or the --prefix", c.Line, c.Positional(0), name, len(name), maxTopicName)
		case strings.HasPrefix(name, internalPrefix):
			return fmt.Errorf("line %d: topic %s would be %s on the cluster: %s", c.Line, c.Positional(0), name, internalTopics)
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
	// coordinatorSaw is what the group coordinator of each group id is
	// known to see of the topics: partitions by topic's name on the
	// cluster (coordinator_image.go).
	coordinatorSaw map[string]map[string]int
	groups         map[string]*groupRun
	groupNames     []string // in order of first join
	marks          marks
	// timedOut and refreshed are what the cluster must follow of the
	// playground's rules 4 timing (timing.go).
	timedOut  []pollTimedOut
	refreshed []string
	// migrationPolicy is the cluster's group.consumer.migration.policy,
	// once read (migration.go).
	migrationPolicy string
	shares          shareRuns // share groups (share.go)
	txns            txnRun    // the named producers (producer.go, txn.go)
	// barrierWrites counts the writes of configBarrier's config;
	// groupConfigsUnseen says the cluster does not describe group configs
	// (group_configs.go).
	barrierWrites      int
	groupConfigsUnseen bool
}

func newRunner(ctx context.Context, opts Options) (*runner, error) {
	clientOpts := append([]kgo.Opt{
		kgo.SeedBrokers(opts.Brokers...),
		kgo.DialTimeout(opts.DialTimeout),
		kgo.RetryTimeout(opts.WaitTimeout),
		kgo.RecordPartitioner(scriptPartitioner{}),
		// A produce command's records are flushed together (see
		// produce), as one batch per partition.
		kgo.ManualFlushing(),
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
		opts:           opts,
		start:          time.Now(),
		base:           base,
		admin:          kadm.NewClient(base),
		session:        scenario.NewSession(),
		partitions:     map[string]int{},
		coordinatorSaw: map[string]map[string]int{},
		groups:         map[string]*groupRun{},
		marks:          newMarks(),
		txns:           txnRun{producers: map[string]*producerRun{}, armed: map[string][]core.WireFault{}},
	}, nil
}

// run applies the commands to the playground and the cluster side by side,
// then reads the cluster back and compares.
func (r *runner) run(ctx context.Context, cmds []scenario.Command) (*Result, error) {
	r.shares.script = cmds
	for _, c := range cmds {
		if err := r.letRebalanceEnd(ctx, c); err != nil {
			return nil, err
		}
		events, err := r.session.ApplyCommand(c)
		if err != nil {
			// Load accepted the script, so this cannot happen; say so
			// rather than run on with the two sides apart.
			return nil, fmt.Errorf("line %d: %s: the playground refused it on replay: %v", c.Line, c, err)
		}
		if err := r.markAfter(c, events); err != nil {
			return nil, fmt.Errorf("line %d: %s: %v", c.Line, c, err)
		}
		r.timingEvents(events)
		r.shareEvents(events)
		if err := r.step(ctx, fmt.Sprintf("line %d: %s", c.Line, c), func(ctx context.Context) error {
			if err := r.followTiming(ctx); err != nil {
				return err
			}
			if err := r.apply(ctx, c); err != nil {
				return err
			}
			return r.expireStatic(ctx)
		}); err != nil {
			return nil, err
		}
		r.followProtocols()
	}
	// The rows compare settled groups: every rebalance the script left
	// running ends, in virtual time in the playground, on the cluster
	// when its members have rejoined.
	var polls []scenario.Command
	for _, name := range r.groupNames {
		p, err := r.settlePlayground(name, 0, "at the end of the script")
		if err != nil {
			return nil, err
		}
		polls = append(polls, p...)
	}
	if err := r.step(ctx, "at the end of the script", func(ctx context.Context) error {
		if err := r.followSettled(ctx, polls); err != nil {
			return err
		}
		for _, name := range r.groupNames {
			if g := r.groups[name]; len(g.members) > 0 {
				if err := r.settle(ctx, g); err != nil && !errors.Is(err, errHeldByGoneStatic) {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	var cluster scenario.State
	if err := r.step(ctx, "reading the cluster's state", func(ctx context.Context) (err error) {
		if cluster, err = r.readState(ctx); err != nil {
			return err
		}
		cluster.ShareGroups, err = r.readShareGroups(ctx)
		return err
	}); err != nil {
		return nil, err
	}
	prediction := scenario.Snapshot(r.session.Log())
	r.marks.rules = r.session.Rules()
	comparison := compare(prediction, cluster, &r.marks)
	comparison.Rows = append(comparison.Rows, r.compareShares(prediction, cluster)...)
	comparison.Rows = append(comparison.Rows, r.compareTransactions(prediction, cluster)...)
	return &Result{
		Prefix:     r.opts.Prefix,
		Cluster:    cluster,
		Prediction: prediction,
		Comparison: comparison,
	}, nil
}

// letRebalanceEnd lets a rebalance the playground's group is in end
// before a poll, a commit or a membership change of that group: the
// cluster's ends when its members have rejoined, in a moment of wall
// time, not when the script advances the clock, so both sides let it end
// (the playground's clock advances to its end, the cluster settles), and
// then the command runs on a settled group on each side. The comparison's
// notes say where the playground's clock was advanced.
//
// Before new partitions, the same holds for each group that reads the
// topic: the playground's rebalance in progress would take them in at
// once, the cluster's only if the partitions came before the rebalance
// ended, which depends on how long creating them takes on the wall clock.
// With the rebalance ended, both sides rebalance anew for them.
func (r *runner) letRebalanceEnd(ctx context.Context, c scenario.Command) error {
	var groups []string
	switch c.Name {
	case scenario.CmdPoll, scenario.CmdCommit, scenario.CmdJoin, scenario.CmdLeave, scenario.CmdCrash:
		groups = []string{c.Positional(0)}
	case scenario.CmdPartitions:
		groups = r.groupsReading(c.Positional(0))
	default:
		return nil
	}
	before := r.session.Log().Now()
	what := fmt.Sprintf("line %d: %s", c.Line, c)
	var polls []scenario.Command
	for _, group := range groups {
		p, err := r.settlePlayground(group, c.Line, what)
		if err != nil {
			return err
		}
		polls = append(polls, p...)
	}
	if r.session.Log().Now() == before && len(polls) == 0 {
		return nil
	}
	return r.step(ctx, what, func(ctx context.Context) error {
		if err := r.followSettled(ctx, polls); err != nil {
			return err
		}
		return r.settleStable(ctx)
	})
}

// followSettled runs on the cluster what settlePlayground did in the
// playground: the members that stopped polling leave, static members whose
// sessions ended go, and the polls it made run too. The static members go
// before the polls: the playground's rebalance ended only once their
// sessions had (its polls let the other members rejoin, its clock then
// advanced past those sessions), and the cluster's, which waits for them
// too, cannot end before expireStatic removes them, so a poll that waited
// for it first would wait in vain.
func (r *runner) followSettled(ctx context.Context, polls []scenario.Command) error {
	if err := r.followTiming(ctx); err != nil {
		return err
	}
	if err := r.expireStatic(ctx); err != nil {
		return err
	}
	for _, c := range polls {
		if err := r.apply(ctx, c); err != nil {
			return err
		}
		if err := r.followTiming(ctx); err != nil {
			return err
		}
	}
	return r.expireStatic(ctx)
}

// groupsReading lists the run's groups with a member subscribed to topic
// in the playground.
func (r *runner) groupsReading(topic string) []string {
	var out []string
	for _, name := range r.groupNames {
		v, err := r.session.Log().Group(name)
		if err != nil {
			continue
		}
		for _, m := range v.Members {
			if slices.Contains(m.Topics, topic) {
				out = append(out, name)
				break
			}
		}
	}
	return out
}

// settlePlayground advances the playground's clock until the group's
// rebalance has ended: past its rebalance.ms (rules 1 to 3) or an empty
// group's first wait (rules 4), and past the sessions of the stopped
// members it waits for (a cooperative rebalance's second round follows its
// first). From rules 4 a later rebalance waits for its members to rejoin,
// in their polls: it polls those that have not (timing.go) and returns
// those polls, for the cluster to run too. what names the point of the
// script, for the note.
func (r *runner) settlePlayground(group string, line int, what string) ([]scenario.Command, error) {
	start := r.session.Log().Now()
	if v, err := r.session.Log().Group(group); err == nil && v.Protocol == core.ProtocolConsumer {
		return r.settlePlaygroundConsumerGroup(v, line, what)
	}
	var polls []scenario.Command
	for range 8 {
		v, err := r.session.Log().Group(group)
		if err != nil || v.Rebalance == nil {
			break
		}
		rejoin, err := notRejoinedPolls(v, line)
		if err != nil {
			return nil, fmt.Errorf("%s: letting group %s's rebalance end: %v", what, group, err)
		}
		if len(rejoin) > 0 {
			for _, c := range rejoin {
				events, err := r.session.ApplyCommand(c)
				if err == nil {
					err = r.markAfter(c, events)
				}
				if err != nil {
					return nil, fmt.Errorf("%s: letting group %s's rebalance end: %v", what, group, err)
				}
				r.timingEvents(events)
				r.marks.note(fmt.Sprintf("%s: the playground's group %s was rebalancing, waiting for %s to rejoin in its poll: the run polled it (max=1) on both sides, as a running consumer would", what, group, c.Positional(1)))
			}
			polls = append(polls, rejoin...)
			continue
		}
		now := r.session.Log().Now()
		until := max(v.Rebalance.DoneAt, now+1)
		if v.Rebalance.Waits != "" && !v.Rebalance.Initial && len(v.Rebalance.WaitingFor) > 0 {
			until = now + 1 // rules 4: it ends when the stopped members' sessions do
		}
		for _, m := range v.Members {
			if slices.Contains(v.Rebalance.WaitingFor, m.ID) {
				until = max(until, m.SessionExpiresAt)
			}
		}
		c, ok, err := scenario.ParseLine("advance "+units.Duration(until-now), line)
		if err != nil || !ok {
			return nil, fmt.Errorf("%s: letting group %s's rebalance end: %v", what, group, err)
		}
		events, err := r.session.ApplyCommand(c)
		if err == nil {
			err = r.markAfter(c, events)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: letting group %s's rebalance end: %v", what, group, err)
		}
		r.timingEvents(events)
	}
	if advanced := r.session.Log().Now() - start; advanced > 0 {
		r.marks.note(fmt.Sprintf("%s: the playground's group %s was rebalancing; its clock advanced %s for the rebalance to end, as it ends on the cluster", what, group, units.Duration(advanced)))
	}
	return polls, nil
}

// settlePlaygroundConsumerGroup lets a playground's consumer group
// reconcile (settlePlaygroundConsumer). A group with classic members, in an
// online upgrade, reconciles them as they rejoin in polls of their own
// (classicRejoinPolls), between heartbeats of the others: it advances the
// clock one heartbeat interval at a time and polls the classic members
// that must rejoin. It returns those polls, for the cluster to run too.
func (r *runner) settlePlaygroundConsumerGroup(v core.GroupView, line int, what string) ([]scenario.Command, error) {
	start := r.session.Log().Now()
	defer func() {
		if advanced := r.session.Log().Now() - start; advanced > 0 {
			r.marks.note(fmt.Sprintf("%s: the playground's consumer group %s was reconciling; its clock advanced %s for its members' heartbeats to reconcile them, as they do on the cluster", what, v.Name, units.Duration(advanced)))
		}
	}()
	if !slices.ContainsFunc(v.Members, func(m core.MemberView) bool { return m.Protocol == core.ProtocolClassic }) {
		_, err := r.settlePlaygroundConsumer(v, line)
		if err != nil {
			return nil, fmt.Errorf("%s: letting group %s reconcile: %v", what, v.Name, err)
		}
		return nil, nil
	}
	var polls []scenario.Command
	step := max(v.Config.ConsumerHeartbeatIntervalMs, 1)
	for range int(v.Config.ConsumerSessionTimeoutMs/step) + 16 {
		if v.Protocol != core.ProtocolConsumer || v.State == core.GroupStable || v.State == core.GroupEmpty {
			break
		}
		rejoin, err := classicRejoinPolls(v, line)
		if err != nil {
			return nil, fmt.Errorf("%s: letting group %s reconcile: %v", what, v.Name, err)
		}
		if len(rejoin) == 0 {
			c, ok, err := scenario.ParseLine("advance "+strconv.FormatInt(step, 10)+"ms", line)
			if err != nil || !ok {
				return nil, fmt.Errorf("%s: letting group %s reconcile: %v", what, v.Name, err)
			}
			rejoin = []scenario.Command{c}
		}
		for _, c := range rejoin {
			events, err := r.session.ApplyCommand(c)
			if err == nil {
				err = r.markAfter(c, events)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: letting group %s reconcile: %v", what, v.Name, err)
			}
			r.timingEvents(events)
			if c.Name == scenario.CmdPoll {
				polls = append(polls, c)
				r.marks.note(fmt.Sprintf("%s: the playground's consumer group %s was waiting for its classic member %s to rejoin in its poll: the run polled it (max=1) on both sides, as a running consumer would", what, v.Name, c.Positional(1)))
			}
		}
		if v, err = r.session.Log().Group(v.Name); err != nil {
			break
		}
	}
	return polls, nil
}

// stepTimeout is the most one command may take on the cluster: a poll
// waits for its group to settle, then for its records, each up to
// WaitTimeout, with requests around them.
func (r *runner) stepTimeout() time.Duration { return 3 * r.opts.WaitTimeout }

// step runs one step of the run under its deadline. Its error says what
// the step was, and whether the cluster stopped answering or the run was
// stopped (ctx cancelled, by Ctrl-C in plogsim).
func (r *runner) step(ctx context.Context, what string, f func(context.Context) error) error {
	stepCtx, cancel := context.WithTimeout(ctx, r.stepTimeout())
	defer cancel()
	err := f(stepCtx)
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("%s: the run was stopped (%v)", what, context.Cause(ctx))
	case err != nil && stepCtx.Err() != nil:
		return fmt.Errorf("%s: the cluster did not answer within %s: is a broker down or frozen? (%v)", what, r.stepTimeout(), explain(err))
	case err != nil:
		return fmt.Errorf("%s: %v", what, explain(err))
	}
	return nil
}

// within runs f, a call that may not return while a broker is frozen
// whatever its context says (franz-go's ProduceSync waits for the answer to
// a batch it has sent; Close waits for the group to be left), and stops
// waiting for it when ctx is done. f then finishes in the background, at
// the latest when the run closes its clients.
func within(ctx context.Context, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// close stops every client and, unless keep, deletes the groups and topics
// the run created. It has its own deadlines, WaitTimeout to close the
// members and WaitTimeout to delete. What it cannot delete, its error
// names, with the commands that delete it.
func (r *runner) close(keep bool) error {
	closing, cancelClosing := context.WithTimeout(context.Background(), r.opts.WaitTimeout)
	defer cancelClosing()
	r.closeGroups(closing)
	r.closeShares(closing)
	r.closeProducers(closing)
	defer r.base.Close()
	ctx, cancel := context.WithTimeout(context.Background(), r.opts.WaitTimeout)
	defer cancel()
	var problems, leftTopics, leftGroups []string
	if r.barrierWrites > 0 {
		// The barrier is the run's own, kept or not (group_configs.go).
		if err := r.alterGroupConfigs(ctx, r.configBarrier(), kmsg.IncrementalAlterConfigOpDelete, map[string]string{barrierConfig: ""}); err != nil {
			problems = append(problems, fmt.Sprintf("group %s's %s: %v", r.configBarrier(), barrierConfig, explain(err)))
		}
	}
	if keep {
		return leftBehind(r.opts.Brokers, problems, nil, nil)
	}
	for _, name := range r.groupNames {
		g := r.groups[name]
		if err := r.deleteGroup(ctx, g); err != nil {
			problems = append(problems, fmt.Sprintf("group %s: %v", g.id, explain(err)))
			leftGroups = append(leftGroups, g.id)
		}
		if g.hasConfig {
			// A group's configs outlive the group (they are the
			// cluster's metadata, KIP-848's group configs).
			if err := r.alterGroupConfig(ctx, g, kmsg.IncrementalAlterConfigOpDelete); err != nil {
				problems = append(problems, fmt.Sprintf("group %s's consumer.heartbeat.interval.ms: %v", g.id, explain(err)))
			}
		}
	}
	shareProblems, leftShares := r.deleteShares(ctx)
	problems, leftGroups = append(problems, shareProblems...), append(leftGroups, leftShares...)
	if len(r.created) > 0 {
		names := r.prefixed(r.created)
		resp, err := r.admin.DeleteTopics(ctx, names...)
		for _, name := range names {
			t, ok := resp[name]
			switch {
			case err != nil: // the request failed: every topic is left
			case !ok || t.Err == nil || errors.Is(t.Err, kerr.UnknownTopicOrPartition):
				continue // deleted, or gone already
			default:
				problems = append(problems, fmt.Sprintf("topic %s: %v", name, explain(t.Err)))
			}
			leftTopics = append(leftTopics, name)
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("topics: %v", explain(err)))
		}
	}
	return leftBehind(r.opts.Brokers, problems, leftTopics, leftGroups)
}

// leftBehind is the cleanup's error: nil when it had no problems.
func leftBehind(brokers, problems, topics, groups []string) error {
	if len(problems) == 0 {
		return nil
	}
	return &LeftBehindError{Brokers: brokers, Topics: topics, Groups: groups, Problems: problems}
}

// closeGroups closes every member's client, all at once, leaving their
// groups, until ctx is done: a member whose broker is frozen would wait
// for its LeaveGroup forever.
func (r *runner) closeGroups(ctx context.Context) {
	var closing []*kgo.Client
	for _, name := range r.groupNames {
		closing = append(closing, r.groups[name].closeMembers()...)
	}
	var wg sync.WaitGroup
	for _, c := range closing {
		wg.Add(1)
		go func() {
			defer wg.Done()
			closeClient(ctx, c)
		}()
	}
	within(ctx, func() error { wg.Wait(); return nil })
}

// deleteGroup deletes one of the run's groups. The broker refuses to
// delete a group that still lists members: static members, which send no
// LeaveGroup, and members whose join had not finished when their client
// closed. Every member of the group is the run's, so it removes them as an
// admin does and tries again, until ctx is done.
func (r *runner) deleteGroup(ctx context.Context, g *groupRun) error {
	for {
		resp, err := r.admin.DeleteGroups(ctx, g.id)
		if err == nil {
			err = resp[g.id].Err
		}
		if err == nil || isGroupGone(err) {
			return nil // deleted, or never made: a group with no commit nor member
		}
		if !errors.Is(err, kerr.NonEmptyGroup) {
			return err
		}
		if err := r.evict(ctx, g); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// evict removes every member the broker lists in a group of the run, by
// member id and instance id (LeaveGroup v3+, as KIP-345's
// removeMembersFromConsumerGroup sends it). A member the broker no longer
// knows is not an error.
//
// A consumer group's members, its static ones that left among them (they
// stay until their sessions end, as a classic group's do), Kafka 4.4
// describes only to ConsumerGroupDescribe, and removes by the same
// LeaveGroup (GroupMetadataManager.classicGroupLeaveToConsumerGroup).
func (r *runner) evict(ctx context.Context, g *groupRun) error {
	described, err := r.admin.DescribeGroups(ctx, g.id)
	if err != nil {
		return err
	}
	req := kmsg.NewPtrLeaveGroupRequest()
	req.Group = g.id
	if d := described[g.id]; d.Err == nil {
		for _, dm := range d.Members {
			m := kmsg.NewLeaveGroupRequestMember()
			m.MemberID, m.InstanceID = dm.MemberID, dm.InstanceID
			req.Members = append(req.Members, m)
		}
	}
	cd := kmsg.NewPtrConsumerGroupDescribeRequest()
	cd.Groups = []string{g.id}
	if resp, err := cd.RequestWith(ctx, r.base); err == nil {
		for _, rg := range resp.Groups {
			if rg.ErrorCode != 0 {
				continue
			}
			for _, dm := range rg.Members {
				m := kmsg.NewLeaveGroupRequestMember()
				m.MemberID, m.InstanceID = dm.MemberID, dm.InstanceID
				req.Members = append(req.Members, m)
			}
		}
	}
	if len(req.Members) == 0 {
		return nil
	}
	resp, err := req.RequestWith(ctx, r.base)
	if err != nil {
		return err
	}
	errs := []error{kerr.ErrorForCode(resp.ErrorCode)}
	for _, m := range resp.Members {
		errs = append(errs, kerr.ErrorForCode(m.ErrorCode))
	}
	for _, err := range errs {
		if err != nil && !errors.Is(err, kerr.UnknownMemberID) && !isGroupGone(err) {
			return err
		}
	}
	return nil
}

// closeClient leaves the client's group within ctx, then closes it: with
// the leave given up, Close does not wait for it.
func closeClient(ctx context.Context, c *kgo.Client) {
	c.LeaveGroupContext(ctx)
	c.Close()
}

// LeftBehindError is a cleanup that could not delete all the run created.
// Its text names what is left and the Kafka commands that delete it.
type LeftBehindError struct {
	Brokers        []string
	Topics, Groups []string // the names on the cluster, prefixed
	Problems       []string // what went wrong, for each
}

func (e *LeftBehindError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "could not delete all the run created: %s", strings.Join(e.Problems, "; "))
	if len(e.Topics)+len(e.Groups) == 0 {
		return b.String()
	}
	server := strings.Join(e.Brokers, ",")
	b.WriteString("\nleft on the cluster, to delete by hand once it answers:")
	for _, t := range e.Topics {
		fmt.Fprintf(&b, "\n  kafka-topics.sh --bootstrap-server %s --delete --topic %s", server, t)
	}
	for _, g := range e.Groups {
		fmt.Fprintf(&b, "\n  kafka-consumer-groups.sh --bootstrap-server %s --delete --group %s", server, g)
	}
	if len(e.Groups) > 0 {
		b.WriteString("\n(a group whose members are still listed can be deleted once their session.timeout.ms has passed)")
	}
	return b.String()
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
	if r.isShareCommand(c) {
		return r.applyShare(ctx, c)
	}
	switch c.Name {
	case scenario.CmdSeed, scenario.CmdRules, scenario.CmdCompact, scenario.CmdProducer, scenario.CmdConsumer, scenario.CmdStop, scenario.CmdBroker:
		return nil // not run on a cluster: markAfter noted what they change
	case scenario.CmdAnswer:
		return nil // a learner's answer to a lesson, no Kafka operation
	case scenario.CmdBrokers:
		r.notePolicy(ctx, c)
		return nil
	case scenario.CmdDeleteGroup:
		return r.deleteGroupCommand(ctx, c)
	case scenario.CmdAdvance:
		if err := r.shareAdvance(ctx, c); err != nil {
			return err
		}
		return r.settleStable(ctx)
	case scenario.CmdTopic:
		return r.createTopic(ctx, c)
	case scenario.CmdProduce:
		if name, ok := c.Value("producer"); ok {
			return r.produceAs(ctx, c, name)
		}
		return r.produce(ctx, c)
	case scenario.CmdProducerConfig, scenario.CmdWire, scenario.CmdTxn:
		return r.applyProducerCommand(ctx, c)
	case scenario.CmdPartitions:
		return r.addPartitions(ctx, c)
	case scenario.CmdTruncate:
		return r.truncate(ctx, c)
	case scenario.CmdConfig:
		if c.Positional(0) == "group" {
			// Applied when members join (see groupConfig); the group is
			// the run's from now on, as the playground lists it.
			r.group(c.Positional(1))
			return nil
		}
		return r.alterTopicConfigs(ctx, c)
	case scenario.CmdJoin, scenario.CmdLeave, scenario.CmdCrash, scenario.CmdPoll, scenario.CmdCommit, scenario.CmdReset:
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
		if err := r.settle(ctx, g); err != nil && !errors.Is(err, errHeldByGoneStatic) {
			return err
		}
	}
	return nil
}

// groupConfig returns a group's configuration in the playground right now:
// for a group it does not have yet, the defaults of the scenario's rules.
func (r *runner) groupConfig(group string) core.GroupConfig {
	v, err := r.session.Log().Group(group)
	if err != nil {
		return core.DefaultGroupConfigUnder(r.session.Rules())
	}
	return v.Config
}
