package lesson

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"plog/core"
)

// expect is the check language's general check: it compares a value the
// state has with a constant or with another such value, so that a teacher
// says a goal the catalogue of named checks has no word for:
//
//	expect hw(orders/0) at-least 3
//	expect state(billing) is stable
//	expect owner(billing,orders/1) is-not c1
//	expect lag(billing) at-most lag(audit)
//
// A value is a function of the state (valueFuncs) with its arguments in
// parentheses, a whole number or a word. The line is read once into typed
// terms (an unknown function, a wrong argument, a number compared with a
// word are errors at the file's line and column); a name the state does
// not have when the goal is checked says so ("there is no group billing
// yet"), never a silent false. An expect check combines with others on
// a line (and, or, not: combine.go), and its line's else: works as for
// every check.

// valueType is what a term is: a number or a word.
type valueType int

const (
	numberValue valueType = iota
	wordValue
)

func (t valueType) String() string { return [...]string{"a number", "a word"}[t] }

// argKind is what a function's argument names.
type argKind int

const (
	topicArg          argKind = iota // TOPIC
	partitionArg                     // TOPIC/PARTITION
	topicOrPartArg                   // TOPIC or TOPIC/PARTITION
	recordArg                        // TOPIC/PARTITION@OFFSET
	groupArg                         // a consumer group or a share group
	producerArg                      // a named producer
	optionalTopicPart                // TOPIC or TOPIC/PARTITION, or left out
	eventKindArg                     // one of core.EventKinds
	optionalNameArg                  // a group's, topic's, member's, producer's or broker's name, or left out
	nameArg                          // a word the function reads: a config's name, a key
	memberArg                        // a member of a group
)

// argument is one argument of a function, read once: its text, and for
// one that names a topic, a partition or a record, their parts; for a
// FIELD=VALUE of events or first-step, the field and its value.
type argument struct {
	text      string
	topic     string
	partition int // -1 for a whole topic
	offset    int64
	field     *eventField
	want      value // the field's
}

// FunctionDoc is one function expect reads, as the docs and the page's
// editor list it.
type FunctionDoc struct {
	Usage, Help string
	Number      bool // a number, else a word
}

// Functions lists the functions expect reads.
func Functions() []FunctionDoc {
	out := make([]FunctionDoc, len(valueFuncs))
	for i, f := range valueFuncs {
		out[i] = FunctionDoc{f.usage(), f.help, f.result == numberValue}
	}
	return out
}

// valueFunc is one function of the state.
type valueFunc struct {
	name   string
	args   []argKind
	result valueType
	help   string
	eval   func(x *ctx, a []argument) (value, error)
	// fields is set on the functions of the timeline's events, which take
	// FIELD=VALUE arguments after their others (eventFields): only the
	// events whose fields have those values count.
	fields bool
}

// value is what a term is worth when the goal is checked.
type value struct {
	n    int64
	word string
}

// term is one side of a comparison: a function applied to its arguments,
// or a constant.
type term struct {
	text string
	fn   *valueFunc
	args []argument
	typ  valueType
	c    value // the constant's
}

// comparison is an expect line, read.
type comparison struct {
	left, right term
	op          comparer
}

// comparer is one of expect's comparisons.
type comparer struct {
	word    string
	numbers bool // compares numbers only
	holds   func(a, b value) bool
}

var comparers = []comparer{
	{word: "is", holds: func(a, b value) bool { return a == b }},
	{word: "is-not", holds: func(a, b value) bool { return a != b }},
	{word: "at-least", numbers: true, holds: func(a, b value) bool { return a.n >= b.n }},
	{word: "at-most", numbers: true, holds: func(a, b value) bool { return a.n <= b.n }},
	{word: "above", numbers: true, holds: func(a, b value) bool { return a.n > b.n }},
	{word: "below", numbers: true, holds: func(a, b value) bool { return a.n < b.n }},
}

var expectChecks = []*checkSpec{
	{name: "expect", usage: "expect VALUE COMPARISON VALUE", min: 3, max: 3,
		help:     "a value of the state compares so with a whole number, a word or another value: COMPARISON is is, is-not, at-least, at-most, above or below; VALUE is a function of the state such as hw(orders/0) or state(billing) (the table below), a whole number or a word",
		validate: validateExpect, values: []string{"value", "other"}, run: checkExpect},
}

