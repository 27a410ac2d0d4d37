package kafkarun

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"plog/core"
	"plog/core/scenario"
)

// Transactions on the cluster, as Kafka 4.4 runs them with the transaction
// protocol v2 (KIP-890, transaction.version=2, the default of a cluster
// formatted by Kafka 4.x) and franz-go v1.22.3, which takes it: txn init is
// the client's InitProducerId (kgo.Client.ProducerID), begin its
// BeginTransaction, a produce with producer= adds its partitions to the
// transaction (produce v12, no AddPartitionsToTxn), send-offsets a
// TxnOffsetCommit of the group's members' positions with the group's
// member id and generation, commit and abort its EndTransaction (EndTxn
// v5, whose answer gives the producer its next epoch: the epoch moves on at
// every transaction's end, as the playground's does). A second producer
// with the same transactional.id fences the first: the coordinator aborts
// the first's open transaction (TransactionCoordinator.handleInitProducerId)
// and moves the epoch past it.

// txnRun is the run's named producers and what they did.
type txnRun struct {
	producers     map[string]*producerRun
	producerNames []string // in the order made
	// armed holds, per producer, the wire faults its next produce meets
	// on the cluster (producer_wire.go).
	armed map[string][]core.WireFault
	// why explains a producer's rows: a wire fault not made on the
	// cluster, a transaction the playground's coordinator aborted on its
	// timeout, an empty or offsets-only transaction.
	why map[string]Reason
	// polls are, per group and member, the polls the playground made and
	// what each gave, waiting for the cluster's; pollRows the rows of
	// polls both sides made.
	polls    map[string][]playgroundPoll
	pollRows []pollRow
}

// used says the script has named producers: the cluster's state then shows
// last stable offsets, markers and transactional records.
func (t *txnRun) used() bool { return len(t.producerNames) > 0 }

// The reasons of named producers' differences.
const (
	ReasonWireFault Reason = "a wire fault that hits a produce of several records, or one the producer gave up, is not made on a cluster: " +
		"franz-go sends a command's records to a partition in one batch, the playground each in a request of its own, so the playground's retries, " +
		"and what they duplicated, reordered or gave up, did not happen there (a fault on a produce of one record is made, by the producer's connections)"
	ReasonTxnTimeout Reason = "the playground's transaction coordinator aborted a transaction left open past transaction.timeout.ms of " +
		"virtual time (Kafka 4.4 TransactionCoordinator.abortTimedOutTransactions); the cluster's counts wall-clock time, which the run does not wait out"
	// ReasonEmptyTxn explains the epoch of a producer that ended a
	// transaction in which it sent nothing, under rules 4: rules 5 follow
	// Kafka.
	ReasonEmptyTxn Reason = "Kafka 4.4's producer sends no EndTxn for a transaction in which nothing was sent nor any offsets " +
		"(TransactionManager.nextRequest: \"Not sending EndTxn for completed transaction since no send or sendOffsetsToTransaction were triggered\"), " +
		"and franz-go none either, so its epoch stays; the playground's coordinator under rules 4 ends it and moves the epoch on (rules 5 follow Kafka)"
	// ReasonOffsetsOnlyTxn explains the epoch of a producer whose transaction
	// held a group's offsets and no record.
	ReasonOffsetsOnlyTxn Reason = "franz-go ends a transaction only when it wrote records in it: the run ended this one, which held only " +
		"a group's offsets, with EndTxn of its own and gave the producer a new client, whose InitProducerId moved the epoch on once more " +
		"(Kafka 4.4 TransactionCoordinator.handleInitProducerId)"
)

