package scenario

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"plog/core"
)

// This file is the language's grammar as data: for every command, which
// positional arguments, flags and name=value arguments it takes, and of which
// kind. The parser checks a line against it, Format writes arguments in its
// order, and the error messages quote its usage lines.

// kind is the type of one argument's value.
type kind int

const (
	kindName              kind = iota // topic, group, member or workload name
	kindCount                         // whole number in [min, max]
	kindSigned                        // signed whole number (the seed)
	kindDuration                      // 500ms 10s 5m 2h 7d
	kindMs                            // a Kafka *.ms config: a duration, a bare number of ms, or -1
	kindBytes                         // a Kafka *.bytes config: a size, a bare number of bytes, or -1
	kindTopicPartition                // orders/0
	kindMemberOrPartition             // a member name, or a topic/partition for an explicit commit
	kindNameOrPartition               // a topic name, or a topic/partition
	kindNameList                      // a,b,c
	kindText                          // any text; quoted when it has spaces
	kindRate                          // 20/s
	kindChoice                        // one of argSpec.choices
	kindWordList                      // comma-separated words out of argSpec.choices, e.g. compact,delete
	kindBool                          // true or false
	kindDecimal                       // a positive decimal number such as 1.2
	kindKeyList                       // a workload's keys, comma-separated, in the order written: acct-1,acct-2
	kindKeyPattern                    // a workload's key with {n} once, where the drawn number goes: tenant-{n}
)

// argSpec describes one argument.
type argSpec struct {
	name     string // what it is: the name of a name=value argument, or a word naming a positional
	kind     kind
	min, max int64    // bounds for kindCount
	choices  []string // for kindChoice and kindWordList
	required bool     // for name=value arguments; positionals are required unless optional is set
	optional bool     // for positionals: may be left out (only the last ones)
	minusOne bool     // kindCount: -1 (unlimited, off) is allowed too
	// minusOneRefused, for a kindCount without minusOne, is said when -1
	// is given: what -1 would mean in Kafka, and why the language does not
	// take it.
	minusOneRefused string
	// aliasOf is, for an older name of a config (auto.commit), the
	// config's name (enable.auto.commit).
	aliasOf string
	// names is where the command line's completion finds the values of
	// a name, a broker id or a partition (complete.go); the zero value,
	// for a name the learner makes up (a new topic), offers none.
	names nameSet
	// note is what completion says of a name=value argument that is no
	// config of the registry; "" for none.
	note string
}

// config is the name of the config an argument sets.
func (a argSpec) config() string {
	if a.aliasOf != "" {
		return a.aliasOf
	}
	return a.name
}

// commandSpec describes one command.
type commandSpec struct {
	name       string
	usage      string // one line, shown in errors
	positional []argSpec
	flags      []string // bare words allowed after the positionals
	// flagsFirst writes the flags right after the positionals in the
	// canonical form, where the flag is what the command does (reset
	// GROUP to-earliest); otherwise they come last (produce T key=K
	// tombstone).
	flagsFirst bool
	named      []argSpec // name=value arguments, in canonical order
	// configs returns the config names (with kinds) the command also takes
	// as name=value arguments, given its positionals; nil when it takes none.
	configs func(positional []string) []argSpec
	// check validates what the table cannot say alone, such as two
	// arguments that exclude each other.
	check func(c *Command) error
}

// Limits on what one command may ask for. They keep a shared link from
// asking the engine for unbounded work.
const (
	// MaxProduceCount is the largest count= of one produce command.
	MaxProduceCount = 10_000
	// MaxPollRecords is the largest max= of one poll.
	MaxPollRecords = 10_000
	// MaxKeyspace is the largest number of distinct keys a workload draws from.
	MaxKeyspace = 100_000
	// MaxKeyList is the most keys a workload's keylist= may name.
	MaxKeyList = 256
	// MaxWorkloadKeyBytes is the longest key a workload's keylist= may
	// name, and the longest pattern its key= may give ({n} included):
	// keys a lane writes in its boxes, not payloads.
	MaxWorkloadKeyBytes = 64
	// MaxPartitions is the most partitions one topic may have (the engine's bound).
	MaxPartitions = 1000
	// MaxBrokers is the most brokers a cluster may have (the engine's bound).
	MaxBrokers = core.MaxBrokers
)