// termError is a wrong term, at a rune offset in its text.
type termError struct {
	at  int
	msg string
}

func (e *termError) Error() string { return e.msg }

// readTerm reads one side of a comparison. An error is a *termError,
// at the wrong argument where there is one.
func readTerm(text string) (term, error) {
	t := term{text: text}
	open := strings.IndexByte(text, '(')
	if open < 0 {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			t.typ, t.c = numberValue, value{n: n}
		} else {
			t.typ, t.c = wordValue, value{word: strings.ToLower(text)}
		}
		return t, nil
	}
	if !strings.HasSuffix(text, ")") {
		return t, &termError{0, fmt.Sprintf("%s: a function's arguments end with )", text)}
	}
	name := text[:open]
	i := slices.IndexFunc(valueFuncs, func(f *valueFunc) bool { return f.name == name })
	if i < 0 {
		return t, &termError{0, unknownWord("function", name, funcNames())}
	}
	t.fn, t.typ = valueFuncs[i], valueFuncs[i].result
	var raw []string
	var at []int // each raw argument's rune offset in text
	if inner := text[open+1 : len(text)-1]; inner != "" {
		raw = strings.Split(inner, ",")
		from := open + 1
		for _, r := range raw {
			at = append(at, utf8.RuneCountInString(text[:from]))
			from += len(r) + 1
		}
	}
	// The FIELD=VALUE arguments of events and first-step come after the
	// others.
	var fields []int
	if t.fn.fields {
		for j, r := range raw {
			if strings.Contains(r, "=") {
				fields = append(fields, j)
			} else if len(fields) > 0 {
				return t, &termError{at[j], fmt.Sprintf("%s: %q comes after a FIELD=VALUE; the fields go last (%s)", name, r, t.fn.usage())}
			}
		}
		if len(fields) > 0 {
			raw = raw[:fields[0]]
		}
	}
	most, least := len(t.fn.args), 0
	for _, k := range t.fn.args {
		if k != optionalTopicPart && k != optionalNameArg {
			least++
		}
	}
	if len(raw) < least || len(raw) > most {
		return t, &termError{0, fmt.Sprintf("%s takes %s (%s)", name, argCount(least, most), t.fn.usage())}
	}
	for j, s := range raw {
		a, err := readArgument(t.fn.args[j], s)
		if err != nil {
			return t, &termError{at[j], fmt.Sprintf("%s: %v (%s)", name, err, t.fn.usage())}
		}
		t.args = append(t.args, a)
	}
	for _, j := range fields {
		a, err := readField(strings.Split(text[open+1:len(text)-1], ",")[j])
		if err != nil {
			return t, &termError{at[j], fmt.Sprintf("%s: %v", name, err)}
		}
		t.args = append(t.args, a)
	}
	return t, nil
}

func argCount(least, most int) string {
	switch {
	case least == most && most == 1:
		return "1 argument"
	case least == most:
		return fmt.Sprintf("%d arguments", most)
	}
	return fmt.Sprintf("%d to %d arguments", least, most)
}

// readArgument reads an argument of a kind.
func readArgument(k argKind, s string) (argument, error) {
	a := argument{text: s, partition: -1}
	if s == "" {
		return a, errors.New("an argument is empty")
	}
	switch k {
	case eventKindArg:
		if !slices.Contains(core.EventKinds(), core.EventKind(s)) {
			var kinds []string
			for _, k := range core.EventKinds() {
				kinds = append(kinds, string(k))
			}
			return a, errors.New(unknownWord("event", s, kinds))
		}
		return a, nil
	case optionalNameArg, nameArg:
		return a, nil
	case groupArg, producerArg, topicArg, memberArg:
		if strings.ContainsAny(s, "/@") {
			return a, fmt.Errorf("%q is not a name", s)
		}
		if k == topicArg {
			a.topic = s
		}
		return a, nil
	}
	rest, offset, hasOffset := strings.Cut(s, "@")
	if hasOffset != (k == recordArg) {
		if k == recordArg {
			return a, fmt.Errorf("%q names no record: write TOPIC/PARTITION@OFFSET", s)
		}
		return a, fmt.Errorf("%q names a record, not a partition", s)
	}
	topic, p, ok := splitPartition(rest)
	switch {
	case ok:
		a.topic, a.partition = topic, p
	case k == topicOrPartArg || k == optionalTopicPart:
		a.topic = rest
	default:
		return a, fmt.Errorf("%q is not a partition: write TOPIC/PARTITION", s)
	}
	if hasOffset {
		n, err := strconv.ParseInt(offset, 10, 64)
		if err != nil || n < 0 {
			return a, fmt.Errorf("%q: the offset is not a whole number", s)
		}
		a.offset = n
	}
	return a, nil
}

