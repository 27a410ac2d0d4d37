package scenario

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// Every command of the grammar has its constant, and every constant is a
// command.
func TestCommandConstantsNameEveryCommand(t *testing.T) {
	constants := []string{CmdSeed, CmdRules, CmdTopic, CmdProduce, CmdAdvance, CmdPartitions, CmdConfig, CmdTruncate,
		CmdCompact, CmdJoin, CmdLeave, CmdCrash, CmdPoll, CmdCommit, CmdReset, CmdProducer, CmdConsumer,
		CmdStop, CmdBrokers, CmdBroker, CmdProducerConfig, CmdWire, CmdTxn, CmdDeleteGroup,
		CmdShareJoin, CmdSharePoll, CmdAcknowledge, CmdShareLeave, CmdAnswer}
	slices.Sort(constants)
	if got := CommandNames(); !slices.Equal(got, constants) {
		t.Fatalf("the grammar's commands are %v, the constants %v", got, constants)
	}
}

func mustParseLine(t *testing.T, line string) Command {
	t.Helper()
	c, ok, err := ParseLine(line, 1)
	if err != nil || !ok {
		t.Fatalf("%s: %v", line, err)
	}
	return c
}

// The accessors give the values of parsed commands.
func TestAccessorsOnParsedCommands(t *testing.T) {
	type got struct {
		value any
		err   error
	}
	two := func(v any, err error) got { return got{value: v, err: err} }
	tp := func(topic string, p int, err error) got { return got{value: topic + "#" + strconv.Itoa(p), err: err} }
	for _, tc := range []struct {
		line string
		read func(c Command) got
		want any
	}{
		{"seed -5", func(c Command) got { return two(c.CountAt(0)) }, int64(-5)},
		{"advance 90s", func(c Command) got { return two(c.DurationAt(0)) }, int64(90_000)},
		{"advance 2d", func(c Command) got { return two(c.DurationAt(0)) }, int64(2 * 24 * 3600 * 1000)},
		{"truncate orders/007 before=12", func(c Command) got { return tp(c.TopicPartitionAt(0)) }, "orders#7"},
		{"truncate orders/0 before=0012", func(c Command) got { return two(c.Count("before")) }, int64(12)},
		{"topic t partitions=3", func(c Command) got { return two(c.CountOr("partitions", 1)) }, int64(3)},
		{"topic t", func(c Command) got { return two(c.CountOr("partitions", 1)) }, int64(1)},
		{"topic t replication.factor=2", func(c Command) got { return two(c.Count("replication.factor")) }, int64(2)},
		{"topic t retention.ms=3600000", func(c Command) got { return two(c.Duration("retention.ms")) }, int64(3_600_000)},
		{"brokers 3 replica.lag.time.max.ms=-1", func(c Command) got { return two(c.Duration("replica.lag.time.max.ms")) }, int64(-1)},
		{"brokers 3", func(c Command) got { return two(c.CountAt(0)) }, int64(3)},
		{"broker slow 2 pace=3/m", func(c Command) got { return two(c.CountAt(1)) }, int64(2)},
		{"broker slow 2 pace=3/m", func(c Command) got { return two(c.Rate("pace")) }, Rate{Count: 3, Per: 60_000}},
		{"join g c1 topics=b,a", func(c Command) got { return two(c.Names("topics")) }, []string{"b", "a"}},
		{"producer p orders rate=20/s keys=zipf keyspace=10 exponent=1.20", func(c Command) got { return two(c.Decimal("exponent")) }, 1.2},
		{"producer p orders rate=20/s keys=uniform keyspace=10", func(c Command) got { return two(c.Rate("rate")) }, Rate{Count: 20, Per: 1000}},
		{"reset g to-offset=5 topic=orders", func(c Command) got { return tp(c.TopicOrPartition("topic")) }, "orders#-1"},
		{"reset g to-latest topic=orders/2", func(c Command) got { return tp(c.TopicOrPartition("topic")) }, "orders#2"},
		{"reset g to-datetime=1m", func(c Command) got { return two(c.Duration("to-datetime")) }, int64(60_000)},
		{"commit g orders/1 offset=7", func(c Command) got { return tp(c.TopicPartitionAt(1)) }, "orders#1"},
		{"poll g c1", func(c Command) got { return two(c.CountOr("max", 500)) }, int64(500)},
		{"config group g auto.commit=true", func(c Command) got { return two(c.Bool("auto.commit")) }, true},
		{"config topic t cleanup.policy=delete,compact", func(c Command) got { return two(c.Names("cleanup.policy")) }, []string{"compact", "delete"}},
	} {
		t.Run(tc.line, func(t *testing.T) {
			g := tc.read(mustParseLine(t, tc.line))
			if g.err != nil {
				t.Fatalf("error: %v", g.err)
			}
			if !equalValues(g.value, tc.want) {
				t.Fatalf("got %v (%T), want %v (%T)", g.value, g.value, tc.want, tc.want)
			}
		})
	}
}

