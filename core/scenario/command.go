package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The language's command names: the first word of every line.
const (
	CmdSeed       = "seed"
	CmdRules      = "rules"
	CmdTopic      = "topic"
	CmdProduce    = "produce"
	CmdAdvance    = "advance"
	CmdPartitions = "partitions"
	CmdConfig     = "config"
	CmdTruncate   = "truncate"
	CmdCompact    = "compact"
	CmdJoin       = "join"
	CmdLeave      = "leave"
	CmdCrash      = "crash"
	CmdPoll       = "poll"
	CmdCommit     = "commit"
	CmdReset      = "reset"
	// CmdDeleteGroup deletes an empty group (kafka-consumer-groups
	// --delete): it is Dead.
	CmdDeleteGroup = "delete-group"
	CmdProducer    = "producer"
	CmdConsumer    = "consumer"
	CmdStop        = "stop"
	CmdBrokers     = "brokers"
	CmdBroker      = "broker"
	// CmdAnswer is a learner's answer to a lesson's question: no Kafka
	// operation, kept in the scenario so that a link (and a grade) holds
	// it as it holds the learner's steps.
	CmdAnswer = "answer"
)

// value is an argument's value as its kind reads it. The parser fills it
// from the canonical text, so that the readers of a command take numbers,
// durations, partitions and rates as they are instead of reading the text
// again.
type value struct {
	// n is the number of a count or signed number, the milliseconds of a
	// duration or *.ms config, the bytes of a *.bytes config (-1 for
	// either when off), and the partition of a topic/partition.
	n       int64
	topic   string   // the topic of a topic/partition
	rate    Rate     // a rate
	names   []string // a name list or word list, in its canonical order
	decimal float64  // a decimal number
	boolean bool     // true or false

	// isPartition says that a member-or-partition or name-or-partition
	// argument names a partition.
	isPartition bool
	parsed      bool // filled by the parser; false for an argument built in code
}

// readValue reads the canonical text of an argument of spec's kind (what
// canonicalValue wrote) into its typed value.
func readValue(spec argSpec, text string) (value, error) {
	v := value{parsed: true}
	var err error
	switch spec.kind {
	case kindCount, kindSigned:
		v.n, err = strconv.ParseInt(text, 10, 64)
	case kindDuration:
		v.n, err = parseDuration(text)
	case kindMs:
		v.n, err = parseMs(text)
	case kindBytes:
		v.n = -1
		if text != "-1" {
			v.n, err = parseSize(text)
		}
	case kindTopicPartition:
		v.isPartition = true
		v.topic, v.n, err = readTopicPartition(text)
	case kindMemberOrPartition, kindNameOrPartition:
		if strings.Contains(text, "/") {
			v.isPartition = true
			v.topic, v.n, err = readTopicPartition(text)
		}
	case kindNameList:
		v.names, err = parseNameList(text, "topic")
	case kindWordList, kindKeyList:
		v.names = strings.Split(text, ",")
	case kindRate:
		v.rate, err = parseRate(text)
	case kindDecimal:
		v.decimal, err = strconv.ParseFloat(text, 64)
	case kindBool:
		v.boolean, err = strconv.ParseBool(text)
	}
	if err != nil {
		return value{}, err
	}
	return v, nil
}

func readTopicPartition(text string) (string, int64, error) {
	topic, p, err := parseTopicPartition(text)
	return topic, int64(p), err
}

// parseMs reads a *.ms value in its canonical form: -1 or a duration.
func parseMs(text string) (int64, error) {
	if text == "-1" {
		return -1, nil
	}
	return parseDuration(text)
}

// kindWords says, for the errors of the accessors, what each kind is.
var kindWords = map[kind]string{
	kindName:              "name",
	kindCount:             "whole number",
	kindSigned:            "whole number",
	kindDuration:          "duration",
	kindMs:                "duration",
	kindBytes:             "size",
	kindTopicPartition:    "topic/partition",
	kindMemberOrPartition: "member or topic/partition",
	kindNameOrPartition:   "topic or topic/partition",
	kindNameList:          "list of names",
	kindText:              "text",
	kindRate:              "rate",
	kindChoice:            "choice",
	kindWordList:          "list of words",
	kindBool:              "true or false",
	kindDecimal:           "decimal number",
	kindKeyList:           "list of keys",
	kindKeyPattern:        "key pattern",
}

// Has reports whether the command holds the name=value argument or the
// flag called name.
func (c Command) Has(name string) bool {
	_, ok := c.arg(name)
	return ok
}

// Count returns the whole number of the name=value argument called name.
func (c Command) Count(name string) (int64, error) {
	v, err := c.named(name, kindCount, kindSigned)
	return v.n, err
}

// CountOr returns the whole number of the name=value argument called name,
// or def when the command leaves it out.
func (c Command) CountOr(name string, def int64) (int64, error) {
	if !c.Has(name) {
		return def, nil
	}
	return c.Count(name)
}

// CountAt returns the whole number of the i-th positional argument (from 0).
func (c Command) CountAt(i int) (int64, error) {
	v, err := c.positional(i, kindCount, kindSigned)
	return v.n, err
}

// Duration returns the milliseconds of the duration (or *.ms config)
// called name; a *.ms config that is off is -1.
func (c Command) Duration(name string) (int64, error) {
	v, err := c.named(name, kindDuration, kindMs)
	return v.n, err
}

// DurationAt returns the milliseconds of the i-th positional argument.
func (c Command) DurationAt(i int) (int64, error) {
	v, err := c.positional(i, kindDuration, kindMs)
	return v.n, err
}