// usage is a function as the docs write it.
func (f *valueFunc) usage() string {
	var b strings.Builder
	b.WriteString(f.name + "(")
	for i, k := range f.args {
		word := [...]string{"TOPIC", "TOPIC/PARTITION", "TOPIC[/PARTITION]", "TOPIC/PARTITION@OFFSET", "GROUP", "PRODUCER", "TOPIC[/PARTITION]", "EVENT", "NAME", "NAME", "MEMBER"}[k]
		switch {
		case k == optionalTopicPart || k == optionalNameArg:
			b.WriteString("[," + word + "]")
		case i > 0:
			b.WriteString("," + word)
		default:
			b.WriteString(word)
		}
	}
	if f.fields {
		b.WriteString("[,FIELD=VALUE...]")
	}
	return b.String() + ")"
}

func funcNames() []string {
	var names []string
	for _, f := range valueFuncs {
		names = append(names, f.name)
	}
	return names
}

// validateExpect reads an expect line into its typed comparison, once.
func validateExpect(c *check) (string, int) {
	left, err := readTerm(c.args[0])
	if err != nil {
		c.errAt = err.(*termError).at
		return err.Error(), 0
	}
	i := slices.IndexFunc(comparers, func(o comparer) bool { return o.word == c.args[1] })
	if i < 0 {
		var words []string
		for _, o := range comparers {
			words = append(words, o.word)
		}
		return unknownWord("comparison", c.args[1], words), 1
	}
	right, err := readTerm(c.args[2])
	if err != nil {
		c.errAt = err.(*termError).at
		return err.Error(), 2
	}
	op := comparers[i]
	// A number compared with a word is the word it is written as:
	// config(orders,min.insync.replicas) is 2.
	for _, pair := range [][2]*term{{&left, &right}, {&right, &left}} {
		if t, other := pair[0], pair[1]; t.fn == nil && t.typ == numberValue && other.fn != nil && other.typ == wordValue && !op.numbers {
			t.typ, t.c = wordValue, value{word: strings.ToLower(t.text)}
		}
	}
	switch {
	case left.fn == nil && right.fn == nil:
		return fmt.Sprintf("%s and %s are both constants: compare a value of the state, such as hw(orders/0)", left.text, right.text), 0
	case op.numbers && left.typ != numberValue:
		return fmt.Sprintf("%s is %s; %s compares numbers (is and is-not compare words)", left.text, left.typ, op.word), 0
	case op.numbers && right.typ != numberValue:
		return fmt.Sprintf("%s is %s; %s compares numbers (is and is-not compare words)", right.text, right.typ, op.word), 2
	case left.typ != right.typ:
		return fmt.Sprintf("%s is %s and %s is %s: they cannot be the same", left.text, left.typ, right.text, right.typ), 2
	}
	c.parsed = &comparison{left: left, right: right, op: op}
	return "", -1
}

// evaluate is what a term is worth on the state.
func (t term) evaluate(x *ctx) (value, error) {
	if t.fn == nil {
		return t.c, nil
	}
	return t.fn.eval(x, t.args)
}

func (v value) String(t valueType) string {
	if t == numberValue {
		return strconv.FormatInt(v.n, 10)
	}
	return v.word
}

