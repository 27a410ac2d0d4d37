package scenario

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"

	"plog/core"
)

// A workload acts on its own as virtual time passes: a producer produces
// records at a rate with keys drawn from a distribution, a consumer polls
// (and maybe commits) at a rate. Two lines make a live system whose lag grows
// or shrinks. Workloads live in the session, not the engine: the session
// splits every advance at their due times. Everything they draw comes from
// a generator seeded by the scenario's seed and the workload's name, so a
// script gives the same records every time, natively and in WebAssembly.

// MaxWorkloadActions bounds how many records and polls the workloads may
// make in one advance, so that "advance 100y" with a fast consumer cannot
// hang the page; the advance is refused instead.
const MaxWorkloadActions = 1_000_000

// MaxWorkloads is the most workloads, producers and consumers together, that
// may run at once, as core.MaxProducers bounds named producers: each acts
// at every advance, and a zipf producer holds a table of its keyspace.
const MaxWorkloads = 100

// workload is a running producer or consumer. It is a value: cloning a world
// copies it, random generator state included.
type workload struct {
	producer bool
	name     string // producer: its name; consumer: "group member"
	rate     Rate
	command  string // the canonical line that started it, for the page
	start    int64  // virtual time the workload started
	fired    int64  // actions done so far; the k-th is due at start + ceil(k*Per/Count)

	// producer
	topic    string
	keys     string // none, sequence, uniform, zipf
	keyspace int
	// keyList holds the keys of keylist=, which the mode draws from by
	// index (sequence goes round it); nil for numbered keys, which are
	// keyPrefix + the number + keySuffix (key-N unless key= says).
	keyList              []string
	keyPrefix, keySuffix string
	keyPattern           string     // key=, as written; "" for key-N
	zipf                 *zipfTable // shared between clones: never changed once built
	value                string     // "" means "<name>-<n>"
	hasValue             bool
	acks                 string // "" is the engine's default, all
	// partitioner is the producer's partitioner.class (rules 2); "" is
	// the default, Kafka's built-in partitioner.
	partitioner string
	rng         rand.PCG

	// consumer
	group, member string
	max           int
	commit        bool
	share         bool // the group is a share group: the member share-polls
}

// mulDiv returns floor(a*b/c) (ceil when roundUp) for non-negative a, b and
// positive c, without overflow; it saturates at MaxInt64.
func mulDiv(a, b, c int64, roundUp bool) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if roundUp {
		var carry uint64
		lo, carry = bits.Add64(lo, uint64(c-1), 0)
		hi += carry
	}
	if hi >= uint64(c) {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, uint64(c))
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(q)
}

// dueAt is the virtual time of the k-th action (k from 1).
func (w *workload) dueAt(k int64) int64 {
	d := mulDiv(k, w.rate.Per, w.rate.Count, true)
	if d > math.MaxInt64-w.start {
		return math.MaxInt64
	}
	return w.start + d
}

// dueBy is how many actions in total are due by time t.
func (w *workload) dueBy(t int64) int64 {
	if t <= w.start {
		return 0
	}
	return mulDiv(t-w.start, w.rate.Count, w.rate.Per, false)
}

// label names the workload in events and errors.
func (w *workload) label() string {
	if w.producer {
		return "producer " + w.name
	}
	return "consumer " + w.group + "/" + w.member
}

// workloadRandom seeds a workload's generator from the scenario's seed and
// the workload's name, so that renaming one workload does not change another.
func workloadRandom(seed int64, name string) rand.PCG {
	h := fnv.New64a()
	h.Write([]byte(name))
	return *rand.NewPCG(uint64(seed), h.Sum64())
}

// next returns the record the producer makes for its n-th action (n from 0).
func (w *workload) next(n int64) core.ProduceRequest {
	req := core.ProduceRequest{Topic: w.topic, Partition: -1, Acks: w.acks, Partitioner: w.partitioner}
	r := rand.New(&w.rng)
	switch w.keys {
	case "sequence":
		if w.keyList != nil {
			req.Key, req.HasKey = w.keyList[n%int64(len(w.keyList))], true
		} else {
			req.Key, req.HasKey = w.keyPrefix+strconv.FormatInt(n, 10)+w.keySuffix, true
		}
	case "uniform":
		req.Key, req.HasKey = w.key(r.IntN(w.keyspace)), true
	case "zipf":
		req.Key, req.HasKey = w.key(w.zipf.rank(r.Float64())), true
	}
	req.Value = w.value
	if !w.hasValue {
		req.Value = w.name + "-" + strconv.FormatInt(n, 10)
	}
	return req
}

// defaultKeyPrefix makes a producer's keys key-N unless its key= or
// keylist= says.
const defaultKeyPrefix = "key-"

// key is the producer's i-th key of its keyspace.
func (w *workload) key(i int) string {
	if w.keyList != nil {
		return w.keyList[i]
	}
	return w.keyPrefix + strconv.Itoa(i) + w.keySuffix
}

// workloadKeyspace is how many keys a producer command's uniform or zipf
// draws from: its keylist's, or its keyspace=.
func workloadKeyspace(c Command) (int64, error) {
	if c.Has("keylist") {
		list, err := c.Names("keylist")
		return int64(len(list)), err
	}
	return c.Count("keyspace")
}