// topicConfigs are the topic configs the language accepts, by Kafka's
// names (segment.records and partitioner are the playground's own), and
// groupConfigs the consumer group settings: both read from the engine's
// config registry (core/config_registry.go). The engine checks their
// ranges; the language checks their form.
var (
	topicConfigs = configArgs(core.Configs(core.OnTopic))
	groupConfigs = configArgs(core.Configs(core.OnGroup))
)

// configArgs turns configs of the registry into name=value arguments, and
// their aliases too (auto.commit, which links made before rules 3 write for
// enable.auto.commit): a line keeps the name it was written with, so an old
// link reads back as it was.
func configArgs(defs []core.ConfigDef) []argSpec {
	args := make([]argSpec, 0, len(defs))
	for _, d := range defs {
		args = append(args, configArg(d, d.Name))
		if d.Alias != "" {
			alias := configArg(d, d.Alias)
			alias.aliasOf = d.Name
			args = append(args, alias)
		}
	}
	return args
}

// configArg is a config's argument under one of its names.
func configArg(d core.ConfigDef, name string) argSpec {
	a := argSpec{name: name}
	switch d.Kind {
	case core.KindDuration:
		a.kind = kindMs
	case core.KindSize:
		a.kind = kindBytes
	case core.KindCount:
		a.kind, a.min, a.max, a.minusOne = kindCount, d.Min, d.Max, d.MinusOne
	case core.KindChoice:
		a.kind, a.choices = kindChoice, d.Choices
	case core.KindList:
		a.kind, a.choices = kindWordList, listWords(d.Choices)
	case core.KindBool:
		a.kind = kindBool
	}
	return a
}