func checkExpect(x *ctx, c *check) Result {
	if c.owner != nil {
		// The line quotes a labelled line above ({r.group}): its
		// arguments are filled in now, and read again.
		if msg, _ := validateExpect(c); msg != "" {
			return pending("%s", msg)
		}
	}
	cmp := c.parsed.(*comparison)
	a, err := cmp.left.evaluate(x)
	if err != nil {
		return pending("%v", err)
	}
	b, err := cmp.right.evaluate(x)
	if err != nil {
		return pending("%v", err)
	}
	left, right := a.String(cmp.left.typ), b.String(cmp.right.typ)
	x.keep(c, "value", left)
	x.keep(c, "other", right)
	said := cmp.left.text + " is " + left
	if cmp.right.fn != nil {
		said += " and " + cmp.right.text + " is " + right
	}
	if cmp.op.holds(a, b) {
		return solved("%s: %s %s %s", said, cmp.left.text, cmp.op.word, cmp.right.text)
	}
	return pending("%s; it must be %s %s", said, cmp.op.word, cmp.right.text)
}

// The functions of the state expect reads. Each says, when a name it is
// given is not there yet, which one.
var valueFuncs = slices.Concat(stateFuncs, topicFuncs, readFuncs, groupFuncs, replicaFuncs) // expect_funcs.go