// TopicPartitionAt returns the topic and partition of the i-th positional
// argument, which must name a partition (orders/0).
func (c Command) TopicPartitionAt(i int) (string, int, error) {
	v, err := c.positional(i, kindTopicPartition, kindMemberOrPartition, kindNameOrPartition)
	if err == nil && !v.isPartition {
		err = fmt.Errorf("%s: the %s is %q, not a topic/partition", c.Name, c.positionalSpec(i).name, c.Positional(i))
	}
	return v.topic, int(v.n), err
}

// PartitionOffset returns an offset in a partition, as truncate and an
// explicit commit name it: the topic/partition of the i-th positional and
// the offset of the name=value argument called name.
func (c Command) PartitionOffset(i int, name string) (topic string, partition int, offset int64, err error) {
	if topic, partition, err = c.TopicPartitionAt(i); err != nil {
		return "", 0, 0, err
	}
	if offset, err = c.Count(name); err != nil {
		return "", 0, 0, err
	}
	return topic, partition, offset, nil
}

// TopicOrPartition returns what the argument called name names: a whole
// topic (partition -1) or one partition of it.
func (c Command) TopicOrPartition(name string) (topic string, partition int, err error) {
	v, err := c.named(name, kindNameOrPartition, kindTopicPartition)
	if err != nil {
		return "", 0, err
	}
	if !v.isPartition {
		text, _ := c.Value(name)
		return text, -1, nil
	}
	return v.topic, int(v.n), nil
}

// Rate returns the rate of the name=value argument called name.
func (c Command) Rate(name string) (Rate, error) {
	v, err := c.named(name, kindRate)
	return v.rate, err
}

// Names returns the names of the list argument called name, in order.
func (c Command) Names(name string) ([]string, error) {
	v, err := c.named(name, kindNameList, kindWordList, kindKeyList)
	return v.names, err
}

// Decimal returns the number of the decimal argument called name.
func (c Command) Decimal(name string) (float64, error) {
	v, err := c.named(name, kindDecimal)
	return v.decimal, err
}

// Bool returns the value of the true-or-false argument called name.
func (c Command) Bool(name string) (bool, error) {
	v, err := c.named(name, kindBool)
	return v.boolean, err
}

// named finds the name=value argument called name (a config too), checks
// that the grammar gives it one of the kinds, and returns its typed value.
func (c Command) named(name string, kinds ...kind) (value, error) {
	spec, ok := specByName[c.Name]
	if !ok {
		return value{}, fmt.Errorf("unknown command %q", c.Name)
	}
	as, ok := findSpec(spec.named, name)
	if !ok && spec.configs != nil {
		as, ok = findSpec(spec.configs(c.positionals()), name)
	}
	if !ok {
		return value{}, fmt.Errorf("%s takes no %s= argument", c.Name, name)
	}
	a, ok := c.arg(name)
	if !ok || a.Flag {
		return value{}, fmt.Errorf("%s needs %s=", c.Name, name)
	}
	return c.typed(as, a, true, kinds)
}

// positional finds the i-th positional argument, checks that the grammar
// gives it one of the kinds, and returns its typed value.
func (c Command) positional(i int, kinds ...kind) (value, error) {
	if _, ok := specByName[c.Name]; !ok {
		return value{}, fmt.Errorf("unknown command %q", c.Name)
	}
	ps := c.positionalSpec(i)
	if ps.name == "" {
		return value{}, fmt.Errorf("%s takes no argument %d", c.Name, i+1)
	}
	a, ok := c.positionalArg(i)
	if !ok {
		return value{}, fmt.Errorf("%s needs a %s", c.Name, ps.name)
	}
	return c.typed(ps, a, false, kinds)
}

// typed returns the typed value of a, which the grammar describes as as:
// the one the parser filled, or, for an argument built in code, its text
// read the way the parser reads it. named says whether a is a name=value
// argument, for the errors.
func (c Command) typed(as argSpec, a Arg, named bool, kinds []kind) (value, error) {
	what := func() string {
		if named {
			return as.name + "="
		}
		return "the " + as.name
	}
	if !slices.Contains(kinds, as.kind) {
		return value{}, fmt.Errorf("%s: %s is a %s, not a %s", c.Name, what(), kindWords[as.kind], kindWords[kinds[0]])
	}
	if a.typed.parsed {
		return a.typed, nil
	}
	_, v, err := readArg(as, a.Value)
	if err != nil {
		return value{}, fmt.Errorf("%s: %s: %v", c.Name, what(), err)
	}
	return v, nil
}

// readArg checks the text of an argument against its spec and returns its
// canonical text and its typed value.
func readArg(spec argSpec, text string) (string, value, error) {
	canonical, err := canonicalValue(spec, text)
	if err != nil {
		return "", value{}, err
	}
	v, err := readValue(spec, canonical)
	if err != nil {
		return "", value{}, err
	}
	return canonical, v, nil
}

// positionalSpec is the grammar's description of the i-th positional, or
// the zero argSpec when the command takes no such argument.
func (c Command) positionalSpec(i int) argSpec {
	spec, ok := specByName[c.Name]
	if !ok || i < 0 || i >= len(spec.positional) {
		return argSpec{}
	}
	return spec.positional[i]
}

// positionalArg returns the i-th positional argument.
func (c Command) positionalArg(i int) (Arg, bool) {
	for _, a := range c.Args {
		if a.Name == "" && !a.Flag {
			if i == 0 {
				return a, true
			}
			i--
		}
	}
	return Arg{}, false
}

// positionals returns the values of the positional arguments.
func (c Command) positionals() []string {
	var vs []string
	for _, a := range c.Args {
		if a.Name == "" && !a.Flag {
			vs = append(vs, a.Value)
		}
	}
	return vs
}