// newProducer builds a producer workload from a producer command; pause
// (when not nil) lets the page run while it builds a zipf table.
func newProducer(c Command, seed, now int64, pause func()) (workload, error) {
	rate, err := c.Rate("rate")
	if err != nil {
		return workload{}, err
	}
	w := workload{
		producer:  true,
		name:      c.Positional(0),
		topic:     c.Positional(1),
		rate:      rate,
		start:     now,
		keys:      "none",
		keyPrefix: defaultKeyPrefix,
		rng:       workloadRandom(seed, c.Positional(0)),
	}
	if v, ok := c.Value("keys"); ok {
		w.keys = v
	}
	if c.Has("keylist") {
		list, err := c.Names("keylist")
		if err != nil {
			return w, err
		}
		w.keyList = list
	}
	if pattern, ok := c.Value("key"); ok {
		w.keyPattern = pattern
		w.keyPrefix, w.keySuffix, _ = strings.Cut(pattern, KeyNumber)
	}
	if w.keys == "uniform" || w.keys == "zipf" {
		keyspace, err := workloadKeyspace(c)
		if err != nil {
			return w, err
		}
		w.keyspace = int(keyspace)
	}
	w.value, w.hasValue = c.Value("value")
	w.acks, _ = c.Value("acks")
	w.partitioner, _ = c.Value("partitioner")
	if w.keys == "zipf" {
		s, err := c.Decimal("exponent")
		if err != nil {
			return w, err
		}
		w.zipf = newZipfTable(w.keyspace, s, pause)
	}
	return w, nil
}

// newConsumer builds a consumer workload from a consumer command.
func newConsumer(c Command, now int64) (workload, error) {
	rate, err := c.Rate("rate")
	if err != nil {
		return workload{}, err
	}
	max, err := c.CountOr("max", defaultPollMax)
	if err != nil {
		return workload{}, err
	}
	w := workload{
		group:  c.Positional(0),
		member: c.Positional(1),
		rate:   rate,
		start:  now,
		max:    int(max),
		commit: c.HasFlag("commit"),
	}
	w.name = w.group + " " + w.member
	return w, nil
}

// advanceWithWorkloads moves the clock by ms, stopping at every time a
// workload is due to act it. A workload whose action fails stops, and an
// error event says why; the advance itself goes on.
func (w *world) advanceWithWorkloads(ms int64) error {
	if ms > core.MaxAdvanceMs {
		return fmt.Errorf("advance of %s is longer than the limit of %s", formatDuration(ms), formatDuration(core.MaxAdvanceMs))
	}
	target := w.log.Now() + ms
	var actions, records, polls int64
	for i := range w.loads {
		n := w.loads[i].dueBy(target) - w.loads[i].fired
		actions += n
		if w.loads[i].producer {
			records += n
		} else {
			polls += n
		}
		if actions > MaxWorkloadActions || actions < 0 {
			return fmt.Errorf("the workloads would act more than %d times in this advance; advance by less", MaxWorkloadActions)
		}
	}
	if w.produced+records > MaxRecords {
		return fmt.Errorf("the producers would take the scenario to %d records; a scenario may produce at most %d", w.produced+records, MaxRecords)
	}
	if records+polls*PollWork > MaxWork-w.work {
		return workLimitError{before: w.workBefore}
	}
	if w.lag != nil {
		w.lag.start(w.log.Now(), ms)
	}
	for {
		next, ok := w.nextDue()
		if !ok || next > target {
			break
		}
		if next > w.log.Now() {
			if err := w.log.Advance(next - w.log.Now()); err != nil {
				return err
			}
		}
		if err := w.runDue(next); err != nil {
			return err
		}
		if w.lag != nil {
			w.lag.stop(w.log, target)
		}
	}
	if target > w.log.Now() {
		return w.log.Advance(target - w.log.Now())
	}
	return nil
}

// nextDue returns when the next workload action is due.
func (w *world) nextDue() (int64, bool) {
	best, ok := int64(0), false
	for i := range w.loads {
		at := w.loads[i].dueAt(w.loads[i].fired + 1)
		if !ok || at < best {
			best, ok = at, true
		}
	}
	return best, ok
}

// runDue performs, in the order the workloads started, every action due by
// now, and drops the workloads that failed. It stops, with the error, when
// the actions take the scenario past MaxWork: the whole advance is refused.
func (w *world) runDue(now int64) error {
	kept := w.loads[:0]
	for _, l := range w.loads {
		failed := false
		for !failed && l.dueAt(l.fired+1) <= now {
			var err error
			if l.producer {
				if err := w.spend(1); err != nil {
					return err
				}
				req := l.next(l.fired)
				if err := w.reserveRecord(&req); err != nil {
					return err
				}
				_, err = w.log.Produce(req)
				if err == nil {
					w.produced++
				}
			} else if l.share {
				err = w.sharePoll(l.group, l.member, l.max)
			} else {
				err = w.poll(l.group, l.member, l.max, l.commit)
			}
			l.fired++
			var limit workLimitError
			if errors.As(err, &limit) {
				return err
			}
			if err != nil {
				w.errors = append(w.errors, core.Event{Kind: EventError, Time: now, Detail: l.label() + " stopped: " + err.Error()})
				failed = true
			}
		}
		if !failed {
			kept = append(kept, l)
		}
	}
	w.loads = kept
	return nil
}