// stateFuncs read a partition's log, a group, a share group, a producer,
// the timeline and the replicas.
var stateFuncs = []*valueFunc{
	{name: "records", args: []argKind{topicOrPartArg}, result: numberValue, help: "the records a topic or a partition holds",
		eval: func(x *ctx, a []argument) (value, error) {
			n, err := namedPartitions(x, a[0])
			if err != nil {
				return value{}, err
			}
			total := 0
			for _, p := range n {
				c, _ := x.log.RecordCount(a[0].topic, p)
				total += c
			}
			return value{n: int64(total)}, nil
		}},
	{name: "partitions", args: []argKind{topicArg}, result: numberValue, help: "a topic's partition count",
		eval: func(x *ctx, a []argument) (value, error) {
			n := x.partitions(a[0].topic)
			if n == 0 {
				return value{}, fmt.Errorf("there is no topic %s yet", a[0].topic)
			}
			return value{n: int64(n)}, nil
		}},
	offsetFunc("hw", "the partition's high watermark", core.ReadOnlyLog.HighWatermark),
	offsetFunc("leo", "the partition's log end offset", core.ReadOnlyLog.LogEndOffset),
	offsetFunc("log-start", "the partition's log start offset", core.ReadOnlyLog.LogStartOffset),
	offsetFunc("lso", "the partition's last stable offset (read_committed reads below it)", core.ReadOnlyLog.LastStableOffset),
	{name: "committed", args: []argKind{groupArg, partitionArg}, result: numberValue, help: "the offset a consumer group committed on a partition",
		eval: func(x *ctx, a []argument) (value, error) {
			p, err := consumerPartition(x, a)
			if err == nil && !p.HasCommitted {
				err = fmt.Errorf("group %s has committed no offset of %s yet", a[0].text, a[1].text)
			}
			return value{n: p.Committed}, err
		}},
	{name: "lag", args: []argKind{groupArg, optionalTopicPart}, result: numberValue, help: "a group's lag in records, over its partitions (of a topic, or of one partition): a consumer group's from its committed offsets, a share group's share lag",
		eval: func(x *ctx, a []argument) (value, error) {
			within := func(topic string, p int) bool {
				return len(a) < 2 || topic == a[1].topic && (a[1].partition < 0 || p == a[1].partition)
			}
			if sv, err := x.log.ShareGroup(a[0].text); err == nil {
				var lag int64
				for _, p := range sv.Partitions {
					if within(p.Topic, p.Partition) {
						lag += p.Lag
					}
				}
				return value{n: lag}, nil
			}
			v, err := consumerGroup(x, a[0].text)
			if err != nil {
				return value{}, err
			}
			var lag int64
			for _, p := range v.Partitions {
				if p.HasCommitted && within(p.Topic, p.Partition) {
					lag += p.Lag
				}
			}
			return value{n: lag}, nil
		}},
	{name: "time-lag", args: []argKind{groupArg}, result: numberValue, help: "how many seconds a consumer group's oldest unread record has waited",
		eval: func(x *ctx, a []argument) (value, error) {
			v, err := consumerGroup(x, a[0].text)
			if err != nil {
				return value{}, err
			}
			return value{n: v.MaxTimeLagMs / 1000}, nil
		}},
	{name: "members", args: []argKind{groupArg}, result: numberValue, help: "a group's running members",
		eval: func(x *ctx, a []argument) (value, error) {
			if sv, err := x.log.ShareGroup(a[0].text); err == nil {
				n := 0
				for _, m := range sv.Members {
					if m.CrashedAt < 0 {
						n++
					}
				}
				return value{n: int64(n)}, nil
			}
			v, err := consumerGroup(x, a[0].text)
			if err != nil {
				return value{}, err
			}
			return value{n: int64(liveMembers(v))}, nil
		}},
	{name: "epoch", args: []argKind{groupArg}, result: numberValue, help: "a group's epoch: a consumer-protocol or share group's group epoch, a classic group's generation",
		eval: func(x *ctx, a []argument) (value, error) {
			if sv, err := x.log.ShareGroup(a[0].text); err == nil {
				return value{n: int64(sv.GroupEpoch)}, nil
			}
			v, err := consumerGroup(x, a[0].text)
			if err != nil {
				return value{}, err
			}
			if v.Protocol == "consumer" {
				return value{n: int64(v.GroupEpoch)}, nil
			}
			return value{n: int64(v.Generation)}, nil
		}},
	{name: "state", args: []argKind{groupArg}, result: wordValue, help: "a group's state, as the page shows it (stable, rebalancing, empty, dead; a share group's stable or empty)",
		eval: func(x *ctx, a []argument) (value, error) {
			if sv, err := x.log.ShareGroup(a[0].text); err == nil {
				return value{word: strings.ToLower(sv.State)}, nil
			}
			v, err := consumerGroup(x, a[0].text)
			if err != nil {
				return value{}, err
			}
			return value{word: strings.ToLower(v.State)}, nil
		}},
	{name: "owner", args: []argKind{groupArg, partitionArg}, result: wordValue, help: "the member of a consumer group that owns a partition, none for none",
		eval: func(x *ctx, a []argument) (value, error) {
			p, err := consumerPartition(x, a)
			if p.Owner == "" {
				return value{word: "none"}, err
			}
			return value{word: strings.ToLower(p.Owner)}, err
		}},
	{name: "record-state", args: []argKind{groupArg, recordArg}, result: wordValue, help: "a record's state in a share group: available, acquired, acknowledged or archived (done, below the share-partition's start)",
		eval: func(x *ctx, a []argument) (value, error) {
			r, done, err := shareRecordOf(x, a)
			switch {
			case err != nil:
				return value{}, err
			case done:
				return value{word: "done"}, nil
			}
			return value{word: strings.ToLower(r.State)}, nil
		}},
	{name: "delivery-count", args: []argKind{groupArg, recordArg}, result: numberValue, help: "how many times a share group delivered a record still in flight",
		eval: func(x *ctx, a []argument) (value, error) {
			r, done, err := shareRecordOf(x, a)
			switch {
			case err != nil:
				return value{}, err
			case done:
				return value{}, fmt.Errorf("%s is below share group %s's start offset: done with, its deliveries forgotten", a[1].text, a[0].text)
			}
			return value{n: int64(r.DeliveryCount)}, nil
		}},
	{name: "key", args: []argKind{recordArg}, result: wordValue, help: "a record's key (none for none)",
		eval: func(x *ctx, a []argument) (value, error) {
			r, err := recordOf(x, a[0])
			if err != nil {
				return value{}, err
			}
			if !r.HasKey {
				return value{word: "none"}, nil
			}
			return value{word: strings.ToLower(r.Key)}, nil
		}},
	{name: "value", args: []argKind{recordArg}, result: wordValue, help: "a record's value",
		eval: func(x *ctx, a []argument) (value, error) {
			r, err := recordOf(x, a[0])
			if err != nil {
				return value{}, err
			}
			return value{word: strings.ToLower(r.Value)}, nil
		}},
	{name: "producer-epoch", args: []argKind{producerArg}, result: numberValue, help: "a named producer's epoch",
		eval: func(x *ctx, a []argument) (value, error) {
			p, err := producerOf(x, a[0].text)
			return value{n: int64(p.Epoch)}, err
		}},
	{name: "txn-state", args: []argKind{producerArg}, result: wordValue, help: "a transactional producer's state (ready, in-transaction, fenced, ...)",
		eval: func(x *ctx, a []argument) (value, error) {
			p, err := producerOf(x, a[0].text)
			return value{word: strings.ToLower(p.TransactionState)}, err
		}},
	{name: "events", args: []argKind{eventKindArg, optionalNameArg}, fields: true, result: numberValue, help: "how many events of a kind (the timeline's, such as rebalance-done or member-left) happened since the lesson's start, of a group, topic, member, producer or broker NAME if given, and with each FIELD=VALUE given (the table below), as a replay of the script shows",
		eval: func(x *ctx, a []argument) (value, error) {
			n := 0
			for _, e := range x.timeline() {
				if eventIs(e.Event, a) {
					n++
				}
			}
			return value{n: int64(n)}, nil
		}},
	{name: "first-step", args: []argKind{eventKindArg, optionalNameArg}, fields: true, result: numberValue, help: "the step of the script at which the first such event since the lesson's start happened: compare two to say an order",
		eval: func(x *ctx, a []argument) (value, error) {
			for _, e := range x.timeline() {
				if eventIs(e.Event, a) {
					return value{n: int64(e.step)}, nil
				}
			}
			what := a[0].text
			var with []string
			for _, arg := range a[1:] {
				if arg.field != nil {
					with = append(with, arg.text)
				} else {
					what += " of " + arg.text
				}
			}
			if len(with) > 0 {
				what += " with " + strings.Join(with, ", ")
			}
			return value{}, fmt.Errorf("no %s event since the lesson's start yet", what)
		}},
	{name: "leader", args: []argKind{partitionArg}, result: numberValue, help: "the broker that leads a partition, -1 while it is offline",
		eval: func(x *ctx, a []argument) (value, error) {
			r, err := replicationOf(x, a[0])
			return value{n: int64(r.Leader)}, err
		}},
	{name: "isr", args: []argKind{partitionArg}, result: numberValue, help: "how many replicas of a partition are in sync",
		eval: func(x *ctx, a []argument) (value, error) {
			r, err := replicationOf(x, a[0])
			return value{n: int64(len(r.ISR))}, err
		}},
}