func equalValues(a, b any) bool {
	if as, ok := a.([]string); ok {
		bs, ok := b.([]string)
		return ok && slices.Equal(as, bs)
	}
	return a == b
}

// A command built in code with an argument missing, of the wrong kind or
// with a wrong value gives an error that names it, never a zero or a
// panic.
func TestAccessorErrorsOnCommandsBuiltInCode(t *testing.T) {
	pos := func(v string) Arg { return Arg{Value: v} }
	named := func(n, v string) Arg { return Arg{Name: n, Value: v} }
	produce := func(args ...Arg) Command {
		return Command{Name: CmdProduce, Args: append([]Arg{pos("orders")}, args...)}
	}
	for _, tc := range []struct {
		name string
		read func() error
		want string
	}{
		{"count not a number", func() error { _, err := produce(named("count", "x")).Count("count"); return err }, `produce: count=: expected a whole number, got "x"`},
		{"count below its minimum", func() error { _, err := produce(named("count", "0")).CountOr("count", 1); return err }, "produce: count=: must be at least 1, got 0"},
		{"count above its maximum", func() error { _, err := produce(named("count", "10001")).Count("count"); return err }, "produce: count=: number 10001 is larger than 10000"},
		{"required argument missing", func() error {
			_, err := Command{Name: CmdTruncate, Args: []Arg{pos("orders/0")}}.Count("before")
			return err
		}, "truncate needs before="},
		{"wrong kind asked", func() error { _, err := produce(named("count", "3")).Duration("count"); return err }, "produce: count= is a whole number, not a duration"},
		{"argument the command does not take", func() error { _, err := produce().Count("bogus"); return err }, "produce takes no bogus= argument"},
		{"unknown command", func() error { _, err := Command{Name: "nope"}.Count("count"); return err }, `unknown command "nope"`},
		{"positional missing", func() error { _, err := Command{Name: CmdAdvance}.DurationAt(0); return err }, "advance needs a duration"},
		{"positional the command does not take", func() error { _, err := Command{Name: CmdAdvance}.CountAt(5); return err }, "advance takes no argument 6"},
		{"duration without a unit", func() error {
			_, err := Command{Name: CmdAdvance, Args: []Arg{pos("10")}}.DurationAt(0)
			return err
		}, `advance: the duration: expected a duration like 500ms, 10s, 5m, 2h or 7d, got "10"`},
		{"a member where a partition is asked", func() error {
			_, _, err := Command{Name: CmdCommit, Args: []Arg{pos("g"), pos("c1")}}.TopicPartitionAt(1)
			return err
		}, `commit: the member or topic/partition is "c1", not a topic/partition`},
		{"partition out of range", func() error {
			_, _, err := Command{Name: CmdTruncate, Args: []Arg{pos("orders/1000"), named("before", "1")}}.TopicPartitionAt(0)
			return err
		}, `truncate: the topic/partition: expected a topic/partition like orders/0, got "orders/1000"`},
		{"rate of zero", func() error {
			_, err := Command{Name: CmdConsumer, Args: []Arg{pos("g"), pos("c1"), named("rate", "0/s")}}.Rate("rate")
			return err
		}, `consumer: rate=: expected a rate like 20/s, 3/m or 1/h, got "0/s"`},
		{"names listed twice", func() error {
			_, err := Command{Name: CmdJoin, Args: []Arg{pos("g"), pos("c1"), named("topics", "a,a")}}.Names("topics")
			return err
		}, `join: topics=: topic "a" is listed twice`},
		{"a flag where a value is asked", func() error {
			_, err := Command{Name: CmdReset, Args: []Arg{pos("g"), {Name: "to-offset", Flag: true}}}.Count("to-offset")
			return err
		}, "reset needs to-offset="},
		{"not a boolean", func() error {
			_, err := Command{Name: CmdConfig, Args: []Arg{pos("group"), pos("g"), named("auto.commit", "yes")}}.Bool("auto.commit")
			return err
		}, `config: auto.commit=: expected true or false, got "yes"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.read()
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got error %v, want %q", err, tc.want)
			}
		})
	}
}

// A command built in code with a right value reads as the same command
// parsed would.
func TestAccessorsOnCommandsBuiltInCode(t *testing.T) {
	c := Command{Name: CmdProduce, Args: []Arg{{Value: "orders"}, {Name: "count", Value: "007"}, {Name: "partition", Value: "2"}}}
	if n, err := c.CountOr("count", 1); err != nil || n != 7 {
		t.Fatalf("count: %d, %v", n, err)
	}
	if n, err := c.CountOr("partition", -1); err != nil || n != 2 {
		t.Fatalf("partition: %d, %v", n, err)
	}
	r := Command{Name: CmdReset, Args: []Arg{{Value: "g"}, {Name: "to-earliest", Flag: true}, {Name: "topic", Value: "orders/03"}}}
	if topic, p, err := r.TopicOrPartition("topic"); err != nil || topic != "orders" || p != 3 {
		t.Fatalf("topic=: %s %d %v", topic, p, err)
	}
}

// The session refuses a command built in code with a wrong value, says
// why, and keeps its state, where it used to read a zero.
func TestApplyCommandBuiltInCodeWithAWrongValue(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Command
		want string
	}{
		{"produce count=x", Command{Name: CmdProduce, Args: []Arg{{Value: "orders"}, {Name: "count", Value: "x"}}}, `count=: expected a whole number, got "x"`},
		{"advance without a duration", Command{Name: CmdAdvance}, "advance needs a duration"},
		{"uniform keys without a keyspace", Command{Name: CmdProducer, Args: []Arg{{Value: "p"}, {Value: "orders"}, {Name: "rate", Value: "1/s"}, {Name: "keys", Value: "uniform"}}}, "producer needs keyspace="},
		{"poll max=-3", Command{Name: CmdPoll, Args: []Arg{{Value: "g"}, {Value: "c1"}, {Name: "max", Value: "-3"}}}, `max=: expected a whole number, got "-3"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Load("topic orders partitions=2\njoin g c1 topics=orders\nproduce orders key=k\n")
			if err != nil {
				t.Fatal(err)
			}
			before, script := s.Len(), s.Script()
			if _, err := s.ApplyCommand(tc.c); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want one with %q", err, tc.want)
			}
			if s.Len() != before || s.Script() != script {
				t.Fatalf("the refused command changed the session: %d steps, script\n%s", s.Len(), s.Script())
			}
		})
	}
}