// txn runs txn PRODUCER init|begin|send-offsets|commit|abort.
func (r *runner) txn(ctx context.Context, c scenario.Command) error {
	name := c.Positional(0)
	p := r.txns.producers[name]
	if p == nil {
		return fmt.Errorf("producer %s was not made on the cluster", name)
	}
	switch c.Positional(1) {
	case "init":
		if err := p.loadID(ctx); err != nil {
			return err
		}
		return r.waitTxnSettled(ctx, p)
	case "begin":
		if err := p.client.BeginTransaction(); err != nil {
			return fmt.Errorf("producer %s: %w", name, err)
		}
		p.inTxn, p.wrote, p.sentOffsets = true, false, false
		return nil
	case "send-offsets":
		group, _ := c.Value("group")
		p.sentOffsets = true
		return r.sendOffsets(ctx, p, group)
	case "commit", "abort":
		how := kgo.TryCommit
		if c.Positional(1) == "abort" {
			how = kgo.TryAbort
		}
		if p.sentOffsets && !p.wrote {
			return r.endOffsetsOnly(ctx, c, p, bool(how))
		}
		if !p.sentOffsets && !p.wrote && !core.Follows(r.session.Rules(), core.EmptyTxnEndsInProducer) {
			r.txns.mark(name, ReasonEmptyTxn)
		}
		if err := within(ctx, func() error { return p.client.EndTransaction(ctx, how) }); err != nil {
			return fmt.Errorf("producer %s: %w", name, err)
		}
		p.inTxn = false
		// EndTxn v5 gave the producer its next epoch (KIP-890).
		if err := p.loadID(ctx); err != nil {
			return err
		}
		return r.waitTxnSettled(ctx, p)
	}
	return nil
}

// endOffsetsOnly ends a transaction that holds a group's offsets and no
// record: franz-go's EndTransaction sends nothing for it, so the run sends
// the EndTxn itself, then makes the producer a new client (the old one
// still holds the epoch the EndTxn moved past), which takes its producer
// id and epoch anew.
func (r *runner) endOffsetsOnly(ctx context.Context, c scenario.Command, p *producerRun, commit bool) error {
	req := kmsg.NewPtrEndTxnRequest()
	req.TransactionalID = r.opts.Prefix + p.config.TransactionalID
	req.ProducerID, req.ProducerEpoch, req.Commit = p.id, p.epoch, commit
	resp, err := req.RequestWith(ctx, p.client)
	if err == nil {
		err = kerr.ErrorForCode(resp.ErrorCode)
	}
	if err != nil {
		return fmt.Errorf("producer %s: EndTxn: %w", p.name, err)
	}
	p.client.Close()
	client, err := kgo.NewClient(r.producerOpts(p.config, p.faults)...)
	if err != nil {
		return fmt.Errorf("producer %s: %v", p.name, err)
	}
	p.client, p.inTxn = client, false
	r.txns.mark(p.name, ReasonOffsetsOnlyTxn)
	r.marks.note(fmt.Sprintf("line %d: %s: the transaction held only a group's offsets; the run ended it with its own EndTxn and a new client for producer %s", c.Line, c, p.name))
	if err := p.loadID(ctx); err != nil {
		return err
	}
	return r.waitTxnSettled(ctx, p)
}

// waitTxnSettled waits until the coordinator has written the markers of
// the producer's last transaction: EndTxn is answered once the coordinator
// has logged PrepareCommit or PrepareAbort, and the markers follow
// (Kafka 4.4 TransactionCoordinator.endTransaction, then
// TransactionMarkerChannelManager), as they do after an InitProducerId that
// aborted a fenced producer's transaction. The playground writes them at
// once.
func (r *runner) waitTxnSettled(ctx context.Context, p *producerRun) error {
	id := r.opts.Prefix + p.config.TransactionalID
	return r.waitFor(ctx, "transactional.id "+id+"'s markers to be written", func() (bool, error) {
		described, err := r.admin.DescribeTransactions(ctx, id)
		if err != nil {
			return false, err
		}
		d := described[id]
		if d.Err != nil {
			return false, d.Err
		}
		return d.State != "PrepareCommit" && d.State != "PrepareAbort" && d.State != "PrepareEpochFence", nil
	})
}