// offsetFunc is a function of a partition's offsets.
func offsetFunc(name, help string, read func(core.ReadOnlyLog, string, int) (int64, error)) *valueFunc {
	return &valueFunc{name: name, args: []argKind{partitionArg}, result: numberValue, help: help,
		eval: func(x *ctx, a []argument) (value, error) {
			if _, err := namedPartitions(x, a[0]); err != nil {
				return value{}, err
			}
			n, err := read(x.log, a[0].topic, a[0].partition)
			return value{n: n}, err
		}}
}

// namedPartitions are the partitions an argument names: one, or a topic's
// all; an error names what is not there.
func namedPartitions(x *ctx, a argument) ([]int, error) {
	n := x.partitions(a.topic)
	switch {
	case n == 0:
		return nil, fmt.Errorf("there is no topic %s yet", a.topic)
	case a.partition >= n:
		return nil, fmt.Errorf("topic %s has no partition %d: it has %d", a.topic, a.partition, n)
	case a.partition >= 0:
		return []int{a.partition}, nil
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all, nil
}

// consumerGroup is a consumer group's view; an error says why there is
// none.
func consumerGroup(x *ctx, name string) (core.GroupView, error) {
	v, ok := x.group(name)
	if !ok {
		return v, errors.New(noGroup(x, name).Progress)
	}
	return v, nil
}

// consumerPartition is a consumer group's view (a[0]) of a partition
// (a[1]); the zero view for a partition the group has not.
func consumerPartition(x *ctx, a []argument) (core.PartitionView, error) {
	v, err := consumerGroup(x, a[0].text)
	if err != nil {
		return core.PartitionView{}, err
	}
	for _, p := range v.Partitions {
		if p.Topic == a[1].topic && p.Partition == a[1].partition {
			return p, nil
		}
	}
	return core.PartitionView{}, nil
}

// recordOf is the record an argument names.
func recordOf(x *ctx, a argument) (core.Record, error) {
	if _, err := namedPartitions(x, a); err != nil {
		return core.Record{}, err
	}
	r, ok := x.log.FirstRecordAtOrAfter(a.topic, a.partition, a.offset)
	if !ok || r.Offset != a.offset {
		return core.Record{}, fmt.Errorf("%s holds no record at offset %d", fmt.Sprintf("%s/%d", a.topic, a.partition), a.offset)
	}
	return r, nil
}

// shareRecordOf is a record a share group has in flight, or done when it
// is below the share-partition's start offset.
func shareRecordOf(x *ctx, a []argument) (core.InFlightView, bool, error) {
	v, err := x.log.ShareGroup(a[0].text)
	if err != nil {
		return core.InFlightView{}, false, fmt.Errorf("there is no share group %s yet", a[0].text)
	}
	for _, p := range v.Partitions {
		if p.Topic != a[1].topic || p.Partition != a[1].partition {
			continue
		}
		if a[1].offset < p.StartOffset {
			return core.InFlightView{}, true, nil
		}
		for _, r := range p.InFlight {
			if r.Offset == a[1].offset {
				return r, false, nil
			}
		}
	}
	return core.InFlightView{}, false, fmt.Errorf("share group %s has not delivered %s yet", a[0].text, a[1].text)
}

// producerOf is a named producer's view.
func producerOf(x *ctx, name string) (core.ProducerView, error) {
	for _, p := range x.log.Producers() {
		if p.Name == name {
			return p, nil
		}
	}
	return core.ProducerView{}, fmt.Errorf("there is no producer %s yet", name)
}

// replicationOf is a partition's replication.
func replicationOf(x *ctx, a argument) (core.PartitionReplication, error) {
	if _, err := namedPartitions(x, a); err != nil {
		return core.PartitionReplication{}, err
	}
	return x.log.Replication(a.topic, a.partition)
}

// stepEvent is an event of the script's replay and the step it came at.
type stepEvent struct {
	core.Event
	step int
}

// timeline is every event since the lesson's start, from one replay of
// the script, kept for the goal's other lines.
func (x *ctx) timeline() []stepEvent {
	if x.timelineEvents == nil {
		x.timelineEvents = []stepEvent{}
		x.replay(func(step int, _ core.ReadOnlyLog, events []core.Event) {
			if step <= x.startLen {
				return
			}
			for _, e := range events {
				x.timelineEvents = append(x.timelineEvents, stepEvent{e, step})
			}
		})
	}
	return x.timelineEvents
}

// eventIs reports whether an event is of the kind, of the name when one
// is given (its group's, topic's, member's or producer's (Member), or its
// broker's), and has each field's value given.
func eventIs(e core.Event, a []argument) bool {
	if string(e.Kind) != a[0].text {
		return false
	}
	for _, arg := range a[1:] {
		if arg.field != nil {
			if arg.field.of(e) != arg.want {
				return false
			}
			continue
		}
		name := arg.text
		if e.Group != name && e.Topic != name && e.Member != name && (e.Broker == 0 || strconv.Itoa(e.Broker) != name) {
			return false
		}
	}
	return true
}

// eventField is a field of the timeline's events that events and
// first-step match: FIELD=VALUE, a number or a word as the field is.
// A field that does not apply to an event's kind is 0, or empty.
type eventField struct {
	name string
	typ  valueType
	help string
	of   func(e core.Event) value
	// words are the values a word field may have; nil for any.
	words []string
}

// EventFieldDoc is one field events and first-step match, as the docs
// list it.
type EventFieldDoc struct {
	Name, Help string
	Number     bool
	Words      []string
}

// EventFields lists the fields events and first-step match.
func EventFields() []EventFieldDoc {
	var out []EventFieldDoc
	for _, f := range eventFields {
		out = append(out, EventFieldDoc{f.name, f.help, f.typ == numberValue, f.words})
	}
	return out
}

// causes are the words of the causes an event records (core.Cause).
var causes = []struct {
	word  string
	cause core.Cause
}{
	{"none", core.CauseNone},
	{"session-timeout", core.CauseSessionTimeout},
	{"fenced", core.CauseFenced},
	{"poll-timeout", core.CausePollTimeout},
	{"static-return", core.CauseStaticReturn},
	{"retention-time", core.CauseRetentionTime},
	{"retention-size", core.CauseRetentionSize},
	{"metadata-refresh", core.CauseMetadataRefresh},
	{"commit", core.CauseCommit},
	{"abort", core.CauseAbort},
	{"lock-expired", core.CauseLockExpired},
}

func causeWords() []string {
	var words []string
	for _, c := range causes {
		words = append(words, c.word)
	}
	return words
}

var eventFields = []*eventField{
	{name: "group", typ: wordValue, help: "the group's name",
		of: func(e core.Event) value { return value{word: e.Group} }},
	{name: "member", typ: wordValue, help: "the member's name (a consumer's, a share consumer's, a producer's)",
		of: func(e core.Event) value { return value{word: e.Member} }},
	{name: "topic", typ: wordValue, help: "the topic's name",
		of: func(e core.Event) value { return value{word: e.Topic} }},
	{name: "partition", typ: numberValue, help: "the partition's number",
		of: func(e core.Event) value { return value{n: int64(e.Partition)} }},
	{name: "offset", typ: numberValue, help: "the record's offset (delivered, share events)",
		of: func(e core.Event) value { return value{n: e.Offset} }},
	{name: "generation", typ: numberValue, help: "a classic group's generation, or a consumer-protocol group's epoch",
		of: func(e core.Event) value { return value{n: int64(e.Generation)} }},
	{name: "broker", typ: numberValue, help: "the broker's id (the replication events)",
		of: func(e core.Event) value { return value{n: int64(e.Broker)} }},
	{name: "count", typ: numberValue, help: "how many the event counts: records produced or lost, partitions a rebalance moved",
		of: func(e core.Event) value { return value{n: int64(e.Count)} }},
	{name: "cause", typ: wordValue, help: "why it happened, where the engine says: a member left by session-timeout, poll-timeout or fenced, a segment went by retention-time or retention-size, a transaction ended by commit or abort, a share record's lock-expired",
		of: func(e core.Event) value {
			for _, c := range causes {
				if c.cause == e.Cause {
					return value{word: c.word}
				}
			}
			return value{word: "none"}
		}, words: causeWords()},
}

// readField reads a FIELD=VALUE argument of events or first-step, typed
// by the field: a number field's value is a whole number, a cause one of
// the causes.
func readField(s string) (argument, error) {
	name, v, _ := strings.Cut(s, "=")
	a := argument{text: s, partition: -1}
	i := slices.IndexFunc(eventFields, func(f *eventField) bool { return f.name == name })
	if i < 0 {
		var names []string
		for _, f := range eventFields {
			names = append(names, f.name)
		}
		return a, errors.New(unknownWord("event field", name, names))
	}
	a.field = eventFields[i]
	switch {
	case v == "":
		return a, fmt.Errorf("%s= has no value", name)
	case strings.Contains(v, "{"):
		// It quotes a labelled line above, {r.group}: read again once
		// filled in, when the goal is checked.
		a.want = value{word: v}
		return a, nil
	case a.field.typ == numberValue:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return a, fmt.Errorf("%s=%s: %s is a number", name, v, name)
		}
		a.want = value{n: n}
	case a.field.words != nil && !slices.Contains(a.field.words, v):
		return a, errors.New(unknownWord(name, v, a.field.words))
	default:
		a.want = value{word: v}
	}
	return a, nil
}