// The typed value of every argument of every command of the grammar agrees
// with its canonical text: written back in the canonical form it is the
// same text, whether the parser filled it or the accessors read the text of
// the same command built in code. Generated lines rarely meet every rule of
// producer keys=zipf, so a few written lines join them.
func TestTypedValuesAgreeWithCanonicalText(t *testing.T) {
	kinds := map[kind]bool{}
	// The fixed lines hold every kind, so that the check below does not
	// hang on rapid's draws.
	for _, line := range []string{
		"producer p orders rate=20/s keys=zipf keyspace=10 exponent=1.50",
		"producer p orders rate=20/s keys=zipf exponent=1 keylist=acct-1,acct-2",
		"producer p orders rate=20/s keys=sequence key=tenant-{n}",
		"topic t retention.bytes=4096 segment.ms=-1 cleanup.policy=delete,compact unclean.leader.election.enable=true",
		"reset g to-datetime=90s topic=orders/01",
		"commit g orders/2 offset=3",
		"produce orders key=acct-1 value=hello count=3",
		"truncate orders/0 before=2",
		"join g c1 topics=orders,audit",
		"seed -7",
	} {
		c, ok, err := ParseLine(line, 1)
		if err != nil || !ok {
			t.Fatalf("%s: %v", line, err)
		}
		checkTyped(t, c, kinds)
	}
	rapid.Check(t, func(t *rapid.T) {
		if c, ok, err := ParseLine(genLine(t), 1); err == nil && ok {
			checkTyped(t, c, kinds)
		}
	})
	for k := range kindWords {
		if !kinds[k] {
			t.Errorf("no argument was of kind %s", kindWords[k])
		}
	}
}