// loadID reads the producer id and epoch the client holds, asking the
// coordinator for them the first time (InitProducerId). A coordinator
// still loading or moving (the first transactional.id of a cluster
// creates __transaction_state) is asked again, until ctx is done.
func (p *producerRun) loadID(ctx context.Context) error {
	for {
		var id int64
		var epoch int16
		err := within(ctx, func() error {
			var err error
			id, epoch, err = p.client.ProducerID(ctx)
			return err
		})
		if err == nil {
			p.id, p.epoch, p.known = id, epoch, true
			return nil
		}
		if !kerr.IsRetriable(err) || ctx.Err() != nil {
			return fmt.Errorf("producer %s: InitProducerId: %w", p.name, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("producer %s: InitProducerId: %w", p.name, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// sendOffsets sends the group's members' positions to the producer's
// transaction, as KafkaProducer.sendOffsetsToTransaction does with the
// consumer's groupMetadata (TxnOffsetCommit v5 under the transaction
// protocol v2, which adds the group's offsets partition to the
// transaction itself, KIP-890).
func (r *runner) sendOffsets(ctx context.Context, p *producerRun, group string) error {
	g := r.groups[group]
	if g == nil {
		return fmt.Errorf("group %s has no member on the cluster", group)
	}
	req := kmsg.NewPtrTxnOffsetCommitRequest()
	req.TransactionalID = r.opts.Prefix + p.config.TransactionalID
	req.Group = g.id
	req.ProducerID, req.ProducerEpoch = p.id, p.epoch
	req.Generation = -1
	topics := map[string]int{}
	for _, name := range g.liveNames() {
		m := g.members[name]
		if req.MemberID == "" {
			req.MemberID, req.Generation = m.client.GroupMetadata()
		}
		m.mu.Lock()
		for _, t := range slices.SortedFunc(func(yield func(tp) bool) {
			for t := range m.positions {
				if m.assigned[t] && !yield(t) {
					return
				}
			}
		}, compareTP) {
			i, ok := topics[t.topic]
			if !ok {
				i = len(req.Topics)
				topics[t.topic] = i
				rt := kmsg.NewTxnOffsetCommitRequestTopic()
				rt.Topic = r.opts.Prefix + t.topic
				req.Topics = append(req.Topics, rt)
			}
			rp := kmsg.NewTxnOffsetCommitRequestTopicPartition()
			rp.Partition, rp.Offset, rp.LeaderEpoch = int32(t.partition), m.positions[t], -1
			req.Topics[i].Partitions = append(req.Topics[i].Partitions, rp)
		}
		m.mu.Unlock()
	}
	if len(req.Topics) == 0 {
		return fmt.Errorf("group %s: no member on the cluster has a position to send", group)
	}
	// TxnOffsetCommit v6 names topics by their ids (KIP-848's).
	var names []string
	for _, rt := range req.Topics {
		names = append(names, rt.Topic)
	}
	details, err := r.admin.ListTopics(ctx, names...)
	if err != nil {
		return fmt.Errorf("producer %s: TxnOffsetCommit: %w", p.name, err)
	}
	for i, rt := range req.Topics {
		req.Topics[i].TopicID = details[rt.Topic].ID
	}
	resp, err := req.RequestWith(ctx, p.client)
	if err != nil {
		return fmt.Errorf("producer %s: TxnOffsetCommit: %w", p.name, err)
	}
	for _, t := range resp.Topics {
		for _, pt := range t.Partitions {
			if err := kerr.ErrorForCode(pt.ErrorCode); err != nil {
				return fmt.Errorf("producer %s: TxnOffsetCommit %s/%d: %w", p.name, t.Topic, pt.Partition, err)
			}
		}
	}
	return nil
}

// markProducerEvents marks what the playground's named producers did that
// the cluster cannot do, or not alike: what a wire fault changed that the
// cluster's producer cannot make (producer_wire.go) and a transaction its
// coordinator aborted on a timeout (the partitions of its markers, and the
// producer); and keeps what polls gave, for their rows.
func (r *runner) markProducerEvents(c scenario.Command, events []core.Event) {
	switch c.Name {
	case scenario.CmdPoll:
		r.notePlaygroundPoll(c, events)
	case scenario.CmdProduce:
		r.markWireFaults(c, events)
	}
	for _, e := range events {
		t := tp{e.Topic, e.Partition}
		switch e.Kind {
		case core.EventTxnMarker:
			if c.Name != scenario.CmdTxn {
				r.marks.partition(t, ReasonTxnTimeout)
			}
		case core.EventTxnEnded:
			if c.Name != scenario.CmdTxn {
				r.txns.mark(e.Member, ReasonTxnTimeout)
				r.marks.note(fmt.Sprintf("line %d: %s: the playground's coordinator aborted producer %s's transaction on its timeout; not waited for on the cluster", c.Line, c, e.Member))
			}
		}
	}
}

// tpOffset is a record's place.
type tpOffset struct {
	tp
	offset int64
}

// pollRow is a poll's row, with the poll's group.
type pollRow struct {
	Row
	group string
}

// playgroundPoll is what one of the playground's polls gave.
type playgroundPoll struct {
	line int
	read []tpOffset
}

// notePlaygroundPoll keeps what a poll gave in the playground, for the
// cluster's same poll to be compared with: with named producers, what a
// read_committed or read_uncommitted consumer reads is a poll's records.
func (r *runner) notePlaygroundPoll(c scenario.Command, events []core.Event) {
	if !r.txns.used() {
		return
	}
	key := c.Positional(0) + " " + c.Positional(1)
	p := playgroundPoll{line: c.Line}
	for _, e := range events {
		if e.Kind == core.EventDelivered && e.Group == c.Positional(0) && e.Member == c.Positional(1) {
			p.read = append(p.read, tpOffset{tp{e.Topic, e.Partition}, e.Offset})
		}
	}
	if r.txns.polls == nil {
		r.txns.polls = map[string][]playgroundPoll{}
	}
	r.txns.polls[key] = append(r.txns.polls[key], p)
}

// clusterPolled sets what a poll gave on the cluster beside what the same
// poll gave in the playground, as a row.
func (t *txnRun) clusterPolled(group, member string, read []tpOffset) {
	key := group + " " + member
	queue := t.polls[key]
	if len(queue) == 0 {
		return
	}
	want := queue[0]
	t.polls[key] = queue[1:]
	t.pollRows = append(t.pollRows, pollRow{Row{What: fmt.Sprintf("line %d: poll %s read", want.line, key),
		Playground: readText(want.read), Cluster: readText(read)}, group})
}

// readText writes a poll's records as out/0:0,2 in/0:1.
func readText(read []tpOffset) string {
	var parts []string
	var last tp
	for i, r := range read {
		if i == 0 || r.tp != last {
			parts = append(parts, r.tp.String()+":"+strconv.FormatInt(r.offset, 10))
			last = r.tp
			continue
		}
		parts[len(parts)-1] += "," + strconv.FormatInt(r.offset, 10)
	}
	return orNone(strings.Join(parts, " "))
}

func (t *txnRun) mark(producer string, why Reason) {
	if t.why == nil {
		t.why = map[string]Reason{}
	}
	if _, ok := t.why[producer]; !ok {
		t.why[producer] = why
	}
}

// The control records' types (Kafka 4.4 ControlRecordType): the key is a
// version (int16) and a type (int16).
const (
	controlAbort  = 0
	controlCommit = 1
)

// readRecordTxn fills what the cluster's record says of transactions: a
// marker's type, a transactional record's producer id (classifyTxns then
// says whether it is open, committed or aborted).
func readRecordTxn(rec *kgo.Record, rs *scenario.RecordState) {
	switch {
	case rec.Attrs.IsControl():
		rs.Key, rs.Value = nil, nil
		rs.Control = "ABORT"
		if len(rec.Key) >= 4 && binary.BigEndian.Uint16(rec.Key[2:]) == controlCommit {
			rs.Control = "COMMIT"
		}
		id := rec.ProducerID
		rs.ProducerID = &id
	case rec.Attrs.IsTransactional():
		id := rec.ProducerID
		rs.ProducerID = &id
	}
}

// classifyTxns says of each transactional record of a partition, in offset
// order, whether its transaction is open, committed or aborted: a
// transaction is its producer's records up to its next marker (Kafka 4.4
// ProducerStateManager, the aborted transactions index). Markers keep no
// producer id in the state, as the playground's.
func classifyTxns(records []scenario.RecordState) {
	pending := map[int64][]int{}
	for i := range records {
		rs := &records[i]
		if rs.ProducerID == nil {
			continue
		}
		id := *rs.ProducerID
		if rs.Control == "" {
			pending[id] = append(pending[id], i)
			continue
		}
		state := "aborted"
		if rs.Control == "COMMIT" {
			state = "committed"
		}
		for _, j := range pending[id] {
			records[j].Transaction = state
		}
		delete(pending, id)
		rs.ProducerID = nil
	}
	for _, open := range pending {
		for _, j := range open {
			records[j].Transaction = "open"
		}
	}
}

// skipped reports whether a consumer with the isolation level is not given
// the record: a marker, or for read_committed a record of an aborted
// transaction (Kafka 4.4 FetchCollector, CompletedFetch).
func skipped(rs scenario.RecordState, isolation string) bool {
	return rs.Control != "" || isolation == core.ReadCommitted && rs.Transaction == "aborted"
}

// fetchLayout is what a consumer with an isolation level can be given of
// its partitions from its positions on: the offsets of the records it is
// given, and where its fetches end (the last stable offset for
// read_committed, else the high watermark).
type fetchLayout struct {
	given     map[tp][]int64
	end       map[tp]int64
	available int
}

// layoutFrom reads the partitions from the given positions, markers
// included, and lays out what a consumer with the isolation level is
// given. A poll then waits for those records only, and moves the member's
// positions past the markers and skipped records as the Java consumer
// does.
func (r *runner) layoutFrom(ctx context.Context, isolation string, from map[tp]int64) (*fetchLayout, error) {
	topics := map[string]bool{}
	for t := range from {
		topics[t.topic] = true
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for t := range topics {
			if !yield(t) {
				return
			}
		}
	})
	_, ends, err := r.offsets(ctx, names...)
	if err != nil {
		return nil, err
	}
	lsos, err := r.lastStableOffsets(ctx, names)
	if err != nil {
		return nil, err
	}
	l := &fetchLayout{given: map[tp][]int64{}, end: map[tp]int64{}}
	starts := map[tp]int64{}
	for t, pos := range from {
		starts[t] = pos
		l.end[t] = ends[t]
		if isolation == core.ReadCommitted {
			l.end[t] = lsos[t]
		}
	}
	// A transaction's records are told apart by its marker, at or past
	// the last stable offset: read to the high watermark.
	records, err := r.readRecords(ctx, starts, pick(ends, from))
	if err != nil {
		return nil, err
	}
	for t, pos := range from {
		rs := records[t]
		classifyTxns(rs)
		for _, rec := range rs {
			if rec.Offset >= pos && rec.Offset < l.end[t] && !skipped(rec, isolation) {
				l.given[t] = append(l.given[t], rec.Offset)
				l.available++
			}
		}
	}
	return l, nil
}

func pick(m map[tp]int64, keys map[tp]int64) map[tp]int64 {
	out := map[tp]int64{}
	for t := range keys {
		out[t] = m[t]
	}
	return out
}

// gives says the consumer is given the record at offset. A client keeps
// the isolation.level it was made with (ConsumerConfig is read once), while
// the playground's group takes a config group isolation.level=... at once:
// a member that joined before its group became read_committed fetches
// read_uncommitted, and the poll keeps only what a read_committed consumer
// is given. A nil layout (no named producers) gives everything.
func (l *fetchLayout) gives(t tp, offset int64) bool {
	if l == nil {
		return true
	}
	end, ok := l.end[t]
	if !ok {
		return true
	}
	return offset < end && slices.Contains(l.given[t], offset)
}

// pass moves positions past the markers and skipped records that follow
// them up to the fetch's end, as the Java consumer's position moves past
// a control batch or an aborted transaction's batches it fetched; when the
// poll stopped at its max records it read no further, and positions stay.
func (l *fetchLayout) pass(positions map[tp]int64, stoppedAtMax bool) {
	if l == nil || stoppedAtMax {
		return
	}
	for t, pos := range positions {
		end, ok := l.end[t]
		if !ok || pos >= end {
			continue
		}
		next := end
		for _, o := range l.given[t] {
			if o >= pos {
				next = o
				break
			}
		}
		positions[t] = next
	}
}

// lastStableOffsets lists the partitions' last stable offsets: ListOffsets
// with read_committed isolation (Kafka 4.4 UnifiedLog.lastStableOffset).
func (r *runner) lastStableOffsets(ctx context.Context, topics []string) (map[tp]int64, error) {
	listed, err := r.admin.ListCommittedOffsets(ctx, r.prefixed(topics)...)
	if err == nil {
		err = listed.Error()
	}
	if err != nil {
		return nil, fmt.Errorf("listing the last stable offsets: %w", err)
	}
	out := map[tp]int64{}
	for _, ps := range listed {
		for _, o := range ps {
			out[tp{r.unprefix(o.Topic), int(o.Partition)}] = o.Offset
		}
	}
	return out, nil
}

// readTransactions adds to the cluster's state what named producers make:
// each partition's last stable offset, the transactions of its records,
// the producers' ids, epochs and transaction states, and for
// read_committed groups the lag against the last stable offset.
func (r *runner) readTransactions(ctx context.Context, st *scenario.State) error {
	if !r.txns.used() {
		return nil
	}
	r.marks.note("producers' produce requests (retries included): counted by the playground only, not compared")
	var topics []string
	for _, t := range st.Topics {
		topics = append(topics, t.Name)
	}
	lsos := map[tp]int64{}
	if len(topics) > 0 {
		var err error
		if lsos, err = r.lastStableOffsets(ctx, topics); err != nil {
			return err
		}
	}
	for ti := range st.Topics {
		t := &st.Topics[ti]
		for pi := range t.Partitions {
			p := &t.Partitions[pi]
			lso := lsos[tp{t.Name, p.Partition}]
			p.LastStableOffset = &lso
			classifyTxns(p.Records)
		}
	}
	sequences, err := r.sequences(ctx, topics)
	if err != nil {
		return err
	}
	for _, name := range r.txns.producerNames {
		ps, err := r.producerState(ctx, r.txns.producers[name])
		if err != nil {
			return err
		}
		if ps.ProducerID >= 0 && ps.TransactionState != "fenced" {
			ps.Sequences = append(ps.Sequences, sequences[producerEpoch{ps.ProducerID, int16(ps.Epoch)}]...)
		}
		st.Producers = append(st.Producers, ps)
	}
	for gi := range st.Groups {
		g := &st.Groups[gi]
		g.IsolationLevel = r.groupConfig(g.Name).IsolationLevel
		if g.IsolationLevel != core.ReadCommitted {
			continue
		}
		for oi := range g.Offsets {
			o := &g.Offsets[oi]
			lso, ok := lsos[tp{o.Topic, o.Partition}]
			if !ok {
				continue
			}
			o.LastStableOffset = &lso
			if o.Committed != nil {
				lag := max(0, lso-*o.Committed)
				o.LagToLastStable = &lag
			}
		}
	}
	return nil
}

// producerEpoch is a producer id at an epoch.
type producerEpoch struct {
	id    int64
	epoch int16
}

// sequences reads, from the partitions' leaders, each producer's next
// sequence number on each partition: the last sequence the leader holds
// for its producer id at its epoch, plus one (DescribeProducers; Kafka 4.4
// ProducerStateManager). A marker's new epoch starts the sequences again,
// so a producer between transactions has none, as in the playground.
func (r *runner) sequences(ctx context.Context, topics []string) (map[producerEpoch][]scenario.SequenceState, error) {
	out := map[producerEpoch][]scenario.SequenceState{}
	if len(topics) == 0 {
		return out, nil
	}
	set := kadm.TopicsSet{}
	for _, t := range r.prefixed(topics) {
		set[t] = map[int32]struct{}{}
	}
	described, err := r.admin.DescribeProducers(ctx, set)
	if err != nil {
		return nil, fmt.Errorf("describing the partitions' producers: %w", err)
	}
	for _, d := range described.SortedProducers() {
		if d.LastSequence < 0 {
			continue
		}
		k := producerEpoch{d.ProducerID, d.ProducerEpoch}
		out[k] = append(out[k], scenario.SequenceState{Topic: r.unprefix(d.Topic), Partition: int(d.Partition), Next: d.LastSequence + 1})
	}
	return out, nil
}

// producerState reads one producer as the cluster has it: its id and
// epoch, and for a transactional one its state, fenced when the
// coordinator holds another producer id or a later epoch for its
// transactional.id (DescribeTransactions), as the playground says.
func (r *runner) producerState(ctx context.Context, p *producerRun) (scenario.ProducerState, error) {
	ps := scenario.ProducerState{Name: p.name, Configs: map[string]string{}, ProducerID: -1, Sequences: []scenario.SequenceState{},
		TransactionalID: p.config.TransactionalID}
	for _, e := range p.config.Entries() {
		ps.Configs[e.Name] = e.Value
	}
	if p.config.Idempotence && p.config.TransactionalID == "" && !p.known {
		// The Java producer asks for its id when it is made; franz-go
		// at its first send, or now.
		if err := p.loadID(ctx); err != nil {
			return ps, err
		}
	}
	if p.known && p.id >= 0 {
		ps.ProducerID, ps.Epoch = p.id, int(p.epoch)
	}
	if p.config.TransactionalID == "" {
		return ps, nil
	}
	switch {
	case !p.known:
		ps.TransactionState = "uninitialized"
	case p.inTxn:
		ps.TransactionState = "in-transaction"
	default:
		ps.TransactionState = "ready"
	}
	if p.known {
		id := r.opts.Prefix + p.config.TransactionalID
		described, err := r.admin.DescribeTransactions(ctx, id)
		if err != nil {
			return ps, fmt.Errorf("describing transactional.id %s: %w", id, err)
		}
		d, ok := described[id]
		if ok && d.Err == nil && (d.ProducerID != p.id || d.ProducerEpoch > p.epoch) {
			ps.TransactionState = "fenced"
		}
	}
	return ps, nil
}

// compareTransactions compares what named producers made: each
// partition's last stable offset, markers and transactional records, each
// producer's epoch and transaction state, which producers share a producer
// id (the broker's ids are its own, not the playground's count from 0),
// and the read_committed groups' lag against the last stable offset.
func (r *runner) compareTransactions(want, got scenario.State) []Row {
	if len(want.Producers) == 0 {
		return nil
	}
	c := &comparer{marks: &r.marks}
	for _, p := range r.txns.pollRows {
		c.row(p.What, p.Playground, p.Cluster, r.pollReason(p))
	}
	gotTopics := map[string]scenario.TopicState{}
	for _, t := range got.Topics {
		gotTopics[t.Name] = t
	}
	for _, wt := range want.Topics {
		gt, ok := gotTopics[wt.Name]
		if !ok || len(gt.Partitions) != len(wt.Partitions) {
			continue // the topic's rows differ already
		}
		for i, wp := range wt.Partitions {
			gp := gt.Partitions[i]
			t := tp{wt.Name, i}
			why := c.marks.partitionReason(t)
			c.row(t.String()+" last stable offset", dash(wp.LastStableOffset), dash(gp.LastStableOffset), why)
			wm, wx := txnText(wp.Records)
			gm, gx := txnText(gp.Records)
			c.row(t.String()+" markers", wm, gm, why)
			c.row(t.String()+" transactions", wx, gx, why)
		}
	}
	gotProducers := map[string]scenario.ProducerState{}
	for _, p := range got.Producers {
		gotProducers[p.Name] = p
	}
	for _, wp := range want.Producers {
		gp, ok := gotProducers[wp.Name]
		if !ok {
			c.row("producer "+wp.Name, "exists", "missing", "")
			continue
		}
		why := r.txns.why[wp.Name]
		c.row("producer "+wp.Name+" epoch", strconv.Itoa(wp.Epoch), strconv.Itoa(gp.Epoch), why)
		if wp.TransactionState != "fenced" && gp.TransactionState != "fenced" {
			c.row("producer "+wp.Name+" sequences", sequencesText(wp.Sequences), sequencesText(gp.Sequences), why)
		}
		if wp.TransactionalID != "" {
			c.row("producer "+wp.Name+" transaction state", wp.TransactionState, gp.TransactionState, why)
		}
	}
	var why Reason
	for _, p := range want.Producers {
		if w := r.txns.why[p.Name]; w != "" && why == "" {
			why = w
		}
	}
	c.row("producer ids", sharedIDs(want.Producers), sharedIDs(got.Producers), why)
	gotGroups := map[string]scenario.GroupState{}
	for _, g := range got.Groups {
		gotGroups[g.Name] = g
	}
	for _, wg := range want.Groups {
		if wg.IsolationLevel != core.ReadCommitted {
			continue
		}
		gotOffsets := map[tp]scenario.OffsetState{}
		for _, o := range gotGroups[wg.Name].Offsets {
			gotOffsets[tp{o.Topic, o.Partition}] = o
		}
		for _, o := range wg.Offsets {
			t := tp{o.Topic, o.Partition}
			c.row(wg.Name+" "+t.String()+" lag to last stable", dash(o.LagToLastStable), dash(gotOffsets[t].LagToLastStable), c.marks.offsetReason(wg.Name, t))
		}
	}
	return c.rows
}

// pollReason is why a poll's records may differ: the group's reason, or
// one of the partitions'.
func (r *runner) pollReason(p pollRow) Reason {
	if why, ok := r.marks.groups[p.group]; ok {
		return why
	}
	for _, field := range strings.Fields(p.Playground + " " + p.Cluster) {
		name, _, _ := strings.Cut(field, ":")
		topic, partition, ok := strings.Cut(name, "/")
		n, err := strconv.Atoi(partition)
		if !ok || err != nil {
			continue
		}
		if why := r.marks.offsetReason(p.group, tp{topic, n}); why != "" {
			return why
		}
	}
	return ""
}

// txnText writes a partition's markers (1:COMMIT 3:ABORT) and its
// transactional records (0:committed 2:aborted 4:open), "none" for none.
func txnText(records []scenario.RecordState) (markers, txns string) {
	var m, x []string
	for _, r := range records {
		switch {
		case r.Control != "":
			m = append(m, fmt.Sprintf("%d:%s", r.Offset, r.Control))
		case r.Transaction != "":
			x = append(x, fmt.Sprintf("%d:%s", r.Offset, r.Transaction))
		}
	}
	return orNone(strings.Join(m, " ")), orNone(strings.Join(x, " "))
}

// sequencesText writes a producer's next sequence numbers: orders/0:3.
func sequencesText(seqs []scenario.SequenceState) string {
	parts := make([]string, len(seqs))
	for i, q := range seqs {
		parts[i] = fmt.Sprintf("%s/%d:%d", q.Topic, q.Partition, q.Next)
	}
	slices.Sort(parts)
	return orNone(strings.Join(parts, " "))
}

// sharedIDs writes which producers hold the same producer id: each
// producer by name with the number of its id in the order the ids first
// appear (producers sorted by name), "none" for a producer with none.
func sharedIDs(producers []scenario.ProducerState) string {
	sorted := slices.Clone(producers)
	slices.SortFunc(sorted, func(a, b scenario.ProducerState) int { return strings.Compare(a.Name, b.Name) })
	seen := map[int64]int{}
	var parts []string
	for _, p := range sorted {
		if p.ProducerID < 0 {
			parts = append(parts, p.Name+"=none")
			continue
		}
		n, ok := seen[p.ProducerID]
		if !ok {
			n = len(seen) + 1
			seen[p.ProducerID] = n
		}
		parts = append(parts, fmt.Sprintf("%s=#%d", p.Name, n))
	}
	return strings.Join(parts, " ")
}