// A sentence, else: or solved:, may quote the value one of expect's
// functions has when it shows, {hw(orders/0)} or {lag(billing)}: the
// function is read once with the lesson, as expect's terms are.

// isQuote reports whether a placeholder quotes one of expect's functions,
// {hw(orders/0)} or {lag(billing)}: a word, then its arguments in
// parentheses.
func isQuote(name string) bool {
	open := strings.IndexByte(name, '(')
	return open > 0 && isSlug(name[:open]) && strings.HasSuffix(name, ")")
}

// readQuote reads a function a sentence quotes into quotes, once, and
// says what is wrong with it ("" when nothing is).
func readQuote(quotes map[string]term, name string) string {
	t, err := readTerm(name)
	if err != nil {
		return err.Error()
	}
	quotes[name] = t
	return ""
}

// quote is the value of a function a sentence quotes, now; "" when it
// has none (a name the state has not yet), and why is kept for the
// fairness check's report.
func (x *ctx) quote(quotes map[string]term, name string) string {
	t, ok := quotes[name]
	if !ok {
		return ""
	}
	v, err := t.evaluate(x)
	if err != nil {
		if x.quoteErrs == nil {
			x.quoteErrs = map[string]string{}
		}
		x.quoteErrs[name] = err.Error()
		return ""
	}
	return v.String(t.typ)
}