// checkTyped checks the typed values of a parsed command against its
// canonical text, and notes the kinds of its arguments.
func checkTyped(t fatalf, c Command, kinds map[kind]bool) {
	built := Command{Name: c.Name}
	for _, a := range c.Args {
		built.Args = append(built.Args, Arg{Name: a.Name, Value: a.Value, Flag: a.Flag})
	}
	spec := specByName[c.Name]
	i := 0
	for _, a := range c.Args {
		if a.Flag {
			continue
		}
		var as argSpec
		var read func(Command) (string, error)
		if a.Name == "" {
			as = spec.positional[i]
			read = positionalReader(as.kind, i)
			i++
		} else {
			var ok bool
			as, ok = findSpec(spec.named, a.Name)
			if !ok && spec.configs != nil {
				as, ok = findSpec(spec.configs(c.positionals()), a.Name)
			}
			if !ok {
				t.Fatalf("%s: no spec for %s=", c, a.Name)
			}
			read = namedReader(as.kind, a.Name)
		}
		kinds[as.kind] = true
		if !a.typed.parsed {
			t.Fatalf("%s: the parser left %q without its typed value", c, a.Value)
		}
		if text := writeTyped(as.kind, a); text != a.Value {
			t.Fatalf("%s: the typed value of %q reads back as %q", c, a.Value, text)
		}
		if read == nil {
			continue
		}
		for _, cmd := range []Command{c, built} {
			text, err := read(cmd)
			if err != nil {
				t.Fatalf("%s: reading %q: %v", cmd, a.Value, err)
			}
			if text != a.Value {
				t.Fatalf("%s: the accessor reads %q as %q", cmd, a.Value, text)
			}
		}
	}
}

// writeTyped writes an argument's typed value in the canonical form.
func writeTyped(k kind, a Arg) string {
	v := a.typed
	switch k {
	case kindCount, kindSigned:
		return strconv.FormatInt(v.n, 10)
	case kindDuration:
		return formatDuration(v.n)
	case kindMs:
		if v.n == -1 {
			return "-1"
		}
		return formatDuration(v.n)
	case kindBytes:
		if v.n == -1 {
			return "-1"
		}
		return formatSize(v.n)
	case kindTopicPartition:
		return v.topic + "/" + strconv.FormatInt(v.n, 10)
	case kindMemberOrPartition, kindNameOrPartition:
		if v.isPartition {
			return v.topic + "/" + strconv.FormatInt(v.n, 10)
		}
		return a.Value
	case kindNameList, kindWordList, kindKeyList:
		return strings.Join(v.names, ",")
	case kindRate:
		return v.rate.String()
	case kindDecimal:
		return strconv.FormatFloat(v.decimal, 'f', -1, 64)
	case kindBool:
		return strconv.FormatBool(v.boolean)
	}
	return a.Value // names, text and choices are their text
}

// positionalReader reads the i-th positional through its accessor and
// writes it in the canonical form; nil for a kind read as its text.
func positionalReader(k kind, i int) func(Command) (string, error) {
	switch k {
	case kindCount, kindSigned:
		return func(c Command) (string, error) {
			n, err := c.CountAt(i)
			return strconv.FormatInt(n, 10), err
		}
	case kindDuration:
		return func(c Command) (string, error) {
			ms, err := c.DurationAt(i)
			return formatDuration(ms), err
		}
	case kindTopicPartition:
		return func(c Command) (string, error) {
			topic, p, err := c.TopicPartitionAt(i)
			return topic + "/" + strconv.Itoa(p), err
		}
	case kindMemberOrPartition:
		return func(c Command) (string, error) {
			if !strings.Contains(c.Positional(i), "/") {
				return c.Positional(i), nil
			}
			topic, p, err := c.TopicPartitionAt(i)
			return topic + "/" + strconv.Itoa(p), err
		}
	}
	return nil
}

// namedReader reads the name=value argument called name through its
// accessor and writes it in the canonical form; nil for a kind read as
// its text.
func namedReader(k kind, name string) func(Command) (string, error) {
	switch k {
	case kindCount, kindSigned:
		return func(c Command) (string, error) {
			n, err := c.Count(name)
			return strconv.FormatInt(n, 10), err
		}
	case kindDuration, kindMs:
		return func(c Command) (string, error) {
			ms, err := c.Duration(name)
			if ms == -1 {
				return "-1", err
			}
			return formatDuration(ms), err
		}
	case kindNameOrPartition:
		return func(c Command) (string, error) {
			topic, p, err := c.TopicOrPartition(name)
			if p < 0 {
				return topic, err
			}
			return topic + "/" + strconv.Itoa(p), err
		}
	case kindNameList, kindWordList, kindKeyList:
		return func(c Command) (string, error) {
			names, err := c.Names(name)
			return strings.Join(names, ","), err
		}
	case kindRate:
		return func(c Command) (string, error) {
			r, err := c.Rate(name)
			return r.String(), err
		}
	case kindDecimal:
		return func(c Command) (string, error) {
			f, err := c.Decimal(name)
			return strconv.FormatFloat(f, 'f', -1, 64), err
		}
	case kindBool:
		return func(c Command) (string, error) {
			b, err := c.Bool(name)
			return strconv.FormatBool(b), err
		}
	}
	return nil
}