// listWords lists, sorted, the words the values of a list config are
// written with: compact and delete for compact,delete.
func listWords(values []string) []string {
	var words []string
	for _, v := range values {
		for _, w := range strings.Split(v, ",") {
			if !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
	}
	sort.Strings(words)
	return words
}

// Strategies are the partition assignment strategies a member may join with.
var Strategies = []string{"range", "roundrobin", "sticky", "cooperative-sticky"}

// AcksChoices are the producer acks settings: 0 (no answer), 1 (the
// leader's), all (the in-sync replicas'; Kafka's default).
var AcksChoices = acksConfig.Choices

// acksConfig is the producer's acks in the engine's config registry.
var acksConfig, _ = core.LookupConfig(core.OnProduce, "acks")

// PartitionerChoices are the producer's partitioners (partitioner.class,
// rules 2): default, Kafka's built-in partitioner, and round-robin.
var PartitionerChoices = partitionerConfig.Choices

var partitionerConfig, _ = core.LookupConfig(core.OnProduce, "partitioner")

// BrokerActions are what the broker command does to a broker.
var BrokerActions = []string{"crash", "restart", "isolate", "heal", "slow"}

// KeyDistributions are the ways a producer workload picks keys.
var KeyDistributions = []string{"none", "sequence", "uniform", "zipf"}

func pos(name string, k kind) argSpec { return argSpec{name: name, kind: k} }

// posIn is a positional whose values completion offers from names.
func posIn(name string, k kind, names nameSet) argSpec {
	return argSpec{name: name, kind: k, names: names}
}

var commandSpecs = slices.Concat([]*commandSpec{
	{
		name:       CmdSeed,
		usage:      "seed N",
		positional: []argSpec{pos("number", kindSigned)},
	},
	{
		name:       CmdRules,
		usage:      "rules N",
		positional: []argSpec{{name: "version", kind: kindCount, min: core.RulesV1, max: core.LatestRules}},
	},
	{
		name:       CmdTopic,
		usage:      "topic NAME [partitions=N] [config=value ...]",
		positional: []argSpec{pos("topic", kindName)},
		named:      []argSpec{{name: "partitions", kind: kindCount, min: 1, max: MaxPartitions}},
		configs:    func([]string) []argSpec { return topicConfigs },
	},
	{
		name:       CmdProduce,
		usage:      "produce TOPIC [key=K] [value=V | tombstone] [count=N] [partition=P] [acks=0|1|all] [partitioner=default|round-robin] [producer=NAME [values=A,B,...]]",
		positional: []argSpec{posIn("topic", kindName, topicNames)},
		flags:      []string{"tombstone"},
		named: []argSpec{
			{name: "key", kind: kindText},
			{name: "value", kind: kindText},
			{name: "count", kind: kindCount, min: 1, max: MaxProduceCount},
			{name: "partition", kind: kindCount, min: 0, max: MaxPartitions - 1, names: partitionNumbers},
			{name: "acks", kind: kindChoice, choices: AcksChoices},
			{name: "partitioner", kind: kindChoice, choices: PartitionerChoices},
			{name: "producer", kind: kindName}, // a named producer (apply_producers.go)
			{name: "values", kind: kindText},   // with producer=: one record for each comma-separated value
		},
		check: checkProduce,
	},
	{
		name:       CmdAdvance,
		usage:      "advance DURATION",
		positional: []argSpec{pos("duration", kindDuration)},
		check:      checkAdvance,
	},
	{
		name:       CmdPartitions,
		usage:      "partitions TOPIC count=N",
		positional: []argSpec{posIn("topic", kindName, topicNames)},
		named:      []argSpec{{name: "count", kind: kindCount, min: 1, max: MaxPartitions, required: true}},
	},
	{
		name:       CmdConfig,
		usage:      "config topic NAME config=value ... | config group NAME config=value ...",
		positional: []argSpec{{name: "topic or group", kind: kindChoice, choices: []string{"topic", "group"}}, posIn("name", kindName, configTargetNames)},
		configs: func(p []string) []argSpec {
			if len(p) > 0 && p[0] == "group" {
				return configArgsForGroup()
			}
			return topicConfigs
		},
		check: checkConfig,
	},
	{
		name:       CmdTruncate,
		usage:      "truncate TOPIC/PARTITION before=OFFSET",
		positional: []argSpec{posIn("topic/partition", kindTopicPartition, topicNames)},
		// Kafka's DeleteRecords also takes -1 for the high watermark (the
		// engine does: core.TruncateToHighWatermark). The language does not:
		// a link holding before=-1 has always stopped there with an error,
		// and must keep opening to the same state; a line that names its
		// offset also says, in the timeline, where it cut.
		named: []argSpec{{name: "before", kind: kindCount, min: 0, max: 1 << 62, required: true,
			minusOneRefused: "Kafka's DeleteRecords reads -1 as the high watermark; the playground's truncate takes the offset itself (the lane shows the high watermark)"}},
	},
	{
		name:       CmdCompact,
		usage:      "compact TOPIC",
		positional: []argSpec{posIn("topic", kindName, topicNames)},
	},
	{
		name:       CmdJoin,
		usage:      "join GROUP MEMBER topics=T1,T2 [strategy=range|roundrobin|sticky|cooperative-sticky] [instance=ID] [group.protocol=classic|consumer] [group.remote.assignor=uniform|range]",
		positional: []argSpec{posIn("group", kindName, groupNames), pos("member", kindName)},
		named: []argSpec{
			{name: "topics", kind: kindNameList, required: true, names: topicNames},
			{name: "strategy", kind: kindChoice, choices: Strategies},
			{name: "instance", kind: kindName},
			// The member's configs of Kafka 4's consumer group protocol
			// (KIP-848), by their ConsumerConfig names (core/group_consumer.go).
			{name: "group.protocol", kind: kindChoice, choices: core.Protocols()},
			{name: "group.remote.assignor", kind: kindChoice, choices: core.ServerAssignors()},
		},
		check: checkJoin,
	},
	{
		name:       CmdLeave,
		usage:      "leave GROUP MEMBER",
		positional: []argSpec{posIn("group", kindName, groupNames), posIn("member", kindName, memberNames)},
	},
	{
		name:       CmdCrash,
		usage:      "crash GROUP MEMBER",
		positional: []argSpec{posIn("group", kindName, groupNames), posIn("member", kindName, memberNames)},
	},
	{
		name:       CmdPoll,
		usage:      "poll GROUP MEMBER [max=N]",
		positional: []argSpec{posIn("group", kindName, groupNames), posIn("member", kindName, memberNames)},
		named:      []argSpec{{name: "max", kind: kindCount, min: 1, max: MaxPollRecords}},
	},
	{
		name:       CmdCommit,
		usage:      "commit GROUP MEMBER [epoch=N] | commit GROUP TOPIC/PARTITION offset=N",
		positional: []argSpec{posIn("group", kindName, groupNames), posIn("member or topic/partition", kindMemberOrPartition, memberNames)},
		named: []argSpec{
			{name: "offset", kind: kindCount, min: 0, max: 1 << 62},
			// epoch= is the member epoch a consumer group member's commit
			// carries (core.CommitWithEpoch).
			{name: "epoch", kind: kindCount, min: 0, max: 1 << 31},
		},
		check: checkCommit,
	},
	{
		name:       CmdReset,
		usage:      "reset GROUP to-earliest | to-latest | to-offset=N | to-datetime=DURATION [topic=TOPIC[/PARTITION]]",
		positional: []argSpec{posIn("group", kindName, groupNames)},
		flags:      []string{"to-earliest", "to-latest"},
		flagsFirst: true,
		named: []argSpec{
			{name: "to-offset", kind: kindCount, min: 0, max: 1 << 62},
			{name: "to-datetime", kind: kindDuration},
			{name: "topic", kind: kindNameOrPartition, names: topicNames},
		},
		check: checkReset,
	},
	{
		name:       CmdDeleteGroup,
		usage:      "delete-group GROUP",
		positional: []argSpec{posIn("group", kindName, groupNames)},
	},
	{
		name:       CmdProducer,
		usage:      "producer NAME TOPIC rate=N/s [keys=none|sequence|uniform|zipf] [keyspace=N] [exponent=X] [keylist=K1,K2,... | key=PATTERN] [value=V] [acks=0|1|all] [partitioner=default|round-robin]",
		positional: []argSpec{posIn("workload", kindName, producerNames), posIn("topic", kindName, topicNames)},
		named: []argSpec{
			{name: "rate", kind: kindRate, required: true},
			{name: "keys", kind: kindChoice, choices: KeyDistributions},
			{name: "keyspace", kind: kindCount, min: 1, max: MaxKeyspace},
			{name: "exponent", kind: kindDecimal},
			// The keys' own names: the keys the mode draws from, or a
			// pattern the drawn number fills (key-{n} when neither).
			{name: "keylist", kind: kindKeyList, note: "the keys to draw from, comma-separated (acct-1,acct-2,acct-3): sequence goes round them, zipf makes the first the hottest"},
			{name: "key", kind: kindKeyPattern, note: "the keys' pattern, {n} where the drawn number goes (tenant-{n}); key-{n} by default"},
			{name: "value", kind: kindText},
			{name: "acks", kind: kindChoice, choices: AcksChoices},
			{name: "partitioner", kind: kindChoice, choices: PartitionerChoices},
		},
		check: checkProducer,
	},
	{
		name:       CmdConsumer,
		usage:      "consumer GROUP MEMBER rate=N/s [max=N] [commit]",
		positional: []argSpec{posIn("group", kindName, anyGroupNames), posIn("member", kindName, anyMemberNames)},
		flags:      []string{"commit"},
		named: []argSpec{
			{name: "rate", kind: kindRate, required: true},
			{name: "max", kind: kindCount, min: 1, max: MaxPollRecords},
		},
	},
	{
		name:       CmdStop,
		usage:      "stop PRODUCER | stop GROUP MEMBER",
		positional: []argSpec{posIn("workload", kindName, workloadNames), {name: "member", kind: kindName, optional: true, names: workloadMemberNames}},
	},
	{
		name:       CmdBrokers,
		usage:      "brokers N [replica.lag.time.max.ms=DURATION] [group.consumer.migration.policy=bidirectional|upgrade|downgrade|disabled]",
		positional: []argSpec{{name: "count", kind: kindCount, min: 1, max: MaxBrokers}},
		named:      []argSpec{{name: "replica.lag.time.max.ms", kind: kindMs}, {name: "group.consumer.migration.policy", kind: kindChoice, choices: core.MigrationPolicies()}},
	},
	{
		name:       CmdBroker,
		usage:      "broker crash|restart|isolate|heal ID | broker slow ID pace=N/s",
		positional: []argSpec{{name: "action", kind: kindChoice, choices: BrokerActions}, {name: "broker", kind: kindCount, min: 1, max: MaxBrokers, names: brokerIDs}},
		named:      []argSpec{{name: "pace", kind: kindRate}},
		check:      checkBroker,
	},
	{
		name:       CmdAnswer,
		usage:      "answer QUESTION TEXT",
		positional: []argSpec{{name: "question", kind: kindName}, {name: "text", kind: kindText}},
	},
	// The named producers' commands are in apply_producers.go, the share
	// groups' in apply_share.go.
}, producerCommandSpecs, shareCommandSpecs)

// specByName indexes commandSpecs.
var specByName = func() map[string]*commandSpec {
	m := make(map[string]*commandSpec, len(commandSpecs))
	for _, s := range commandSpecs {
		m[s.name] = s
	}
	return m
}()

// CommandNames lists the language's commands, sorted.
func CommandNames() []string {
	names := make([]string, 0, len(commandSpecs))
	for _, s := range commandSpecs {
		names = append(names, s.name)
	}
	sort.Strings(names)
	return names
}

// CommandArgs lists what a command takes besides its plain positionals:
// its name=value arguments and bare flags, by name, and for a positional
// that is one of a few words (config topic|group, broker crash|...), each
// word. Config names are not listed: TopicConfigNames and GroupConfigNames
// list them.
func CommandArgs(command string) []string {
	s, ok := specByName[command]
	if !ok {
		return nil
	}
	var args []string
	for _, p := range s.positional {
		if p.kind == kindChoice {
			args = append(args, p.choices...)
		}
	}
	for _, n := range s.named {
		args = append(args, n.name)
	}
	return append(args, s.flags...)
}

// GroupConfigNames lists the consumer group configs the language accepts,
// sorted: what config group takes (by their names; the language reads
// their aliases too, for old links).
func GroupConfigNames() []string { return configNames(core.OnGroup) }

// TopicConfigNames lists the topic configs the language accepts, by
// Kafka's names, sorted: what topic and config topic take.
func TopicConfigNames() []string { return configNames(core.OnTopic) }

// configNames lists the names of the registry's configs of target.
func configNames(target core.ConfigTarget) []string {
	var names []string
	for _, d := range core.Configs(target) {
		names = append(names, d.Name)
	}
	return names
}

// FlagWords lists, sorted, the bare words some command reads as a flag
// (tombstone, commit, to-earliest, ...): a name spelled like one must be
// quoted where that command would read the flag instead.
func FlagWords() []string {
	var words []string
	for _, s := range commandSpecs {
		for _, f := range s.flags {
			if !slices.Contains(words, f) {
				words = append(words, f)
			}
		}
	}
	sort.Strings(words)
	return words
}

// Usage returns the usage line of a command, or "" for an unknown one.
func Usage(command string) string {
	if s, ok := specByName[command]; ok {
		return s.usage
	}
	return ""
}

// canonicalValue checks text against the kind of spec and returns its
// canonical spelling.
func canonicalValue(spec argSpec, text string) (string, error) {
	switch spec.kind {
	case kindName:
		return parseName(text, spec.name)
	case kindCount:
		if spec.minusOne && text == "-1" {
			return text, nil
		}
		if spec.minusOneRefused != "" && text == "-1" {
			return "", fmt.Errorf("expected a whole number, got \"-1\": %s", spec.minusOneRefused)
		}
		n, err := parseCount(text, spec.max)
		if err != nil {
			return "", err
		}
		if n < spec.min {
			return "", fmt.Errorf("must be at least %d, got %d", spec.min, n)
		}
		return strconv.FormatInt(n, 10), nil
	case kindSigned:
		n, err := parseSigned(text, 1<<62)
		if err != nil {
			return "", err
		}
		return strconv.FormatInt(n, 10), nil
	case kindDuration:
		ms, err := parseDuration(text)
		if err != nil {
			return "", err
		}
		return formatDuration(ms), nil
	case kindMs:
		if text == "-1" {
			return text, nil
		}
		if n, err := parseCount(text, maxDurationMs); err == nil {
			return formatDuration(n), nil
		}
		ms, err := parseDuration(text)
		if err != nil {
			return "", fmt.Errorf("expected a duration like 500ms, 10s, 5m, 2h or 7d (or -1), got %q", text)
		}
		return formatDuration(ms), nil
	case kindBytes:
		if text == "-1" {
			return text, nil
		}
		if n, err := parseCount(text, maxSizeBytes); err == nil {
			return formatSize(n), nil
		}
		b, err := parseSize(text)
		if err != nil {
			return "", fmt.Errorf("expected a size like 512B, 4KB or 1MB (or -1), got %q", text)
		}
		return formatSize(b), nil
	case kindTopicPartition:
		if _, _, err := parseTopicPartition(text); err != nil {
			return "", err
		}
		return canonicalTopicPartition(text), nil
	case kindMemberOrPartition, kindNameOrPartition:
		if strings.Contains(text, "/") {
			if _, _, err := parseTopicPartition(text); err != nil {
				return "", err
			}
			return canonicalTopicPartition(text), nil
		}
		return parseName(text, spec.name)
	case kindNameList:
		if _, err := parseNameList(text, "topic"); err != nil {
			return "", err
		}
		return text, nil
	case kindText:
		return text, nil
	case kindKeyList:
		return canonicalKeyList(text)
	case kindKeyPattern:
		return canonicalKeyPattern(text)
	case kindRate:
		r, err := parseRate(text)
		if err != nil {
			return "", err
		}
		return r.String(), nil
	case kindChoice:
		for _, c := range spec.choices {
			if text == c {
				return text, nil
			}
		}
		return "", fmt.Errorf("expected one of %s, got %q%s", strings.Join(spec.choices, ", "), text, suggest(text, spec.choices))
	case kindWordList:
		return canonicalWordList(spec, text)
	case kindBool:
		if text == "true" || text == "false" {
			return text, nil
		}
		return "", fmt.Errorf("expected true or false, got %q", text)
	case kindDecimal:
		return canonicalDecimal(text)
	}
	return "", fmt.Errorf("unknown kind of value for %s", spec.name)
}

// canonicalTopicPartition drops leading zeros from the partition number.
func canonicalTopicPartition(text string) string {
	topic, p, _ := parseTopicPartition(text)
	return topic + "/" + strconv.Itoa(p)
}

// canonicalWordList checks a comma-separated list of choices and writes it
// sorted, so compact,delete and delete,compact are one policy.
func canonicalWordList(spec argSpec, text string) (string, error) {
	words := strings.Split(text, ",")
	seen := map[string]bool{}
	for _, w := range words {
		ok := false
		for _, c := range spec.choices {
			ok = ok || w == c
		}
		if !ok {
			return "", fmt.Errorf("expected a comma-separated list of %s, got %q%s", strings.Join(spec.choices, ", "), text, suggest(w, spec.choices))
		}
		if seen[w] {
			return "", fmt.Errorf("%q is listed twice in %q", w, text)
		}
		seen[w] = true
	}
	sort.Strings(words)
	return strings.Join(words, ","), nil
}

// canonicalDecimal checks a positive decimal number of at most 10 and
// writes it without needless zeros. Only digits and one point are allowed,
// so every platform reads it the same way.
func canonicalDecimal(text string) (string, error) {
	bad := fmt.Errorf("expected a decimal number like 1.2, got %q", text)
	whole, frac, _ := strings.Cut(text, ".")
	if whole == "" || len(text) > 12 || strings.TrimLeft(whole+frac, "0123456789") != "" {
		return "", bad
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return "", bad
	}
	if f <= 0 || f > 10 {
		return "", fmt.Errorf("must be above 0 and at most 10, got %s", text)
	}
	return strconv.FormatFloat(f, 'f', -1, 64), nil
}

// canonicalKeyList checks a workload's list of keys: at most MaxKeyList
// keys, none empty, none twice, none longer than MaxWorkloadKeyBytes, none
// starting or ending with a space. The order stays as written: sequence
// goes through the keys in it, and zipf makes the first the hottest.
func canonicalKeyList(text string) (string, error) {
	keys := strings.Split(text, ",")
	if len(keys) > MaxKeyList {
		return "", fmt.Errorf("%d keys is more than a workload draws from; give at most %d", len(keys), MaxKeyList)
	}
	seen := make(map[string]bool, len(keys))
	for i, k := range keys {
		switch {
		case k == "":
			return "", fmt.Errorf("key %d is empty: write the keys between commas, such as acct-1,acct-2,acct-3", i+1)
		case strings.TrimSpace(k) != k:
			return "", fmt.Errorf("key %q starts or ends with a space: write no space beside the commas", k)
		case len(k) > MaxWorkloadKeyBytes:
			return "", fmt.Errorf("key %d is %d bytes; a workload's key may be at most %d", i+1, len(k), MaxWorkloadKeyBytes)
		case seen[k]:
			return "", fmt.Errorf("%q is listed twice", k)
		}
		seen[k] = true
	}
	return text, nil
}

// KeyNumber is what a workload's key pattern holds once: where the number
// its keys= mode draws goes.
const KeyNumber = "{n}"

// canonicalKeyPattern checks a workload's key pattern: {n} exactly once,
// at most MaxWorkloadKeyBytes in all.
func canonicalKeyPattern(text string) (string, error) {
	switch n := strings.Count(text, KeyNumber); {
	case n == 0:
		return "", fmt.Errorf("a pattern holds {n} where the drawn number goes, such as tenant-{n}, got %q; for keys of your own, write keylist= with them (keylist=K1,K2)", text)
	case n > 1:
		return "", fmt.Errorf("a pattern holds {n} once, got %d in %q", n, text)
	case len(text) > MaxWorkloadKeyBytes:
		return "", fmt.Errorf("the pattern is %d bytes; it may be at most %d", len(text), MaxWorkloadKeyBytes)
	}
	return text, nil
}

// errAt makes a parse error pointing at an argument of c.
func errAt(c *Command, a Arg, format string, args ...any) error {
	return &Error{Line: c.Line, Col: a.Col, Msg: fmt.Sprintf(format, args...)}
}

func checkProduce(c *Command) error {
	if a, ok := c.arg("tombstone"); ok {
		if v, ok := c.arg("value"); ok {
			return errAt(c, v, "a tombstone has no value: give value= or tombstone, not both")
		}
		if _, ok := c.arg("key"); !ok {
			// Kafka accepts a keyless record with a null value on a topic
			// that is not compacted (LogValidator refuses keyless records
			// on compacted topics only); the playground writes no null
			// value but a tombstone's, and a link holding such a line
			// keeps stopping here.
			return errAt(c, a, "a tombstone needs a key (it deletes that key when the topic is compacted); Kafka also takes a record with neither key nor value on a topic that is not compacted, which the playground does not write: give a key, or value= (empty is a value)")
		}
	}
	return nil
}

// The checks run inside the parser, on arguments it has just read: they
// read the typed values it filled.

func checkAdvance(c *Command) error {
	if c.Args[0].typed.n == 0 {
		return errAt(c, c.Args[0], "advance needs a duration above 0")
	}
	return nil
}

func checkConfig(c *Command) error {
	for _, a := range c.Args {
		if a.Name != "" && !a.Flag {
			return nil
		}
	}
	return &Error{Line: c.Line, Col: c.endCol, Msg: "config needs at least one config=value, such as retention.ms=1h"}
}

func checkCommit(c *Command) error {
	target := c.Args[1]
	off, hasOffset := c.arg("offset")
	isPartition := target.typed.isPartition
	switch {
	case isPartition && !hasOffset:
		return errAt(c, target, "an explicit commit of %s needs offset=N", target.Value)
	case !isPartition && hasOffset:
		return errAt(c, off, "offset= commits one partition: write commit GROUP TOPIC/PARTITION offset=N")
	}
	if epoch, ok := c.arg("epoch"); ok && isPartition {
		return errAt(c, epoch, "epoch= is a member's commit: write commit GROUP MEMBER epoch=N")
	}
	return nil
}

// checkJoin refuses what the Kafka 4 client's ConsumerConfig refuses
// (checkUnsupportedConfigsPostProcess, kafka-clients 4.4): a
// partition.assignment.strategy (strategy=) with group.protocol=consumer,
// and a group.remote.assignor with classic.
func checkJoin(c *Command) error {
	protocol, _ := c.arg("group.protocol")
	consumer := protocol.Value == core.ProtocolConsumer
	if strategy, ok := c.arg("strategy"); ok && consumer {
		return errAt(c, strategy, "partition.assignment.strategy cannot be set when group.protocol=CONSUMER (Kafka's ConfigException): the coordinator assigns partitions with a server-side assignor; ask for one with group.remote.assignor=%s", strings.Join(core.ServerAssignors(), "|"))
	}
	if assignor, ok := c.arg("group.remote.assignor"); ok && !consumer {
		return errAt(c, assignor, "group.remote.assignor cannot be set when group.protocol=CLASSIC (Kafka's ConfigException): write group.protocol=consumer too")
	}
	return nil
}

func checkReset(c *Command) error {
	var modes []Arg
	for _, name := range []string{"to-earliest", "to-latest", "to-offset", "to-datetime"} {
		if a, ok := c.arg(name); ok {
			modes = append(modes, a)
		}
	}
	switch len(modes) {
	case 0:
		return &Error{Line: c.Line, Col: c.endCol, Msg: "reset needs one of to-earliest, to-latest, to-offset=N or to-datetime=DURATION"}
	case 1:
		return nil
	}
	return errAt(c, modes[1], "reset takes one of to-earliest, to-latest, to-offset or to-datetime, not both %s and %s", modes[0].Name, modes[1].Name)
}

func checkProducer(c *Command) error {
	keys := "none"
	if a, ok := c.arg("keys"); ok {
		keys = a.Value
	}
	keyspace, hasKeyspace := c.arg("keyspace")
	exponent, hasExponent := c.arg("exponent")
	list, hasList := c.arg("keylist")
	pattern, hasPattern := c.arg("key")
	switch {
	case keys == "none" && hasList:
		return errAt(c, list, "keylist= gives the keys that keys=sequence, uniform or zipf draws from: give one of those too")
	case keys == "none" && hasPattern:
		return errAt(c, pattern, "key= names the keys that keys=sequence, uniform or zipf draws: give one of those too")
	case hasList && hasPattern:
		return errAt(c, pattern, "key= and keylist= both name the keys: give a pattern with {n} or a list, not both")
	case hasList && hasKeyspace:
		return errAt(c, keyspace, "keyspace= and keylist= both give the keys: the list's %d keys are the keyspace, leave out keyspace=", len(list.typed.names))
	case (keys == "uniform" || keys == "zipf") && !hasKeyspace && !hasList:
		return &Error{Line: c.Line, Col: c.endCol, Msg: fmt.Sprintf("keys=%s draws from keyspace=N keys: give keyspace= (or keylist= with the keys)", keys)}
	case keys != "uniform" && keys != "zipf" && hasKeyspace:
		return errAt(c, keyspace, "keyspace= applies to keys=uniform or keys=zipf")
	case keys == "zipf" && !hasExponent:
		return &Error{Line: c.Line, Col: c.endCol, Msg: "keys=zipf needs exponent=X (1 is classic Zipf; higher is more skewed)"}
	case keys != "zipf" && hasExponent:
		return errAt(c, exponent, "exponent= applies to keys=zipf")
	}
	return nil
}

func checkBroker(c *Command) error {
	pace, hasPace := c.arg("pace")
	switch {
	case c.Positional(0) == "slow" && !hasPace:
		return &Error{Line: c.Line, Col: c.endCol, Msg: "broker slow needs pace=N/s: how many records per second its followers copy"}
	case c.Positional(0) != "slow" && hasPace:
		return errAt(c, pace, "pace= applies to broker slow")
	}
	return nil
}
