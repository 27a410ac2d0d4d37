package lesson

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"plog/core"
	"plog/core/scenario"
	"plog/core/units"
)

// The check language says a lesson's goal: one check a line, or checks
// combined with and, or, not and parentheses (combine.go), each a name and
// its arguments, words or name=value, with double quotes around a value
// with spaces; # starts a comment. The goal holds when every line holds;
// the learner reads the first line that does not, in that check's words.
// There are no loops or variables: each check is one pass over the state
// (or, for the few that need the order of events, one replay of the
// script, which the scenario language's own limits bound), so no goal runs
// for ever.

// check is one check of a goal line: a check's name and its arguments,
// read.
type check struct {
	spec  *checkSpec
	args  []string          // positionals
	named map[string]string // name=value arguments
	line  int               // in the lesson file
	col   int               // of the check's name, in its line
	// owner is the check a check run with its arguments filled in stands
	// for: what it finds is the owner's.
	owner *check
	// parsed is what the check's validate read its arguments into, once,
	// for checks whose arguments are more than words (expect's
	// *comparison); nil for the others.
	parsed any
	// errAt is where in the positional a validate's error points, in
	// runes from its start: an argument of one of expect's functions.
	errAt int
}

// checkSpec is one check of the language.
type checkSpec struct {
	name string
	// usage shows the arguments: positionals in capitals, [name=value]
	// optional ones, ... for a repeated last positional.
	usage string
	help  string
	// min and max count the positionals.
	min, max int
	named    []string // the name=value arguments it takes
	// validate checks a line's arguments once, when the file is read, and
	// returns a message for the first wrong one and its 0-based
	// positional index (-1 for the line).
	validate func(c *check) (string, int)
	run      func(x *ctx, c *check) Result
	// values names what run finds and keeps (ctx.keep), for else: and
	// solved: to quote.
	values []string
}

// maxInOrder bounds in-order's values, which it looks up for every record.
const maxInOrder = 16

// checkSpecs is the language's vocabulary.
var checkSpecs = slices.Concat(ownChecks, consumerChecks, producerChecks, shareChecks, questionChecks, expectChecks) // checks_consumer.go, checks_producers.go, checks_share.go, checks_question.go, expect.go

// ownChecks are the checks of this file. A table of its own, not the
// first argument of an append: the compiler writes a package variable's
// composite literal into the wasm's data, but builds it in the package's
// init, in some 30 KB of code, when it is an operand of a call.
var ownChecks = []*checkSpec{
	{name: "in-order", usage: "in-order TOPIC KEY VALUE...", min: 3, max: 2 + maxInOrder,
		help:   "the records with key KEY in TOPIC sit in one partition, and records with the values VALUE... (up to 16) come in that order",
		values: []string{"partition"}, run: checkInOrder},
	{name: "apart", usage: "apart TOPIC KEY OTHER-KEY", min: 3, max: 3,
		help:   "the records with key KEY in TOPIC sit in one partition, and the first record with key OTHER-KEY in another",
		values: []string{"partition", "other-partition"}, run: checkApart},
	{name: "new-entities", usage: "new-entities TOPIC N EVENT...", min: 3, max: 2 + maxInOrder,
		help:     "TOPIC holds the events of at least N entities the lesson's start did not: a record is an event of the entity its value names before a colon (order-8:created), or, when its value is one of EVENT... (up to 16), of its key",
		validate: countAt(1), values: []string{"count", "where", "entity", "partition"}, run: checkNewEntities},
	{name: "entities-in-order", usage: "entities-in-order TOPIC EVENT...", min: 2, max: 1 + maxInOrder,
		help:   "each new entity's events in TOPIC (as new-entities reads them) sit in one partition, with EVENT... in that order",
		values: []string{"entity"}, run: checkEntitiesInOrder},
	{name: "entities-one-key", usage: "entities-one-key TOPIC EVENT...", min: 2, max: 1 + maxInOrder,
		help:   "each new entity's events in TOPIC (as new-entities reads them) carry one key",
		values: []string{"entity", "keys"}, run: checkEntitiesOneKey},
	{name: "entities-own-key", usage: "entities-own-key TOPIC EVENT...", min: 2, max: 1 + maxInOrder,
		help:   "no two new entities in TOPIC (as new-entities reads them) share a key",
		values: []string{"entity", "other", "key"}, run: checkEntitiesOwnKey},
	{name: "read-in-order", usage: "read-in-order GROUP TOPIC EVENT...", min: 3, max: 2 + maxInOrder,
		help:   "group GROUP received the events EVENT... of each new entity in TOPIC (as new-entities reads them), the first delivery of each in that order",
		values: []string{"entity", "unread", "late", "early"}, run: checkReadInOrder},
	{name: "lag-at-most", usage: "lag-at-most GROUP N [topic=TOPIC]", min: 2, max: 2, named: []string{"topic"},
		help:     "group GROUP has committed offsets, and on every partition (of TOPIC) it is at most N records behind; a share group, its share lag on every share-partition (KIP-1226)",
		validate: countAt(1), values: []string{"lag", "partition"}, run: checkLagAtMost},
	{name: "owned", usage: "owned TOPIC GROUP", min: 2, max: 2,
		help: "no partition of TOPIC is without an owner: each is assigned to a running member of GROUP, which is not rebalancing",
		run:  checkOwned},
	{name: "log-start-at-least", usage: "log-start-at-least TOPIC/PARTITION N", min: 2, max: 2,
		help:     "the log start offset of the partition is at least N: retention, compaction or truncation removed the records below it",
		validate: both(partitionAt(0), countAt(1)), run: checkLogStart},
	{name: "delivered-twice", usage: "delivered-twice GROUP [topic=TOPIC or TOPIC/PARTITION]", min: 1, max: 1, named: []string{"topic"},
		help:   "group GROUP received a record (of TOPIC, or of one partition) a second time",
		values: []string{"delivered", "twice", "offsets"}, run: checkDeliveredTwice},
	{name: "alert-in-time", usage: "alert-in-time GROUP TOPIC/PARTITION", min: 2, max: 2,
		help:     "group GROUP's lag alert can fire before retention deletes what it has not read: lag.alert.ms below the topic's retention.ms, or lag.alert.records below the records the partition holds",
		validate: partitionAt(1), values: []string{"rule", "retention", "retained"}, run: checkAlertInTime},
	{name: "alerted-before-loss", usage: "alerted-before-loss GROUP", min: 1, max: 1,
		help:   "after the lesson's start, group GROUP's lag alert was on before auto.offset.reset moved it over records it had not read, as a replay of the script shows",
		values: []string{"warned", "lost-at", "lost", "reset", "to"}, run: checkAlertedBeforeLoss},
	{name: "spread", usage: "spread TOPIC SKEW N", min: 3, max: 3,
		help:     "over the last minute TOPIC got at least N records, spread over its partitions with a skew (the busiest partition's share over the mean; 1 is even) of at most SKEW",
		validate: both(ratioAt(1), countAt(2)), values: spreadValues, run: checkSpread},
	{name: "spread-ahead", usage: "spread-ahead TOPIC SKEW N", min: 3, max: 3,
		help:     "as spread, over the next minute, as the workloads running now would produce it",
		validate: both(ratioAt(1), countAt(2)), values: spreadValues, run: checkSpreadAhead},
	{name: "aged-out", usage: "aged-out TOPIC", min: 1, max: 1,
		help:   "retention deleted a segment of TOPIC by age (retention.ms), as a replay of the script shows",
		values: []string{"from", "to", "at", "retention"}, run: checkAgedOut},
	{name: "truncated", usage: "truncated TOPIC", min: 1, max: 1,
		help: "records of TOPIC were deleted by DeleteRecords (truncate), as a replay of the script shows",
		run:  checkTruncated},
	{name: "outlived", usage: "outlived TOPIC/PARTITION", min: 1, max: 1,
		help:     "the partition still holds a record older than retention.ms, kept by a younger record in its segment",
		validate: partitionAt(0), values: []string{"offset", "value", "age", "segment-age", "retention"}, run: checkOutlived},
	{name: "kept", usage: "kept TOPIC/PARTITION", min: 1, max: 1,
		help:     "the partition still holds, at the same offsets, every record it held after the lesson's start",
		validate: partitionAt(0), values: []string{"offset", "value"}, run: checkKept},
	{name: "groups-read-all", usage: "groups-read-all TOPIC/PARTITION N", min: 2, max: 2,
		help:     "at least N groups have each received every record the partition holds",
		validate: both(partitionAt(0), countAt(1)), values: []string{"groups", "span"}, run: checkGroupsReadAll},
	{name: "reread", usage: "reread TOPIC/PARTITION", min: 1, max: 1,
		help:     "one of the groups that received every record of the partition received a record of its topic a second time",
		validate: partitionAt(0), values: []string{"group", "groups", "span"}, run: checkReread},
	{name: "received", usage: "received GROUP TOPIC/PARTITION N", min: 3, max: 3,
		help:     "group GROUP has received at least N of the partition's records",
		validate: both(partitionAt(1), countAt(2)), values: []string{"count"}, run: checkReceived},
	{name: "restarted", usage: "restarted GROUP TOPIC/PARTITION", min: 2, max: 2,
		help:     "group GROUP read the partition in more than one generation: a rebalance (a consumer restarting, say) came between its reads",
		validate: partitionAt(1), values: []string{"offset"}, run: checkRestarted},
	{name: "committed-at-least", usage: "committed-at-least GROUP TOPIC/PARTITION N", min: 3, max: 3,
		help:     "group GROUP's committed offset on the partition is at least N",
		validate: both(partitionAt(1), countAt(2)), values: []string{"committed"}, run: checkCommittedAtLeast},
	{name: "read-by-another", usage: "read-by-another GROUP TOPIC/PARTITION", min: 2, max: 2,
		help:     "another group has received every record of the partition that group GROUP read in its first generation",
		validate: partitionAt(1), values: []string{"group"}, run: checkReadByAnother},
	{name: "processed-all", usage: "processed-all GROUP TOPIC", min: 2, max: 2,
		help:   "group GROUP's members processed, or are processing, every record TOPIC retains",
		values: []string{"offsets", "records"}, run: checkProcessedAll},
	{name: "read-all", usage: "read-all GROUP TOPIC", min: 2, max: 2,
		help:   "group GROUP received every record TOPIC retains below its high watermark (what consumers may read)",
		values: []string{"partition"}, run: checkReadAll},
	{name: "config", usage: "config TOPIC NAME=VALUE", min: 1, max: 1, named: []string{"*"},
		help:     "topic TOPIC's config NAME is VALUE (values as the scenario language writes them: 7d, 1MB, compact)",
		validate: validConfig, run: checkConfig},
	{name: "records-at-least", usage: "records-at-least TOPIC N [key=KEY]", min: 2, max: 2, named: []string{"key"},
		help:     "TOPIC retains at least N records (with key KEY)",
		validate: countAt(1), run: checkRecordsAtLeast},
	{name: "tombstone", usage: "tombstone TOPIC KEY", min: 2, max: 2,
		help:   "KEY is out of TOPIC's table: its latest record is a tombstone (no value at all, not an empty one), or none is left",
		values: []string{"value"}, run: checkTombstone},
	{name: "empty-value", usage: "empty-value TOPIC KEY", min: 2, max: 2,
		help: "the latest record of KEY in TOPIC has an empty value, which keeps KEY in the table (a tombstone has no value at all)",
		run:  checkEmptyValue},
	{name: "rebuilt", usage: "rebuilt TOPIC/PARTITION", min: 1, max: 1,
		help:     "a group read the compacted partition, skipping what compaction removed, and the latest value of each key it read makes the partition's table",
		validate: partitionAt(0), values: []string{"group", "read", "offsets", "table"}, run: checkRebuilt},
	{name: "compacted", usage: "compacted TOPIC", min: 1, max: 1,
		help: "the cleaner has removed records from TOPIC: a partition holds fewer records than its offsets span",
		run:  checkCompacted},
	{name: "alert", usage: "alert GROUP", min: 1, max: 1,
		help:   "group GROUP's lag alert (lag.alert.ms or lag.alert.records) is on",
		values: []string{"rule", "reason", "lag", "time-lag"}, run: checkAlert},
	{name: "alert-rule", usage: "alert-rule GROUP", min: 1, max: 1,
		help:   "group GROUP has a lag alert rule, lag.alert.ms or lag.alert.records",
		values: []string{"rule"}, run: checkAlertRule},
	{name: "same-alert-rule", usage: "same-alert-rule GROUP OTHER-GROUP", min: 2, max: 2,
		help:   "groups GROUP and OTHER-GROUP have the same lag alert rule",
		values: []string{"rule", "other-rule"}, run: checkSameAlertRule},
	{name: "lost-to-reset", usage: "lost-to-reset GROUP", min: 1, max: 1,
		help: "auto.offset.reset moved group GROUP over records it had not read, which retention or truncation deleted",
		run:  checkLostToReset},
	{name: "lost-unprocessed", usage: "lost-unprocessed GROUP", min: 1, max: 1,
		help:   "group GROUP committed records that a member which stopped had not processed (at-most-once)",
		values: []string{"lost"}, run: checkLostUnprocessed},
	{name: "exists", usage: "exists GROUP", min: 1, max: 1,
		help:   "group GROUP (a consumer group or a share group) exists: a member has joined it, or a config set for it",
		values: []string{"split", "running"}, run: checkExists},
	{name: "pick-group", usage: "pick-group TOPIC [not=GROUP,...] [strategy=NAME]", min: 1, max: 1, named: []string{"not", "strategy"},
		help:   "some group (but those named) has a member that reads TOPIC; the first in name order, or the last with strategy NAME: later lines name it {LABEL.group}",
		values: []string{"group", "split"}, run: checkPickGroup},
	{name: "keys-together", usage: "keys-together", min: 0, max: 0,
		help:   "in every topic, each key's records sit in one partition",
		values: []string{"topic", "key", "partitions"}, run: checkKeysTogether},
	{name: "pick-topic", usage: "pick-topic [not=TOPIC,...] [partitions=N]", min: 0, max: 0, named: []string{"not", "partitions"},
		help:   "some topic (but those named) has at least N partitions; the first in name order, or a later one while it holds no record: later lines name it {LABEL.topic}",
		values: []string{"topic"}, run: checkPickTopic},
	{name: "switched", usage: "switched OLD-TOPIC NEW-TOPIC", min: 2, max: 2,
		help:   "NEW-TOPIC holds records, and OLD-TOPIC got none after the first of them: the producers moved from OLD-TOPIC to NEW-TOPIC",
		values: []string{"switch-at", "key", "value", "at"}, run: checkSwitched},
	{name: "drained", usage: "drained GROUP OLD-TOPIC NEW-TOPIC", min: 3, max: 3,
		help:   "group GROUP had read every record of OLD-TOPIC when the first record went to NEW-TOPIC",
		values: []string{"switch-at", "unread", "records"}, run: checkDrained},
	{name: "member", usage: "member GROUP MEMBER", min: 2, max: 2,
		help: "MEMBER is a member of GROUP",
		run:  checkMember},
	{name: "topic", usage: "topic TOPIC", min: 1, max: 1,
		help:   "topic TOPIC exists",
		values: []string{"partitions"}, run: checkTopic},
	{name: "running-at-least", usage: "running-at-least GROUP N", min: 2, max: 2,
		help:     "group GROUP has at least N running members",
		validate: countAt(1), values: []string{"count"}, run: checkRunningAtLeast},
	{name: "deploy-began", usage: "deploy-began GROUP", min: 1, max: 1,
		help: "a member of GROUP has stopped or left: a rolling restart began, as a replay of the script shows",
		run:  checkDeployBegan},
	{name: "restarted-all", usage: "restarted-all GROUP", min: 1, max: 1,
		help:   "every member of GROUP has stopped or left and joined again, as a replay of the script shows",
		values: []string{"todo"}, run: checkRestartedAll},
	{name: "deploy-cheaper", usage: "deploy-cheaper GROUP OTHER-GROUP N", min: 3, max: 3,
		help:     "since each group's restarts began, GROUP's rebalances stopped at most 1/N as many partitions as OTHER-GROUP's",
		validate: countAt(2), values: []string{"rebalances", "stopped", "other-rebalances", "other-stopped", "timeouts", "session-timeout"}, run: checkDeployCheaper},
	{name: "settled", usage: "settled GROUP", min: 1, max: 1,
		help: "group GROUP is not rebalancing and waits for no member that stopped",
		run:  checkSettled},
	{name: "rebalanced", usage: "rebalanced GROUP", min: 1, max: 1,
		help:   "group GROUP has completed a rebalance since the lesson's start, and is settled",
		values: tallyValues, run: checkRebalanced},
	{name: "same-change", usage: "same-change GROUP OTHER-GROUP", min: 2, max: 2,
		help:   "groups GROUP and OTHER-GROUP changed their running members by as many since the lesson's start",
		values: []string{"change", "other-change"}, run: checkSameChange},
	{name: "stopped-fewer", usage: "stopped-fewer GROUP OTHER-GROUP", min: 2, max: 2,
		help:   "since the lesson's start, group GROUP's rebalances stopped fewer partitions than OTHER-GROUP's (a partition stops while its owner gives it up and nobody reads it)",
		values: []string{"stopped", "other-stopped"}, run: checkStoppedFewer},
	{name: "members", usage: "members GROUP N", min: 2, max: 2,
		help:     "group GROUP has exactly N running members and is not rebalancing",
		validate: countAt(1), values: []string{"count"}, run: checkMembers},
	{name: "idle", usage: "idle GROUP MEMBER", min: 2, max: 2,
		help:   "member MEMBER of GROUP runs and owns no partition: the group has more members than partitions",
		values: []string{"assignment"}, run: checkIdle},
	{name: "strategy", usage: "strategy GROUP NAME", min: 2, max: 2,
		help:   "group GROUP assigns with strategy NAME (range, roundrobin, sticky, cooperative-sticky)",
		values: []string{"strategy"}, run: checkStrategy},
	{name: "in-sync-at-least", usage: "in-sync-at-least TOPIC/PARTITION N", min: 2, max: 2,
		help:     "at least N replicas of the partition are in sync (its ISR)",
		validate: both(partitionAt(0), countAt(1)), run: checkInSync},
	{name: "online", usage: "online TOPIC/PARTITION", min: 1, max: 1,
		help:     "the partition has a leader, so that it can be read and written",
		validate: partitionAt(0), values: []string{"reason"}, run: checkOnline},
	{name: "replicated", usage: "replicated TOPIC N", min: 2, max: 2,
		help:     "topic TOPIC has a replication factor of at least N",
		validate: countAt(1), run: checkReplicated},
	{name: "leader-changed", usage: "leader-changed TOPIC/PARTITION", min: 1, max: 1,
		help:     "the partition's first leader no longer leads it: another was elected (a new leader epoch), or it is offline",
		validate: partitionAt(0), values: []string{"leader"}, run: checkLeaderChanged},
	{name: "unclean-loss", usage: "unclean-loss TOPIC [min-isr-below=N]", min: 1, max: 1, named: []string{"min-isr-below"},
		help:     "the latest election of a leader of TOPIC was unclean (the new leader was not in the ISR) and lost records whose producers had been told they were written (with min.insync.replicas below N then), as a replay of the script shows",
		validate: namedCount("min-isr-below"), values: []string{"leader", "partition", "lost", "were", "min-isr", "isr"}, run: checkUncleanLoss},
	{name: "lost-acked", usage: "lost-acked TOPIC", min: 1, max: 1,
		help:   "after a broker crashed, a new leader from the ISR led a partition of TOPIC without records whose producers had been told they were written (acks=1), as a replay of the script shows",
		values: append([]string{"lost"}, electionValues...), run: checkLostAcked},
	{name: "survived-acked", usage: "survived-acked TOPIC", min: 1, max: 1,
		help:   "after a broker crashed, a new leader from the ISR led a partition of TOPIC with every acknowledged record, among them acks=all records acknowledged under min.insync.replicas of 2 or more since its previous election, as a replay of the script shows",
		values: append([]string{"kept"}, electionValues...), run: checkSurvivedAcked},
	{name: "failed-by-crash", usage: "failed-by-crash TOPIC", min: 1, max: 1,
		help:   "the latest election of a leader of TOPIC followed a broker's crash that answered waiting acks=all records with an error, none acknowledged since the election before, as a replay of the script shows",
		values: []string{"crashed", "records", "told"}, run: checkFailedByCrash},
	{name: "writable", usage: "writable TOPIC/PARTITION", min: 1, max: 1,
		help:     "at least min.insync.replicas replicas of the partition are in sync, so it takes acks=all writes",
		validate: partitionAt(0), values: []string{"isr", "min-isr", "bring-back"}, run: checkWritable},
	{name: "none-waiting", usage: "none-waiting TOPIC/PARTITION", min: 1, max: 1,
		help:     "no acks=all record of the partition waits for the in-sync replicas",
		validate: partitionAt(0), run: checkNoneWaiting},
	{name: "holds", usage: "holds LABEL...", min: 1, max: MaxChecks,
		help: "the lines above with the labels LABEL... held (a maybe line holds or not without standing in the goal's way)",
		run:  checkHolds},
}

// not is the word before a check that makes it hold when the check does
// not: `not alert analytics`; or joins checks of which one must hold
// (and, combine.go, checks that all must). maybe makes a line that never stands in
// the goal's way: what it finds adds to the solved: sentence when it
// holds (a [part] of the sentence that quotes it shows only then).
const (
	not   = "not"
	maybe = "maybe"
	or    = "or"
)

// CheckDoc is one check of the language, as docs/lessons.md documents it.
type CheckDoc struct {
	Name, Usage, Help string
	Values            []string // what else: and solved: may quote
}

// Checks lists the check language's checks.
func Checks() []CheckDoc {
	out := make([]CheckDoc, len(checkSpecs))
	for i, s := range checkSpecs {
		out[i] = CheckDoc{s.name, s.usage, s.help, s.values}
	}
	return out
}

// parseChecks reads a ## check section; first is the file line of
// lines[0].
func parseChecks(lines []string, first int) ([]goalLine, error) {
	var out []goalLine
	labels := map[string]bool{}
	for i, line := range lines {
		n := first + i
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "else:"); ok && strings.TrimLeft(line, " \t") != line {
			if len(out) == 0 || out[len(out)-1].otherwise != "" {
				return nil, &scenario.Error{Line: n, Col: 1, Msg: "an else: line goes under a check, once, indented"}
			}
			g := &out[len(out)-1]
			g.otherwise = strings.TrimSpace(rest)
			at := strings.Index(line, "else:") + len("else:")
			at += len(line[at:]) - len(strings.TrimLeft(line[at:], " \t"))
			col := utf8.RuneCountInString(line[:at]) + 1
			g.otherwiseAt.line, g.otherwiseAt.col = n, col
			g.quotes = map[string]term{}
			if err := checkTemplate(g.otherwise, n, col, func(label, name string) string {
				if isQuote(name) {
					return readQuote(g.quotes, name)
				}
				if label != "" {
					return quotable(out[:len(out)-1], label, name, "else:")
				}
				return g.noValue(name)
			}); err != nil {
				return nil, err
			}
			controls, err := sentenceControls(g.otherwise, n, col)
			if err != nil {
				return nil, err
			}
			g.controls = controls
			continue
		}
		toks, err := checkTokens(line, n)
		if err != nil {
			return nil, err
		}
		if len(toks) == 0 {
			continue
		}
		label := ""
		if name, ok := strings.CutSuffix(toks[0].text, ":"); ok && !toks[0].paren {
			if !isSlug(name) {
				return nil, &scenario.Error{Line: n, Col: toks[0].col, Msg: fmt.Sprintf("the label %q is not a word of lower-case letters, digits and -", name)}
			}
			if labels[name] {
				return nil, &scenario.Error{Line: n, Col: toks[0].col, Msg: fmt.Sprintf("the label %s names another line already", name)}
			}
			if len(toks) == 1 {
				return nil, &scenario.Error{Line: n, Col: toks[0].col, Msg: fmt.Sprintf("the label %s: names no check: write the check after it", name)}
			}
			labels[name] = true
			label, toks = name, toks[1:]
		}
		if len(out) == MaxChecks {
			return nil, &scenario.Error{Line: n, Col: 1, Msg: fmt.Sprintf("a goal has at most %d checks", MaxChecks)}
		}
		optional := false
		if isWord(toks[0], maybe) && len(toks) > 1 {
			optional, toks = true, toks[1:]
		}
		expr, terms, err := readGoal(toks, n)
		if err != nil {
			return nil, err
		}
		for _, c := range terms {
			if c.spec.name == "holds" {
				for _, name := range c.args {
					if !labels[name] || name == label {
						return nil, &scenario.Error{Line: n, Col: c.col, Msg: fmt.Sprintf("holds names %s, which labels no line above", name)}
					}
				}
			}
			for _, a := range c.args {
				if err := checkTemplate(a, n, c.col, func(label, name string) string {
					return quotable(out, label, name, "an argument")
				}); err != nil {
					return nil, err
				}
			}
		}
		out = append(out, goalLine{line: n, text: strings.TrimSpace(stripComment(line)), optional: optional,
			label: label, expr: expr, terms: terms})
	}
	return out, nil
}

// quotable says what is wrong with quoting {label.name} of the lines
// above, "" when it names a labelled line's value.
func quotable(above []goalLine, label, name, what string) string {
	if label == "" {
		return fmt.Sprintf("%s quotes a labelled line above, {LABEL.%s}", what, name)
	}
	for i := range above {
		if above[i].label == label {
			return above[i].noValue(name)
		}
	}
	return fmt.Sprintf("no line above has the label %s", label)
}

// checkToken is a word of a check line and its column (from 1).
type checkToken struct {
	text string
	col  int
	// paren is set on a ( or ) that groups checks, a word of its own.
	paren bool
	// quoted is set on a word with a part in double quotes: never an
	// operator ("and" is the word and).
	quoted bool
}

// checkTokens splits a line into words; a double-quoted part of a word
// may hold spaces (and makes the word no operator), and # outside quotes
// starts a comment. A ( that begins
// a word (or follows not, and, or), and a ) that closes no ( of its word
// (a function's, as in hw(orders/0)), group checks and are words of their
// own.
func checkTokens(line string, n int) ([]checkToken, error) {
	var toks []checkToken
	var word strings.Builder
	start, inWord, quoted, wordQuoted := 0, false, false, false
	col, depth := 0, 0
	flush := func() {
		if inWord {
			toks = append(toks, checkToken{text: word.String(), col: start, quoted: wordQuoted})
			word.Reset()
		}
		inWord, wordQuoted, depth = false, false, 0
	}
	for _, r := range line {
		col++
		switch {
		case !quoted && r == '(' && (!inWord || !wordQuoted && slices.Contains([]string{not, and, or}, word.String())):
			// not(alert x) is not a function: not, then a group.
			flush()
			toks = append(toks, checkToken{text: "(", col: col, paren: true})
			continue
		case !quoted && r == '(':
			depth++
		case !quoted && r == ')' && depth > 0:
			depth--
		case !quoted && r == ')':
			flush()
			toks = append(toks, checkToken{text: ")", col: col, paren: true})
			continue
		case quoted && r == '"':
			quoted = false
			continue
		case quoted:
			word.WriteRune(r)
			continue
		case r == '"':
			if !inWord {
				start, inWord = col, true
			}
			quoted, wordQuoted = true, true
			continue
		case r == '#' && !inWord:
			return toks, nil
		case r == ' ' || r == '\t':
			flush()
			continue
		}
		if !inWord {
			start, inWord = col, true
		}
		word.WriteRune(r)
	}
	if quoted {
		return nil, &scenario.Error{Line: n, Col: start, Msg: "this quote is never closed"}
	}
	flush()
	return toks, nil
}

// stripComment cuts a line's comment: a # outside quotes that begins a
// word.
func stripComment(line string) string {
	quoted := false
	for i, r := range line {
		switch {
		case r == '"':
			quoted = !quoted
		case r == '#' && !quoted && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return line[:i]
		}
	}
	return line
}

// buildCheck reads one check, its name and arguments.
func buildCheck(toks []checkToken, n int) (*check, error) {
	var spec *checkSpec
	var names []string
	for _, s := range checkSpecs {
		names = append(names, s.name)
		if s.name == toks[0].text {
			spec = s
		}
	}
	if spec == nil {
		return nil, &scenario.Error{Line: n, Col: toks[0].col, Msg: unknownWord("check", toks[0].text, names)}
	}
	c := &check{spec: spec, named: map[string]string{}, line: n}
	cols := []int{}
	for _, t := range toks[1:] {
		// expect's words are its own: a value may hold = (an alert rule,
		// lag.alert.ms=10m).
		if name, value, ok := strings.Cut(t.text, "="); ok && name != "" && spec.name != "expect" {
			if !slices.Contains(spec.named, name) && !slices.Contains(spec.named, "*") {
				return nil, &scenario.Error{Line: n, Col: t.col, Msg: fmt.Sprintf("%s takes no %s= (usage: %s)", spec.name, name, spec.usage)}
			}
			if _, dup := c.named[name]; dup {
				return nil, &scenario.Error{Line: n, Col: t.col, Msg: fmt.Sprintf("%s= is given twice", name)}
			}
			if value == "" {
				return nil, &scenario.Error{Line: n, Col: t.col, Msg: fmt.Sprintf("%s= has no value", name)}
			}
			c.named[name] = value
			continue
		}
		c.args = append(c.args, t.text)
		cols = append(cols, t.col)
	}
	end := toks[len(toks)-1].col + utf8.RuneCountInString(toks[len(toks)-1].text)
	if len(c.args) < spec.min {
		return nil, &scenario.Error{Line: n, Col: end, Msg: fmt.Sprintf("%s needs %d arguments here, not %d (usage: %s)", spec.name, spec.min, len(c.args), spec.usage)}
	}
	if len(c.args) > spec.max {
		return nil, &scenario.Error{Line: n, Col: cols[spec.max], Msg: fmt.Sprintf("%s takes %d arguments, not %d (usage: %s)", spec.name, spec.max, len(c.args), spec.usage)}
	}
	if spec.validate != nil {
		if msg, at := spec.validate(c); msg != "" {
			col := toks[0].col
			if at >= 0 && at < len(cols) {
				col = cols[at] + c.errAt
			}
			return nil, &scenario.Error{Line: n, Col: col, Msg: msg}
		}
	}
	return c, nil
}

// countAt validates a whole number at positional i.
func countAt(i int) func(c *check) (string, int) {
	return func(c *check) (string, int) {
		if _, err := strconv.ParseInt(c.args[i], 10, 64); err != nil || strings.HasPrefix(c.args[i], "-") {
			return fmt.Sprintf("%q is not a whole number (usage: %s)", c.args[i], c.spec.usage), i
		}
		return "", -1
	}
}

// ratioAt validates a decimal number at positional i.
func ratioAt(i int) func(c *check) (string, int) {
	return func(c *check) (string, int) {
		if f, err := strconv.ParseFloat(c.args[i], 64); err != nil || f < 0 {
			return fmt.Sprintf("%q is not a number such as 1.5 (usage: %s)", c.args[i], c.spec.usage), i
		}
		return "", -1
	}
}

// partitionAt validates TOPIC/PARTITION at positional i.
func partitionAt(i int) func(c *check) (string, int) {
	return func(c *check) (string, int) {
		if _, _, ok := splitPartition(c.args[i]); !ok {
			return fmt.Sprintf("%q is not TOPIC/PARTITION, such as orders/0 (usage: %s)", c.args[i], c.spec.usage), i
		}
		return "", -1
	}
}

func both(a, b func(c *check) (string, int)) func(c *check) (string, int) {
	return func(c *check) (string, int) {
		if msg, at := a(c); msg != "" {
			return msg, at
		}
		return b(c)
	}
}

func splitPartition(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, '/')
	if i <= 0 {
		return "", 0, false
	}
	p, err := strconv.Atoi(s[i+1:])
	return s[:i], p, err == nil && p >= 0
}

func (c *check) count(i int) int64 {
	n, _ := strconv.ParseInt(c.args[i], 10, 64)
	return n
}

// validConfig checks config's one NAME=VALUE through the scenario
// language, which knows every topic config and how to write its values.
func validConfig(c *check) (string, int) {
	if len(c.named) != 1 {
		return fmt.Sprintf("config checks one NAME=VALUE (usage: %s)", c.spec.usage), -1
	}
	if _, err := canonicalConfig(c); err != nil {
		return err.Error(), -1
	}
	return "", -1
}

// canonicalConfig writes config's NAME=VALUE as the scenario language
// writes it (the form core.TopicConfig.Entries uses).
func canonicalConfig(c *check) (scenario.Arg, error) {
	for name, value := range c.named {
		cmd, _, err := scenario.ParseLine(fmt.Sprintf("config topic %s %s=%s", quoteWord(c.args[0]), name, quoteWord(value)), 1)
		if err != nil {
			msg := err.Error()
			if perr, ok := err.(*scenario.Error); ok {
				msg = perr.Msg
			}
			return scenario.Arg{}, fmt.Errorf("%s", msg)
		}
		for _, a := range cmd.Args {
			if a.Name != "" {
				return a, nil
			}
		}
	}
	return scenario.Arg{}, fmt.Errorf("config checks one NAME=VALUE")
}

func quoteWord(s string) string {
	if strings.ContainsAny(s, " \t#=\"") {
		return strconv.Quote(s)
	}
	return s
}

// namedCount validates a whole number given as name=N.
func namedCount(name string) func(c *check) (string, int) {
	return func(c *check) (string, int) {
		if v, ok := c.named[name]; ok {
			if n, err := strconv.ParseInt(v, 10, 64); err != nil || n < 0 {
				return fmt.Sprintf("%s=%q is not a whole number (usage: %s)", name, v, c.spec.usage), -1
			}
		}
		return "", -1
	}
}

// The checks. Each returns a Result: Solved when its line holds, with a
// sentence either way.

func checkHolds(x *ctx, c *check) Result {
	for _, label := range c.args {
		i := slices.IndexFunc(x.lesson.checks, func(l goalLine) bool { return l.label == label })
		if i < 0 {
			return pending("no line has the label %s", label)
		}
		if !x.holds[&x.lesson.checks[i]] {
			return pending("the line %s: does not hold", label)
		}
	}
	return solved("the lines %s hold", units.Join(c.args))
}

func checkApart(x *ctx, c *check) Result {
	topic, key, other := c.args[0], c.args[1], c.args[2]
	var mine, theirs []placed
	for _, r := range x.allRecords(topic) {
		switch {
		case r.HasKey && r.Key == key:
			mine = append(mine, r)
		case r.HasKey && r.Key == other:
			theirs = append(theirs, r)
		}
	}
	ps, qs := partitionsOf(mine), partitionsOf(theirs)
	switch {
	case len(ps) != 1:
		return pending("%s's records sit in %d partitions of %s, not one", key, len(ps), topic)
	case len(qs) == 0:
		return pending("%s holds no record with key %s", topic, other)
	case theirs[0].partition == ps[0]:
		return pending("%s and %s share partition %d of %s", key, other, ps[0], topic)
	}
	x.keep(c, "partition", fmt.Sprint(ps[0]))
	x.keep(c, "other-partition", fmt.Sprint(theirs[0].partition))
	return solved("%s's records sit in %s/%d, apart from %s's", key, topic, ps[0], other)
}

func checkInOrder(x *ctx, c *check) Result {
	topic, key, values := c.args[0], c.args[1], c.args[2:]
	var recs, keyless []placed
	for _, r := range x.allRecords(topic) {
		switch {
		case r.HasKey && r.Key == key:
			recs = append(recs, r)
		case !r.HasKey && slices.Contains(values, r.Value):
			keyless = append(keyless, r)
		}
	}
	if len(recs) == 0 {
		if len(keyless) > 0 {
			return pending("the %s records have no key, so the partitioner chose partitions %s for them, with no promise of order: give them key=%s",
				units.Join(values), joinInts(partitionsOf(keyless)), key)
		}
		return pending("no record with key %s yet: produce %s's %s event first", key, key, values[0])
	}
	if msg := inOrder(key, recs, func(r placed) string { return r.Value }, values); msg != "" {
		return pending("%s", msg)
	}
	x.keep(c, "partition", fmt.Sprint(recs[0].partition))
	return solved("%s's records sit in %s/%d in the order %s", key, topic, recs[0].partition, strings.Join(values, ", "))
}

func checkLagAtMost(x *ctx, c *check) Result {
	name, most, topic := c.args[0], c.count(1), c.named["topic"]
	v, ok := x.group(name)
	if !ok {
		if sv, err := x.log.ShareGroup(name); err == nil {
			return shareLagAtMost(x, c, sv, most, topic)
		}
		return noGroup(x, name)
	}
	committed := 0
	for _, p := range v.Partitions {
		if topic != "" && p.Topic != topic || !p.HasCommitted {
			continue
		}
		committed++
		if p.Lag > most {
			x.keep(c, "lag", units.Plural(p.Lag, "record"))
			x.keep(c, "partition", fmt.Sprintf("%s/%d", p.Topic, p.Partition))
			return pending("group %s is %s behind on %s/%d; at most %d may be", name, units.Plural(p.Lag, "record"), p.Topic, p.Partition, most)
		}
	}
	if committed == 0 {
		return pending("group %s has committed no offset%s yet, so it has no lag to measure: poll and commit", name, onTopic(topic))
	}
	return solved("group %s is at most %s behind on every partition%s", name, units.Plural(most, "record"), onTopic(topic))
}

// noGroup says why a check found no consumer group of a name: there is
// none yet, or it is a share group, which the check does not read (a
// silent "no group" sent a teacher looking for a typo).
func noGroup(x *ctx, name string) Result {
	if _, err := x.log.ShareGroup(name); err == nil {
		return pending("%s is a share group: this check reads a consumer group's members and offsets, which a share group has not (its checks begin with share-)", name)
	}
	return pending("there is no group %s yet", name)
}

// shareLagAtMost is lag-at-most of a share group: share lag, as Kafka 4.4
// computes it for each share-partition (KIP-1226,
// GroupCoordinatorService: the high watermark less the share-partition
// start offset less the records acknowledged or archived above it).
func shareLagAtMost(x *ctx, c *check, v core.ShareGroupView, most int64, topic string) Result {
	seen := 0
	for _, p := range v.Partitions {
		if topic != "" && p.Topic != topic {
			continue
		}
		seen++
		if p.Lag > most {
			x.keep(c, "lag", units.Plural(p.Lag, "record"))
			x.keep(c, "partition", fmt.Sprintf("%s/%d", p.Topic, p.Partition))
			return pending("share group %s is %s behind on %s/%d; at most %d may be", v.Name, units.Plural(p.Lag, "record"), p.Topic, p.Partition, most)
		}
	}
	if seen == 0 {
		return pending("share group %s reads no partition%s yet, so it has no lag to measure: a member must poll", v.Name, onTopic(topic))
	}
	return solved("share group %s is at most %s behind on every partition%s", v.Name, units.Plural(most, "record"), onTopic(topic))
}

func onTopic(topic string) string {
	if topic == "" {
		return ""
	}
	return " of " + topic
}

func checkOwned(x *ctx, c *check) Result {
	topic, name := c.args[0], c.args[1]
	n := x.partitions(topic)
	if n == 0 {
		return pending("there is no topic %s yet", topic)
	}
	v, ok := x.group(name)
	if !ok {
		return noGroup(x, name)
	}
	if msg := waiting(v, x.log.Now()); msg != "" {
		return pending("%s", msg)
	}
	for p := range n {
		pv, ok := partitionView(v, topic, p)
		if !ok || pv.Owner == "" {
			return pending("%s/%d has no owner in group %s: a member must subscribe to %s", topic, p, name, topic)
		}
		if m, ok := member(v, pv.Owner); !ok || m.Down != "" {
			return pending("%s/%d belongs to %s, which is not running", topic, p, pv.Owner)
		}
	}
	return solved("every partition of %s has an owner in group %s", topic, name)
}

func checkLogStart(x *ctx, c *check) Result {
	topic, p, _ := splitPartition(c.args[0])
	least := c.count(1)
	start, err := x.log.LogStartOffset(topic, p)
	if err != nil {
		return pending("there is no partition %s yet", c.args[0])
	}
	if start < least {
		return pending("the log start offset of %s is %d; it must reach %d", c.args[0], start, least)
	}
	return solved("the log start offset of %s is %d", c.args[0], start)
}

func checkDeliveredTwice(x *ctx, c *check) Result {
	name, topic := c.args[0], c.named["topic"]
	v, ok := x.group(name)
	if !ok {
		return noGroup(x, name)
	}
	x.keep(c, "delivered", fmt.Sprint(v.Totals.Delivered))
	x.keep(c, "twice", fmt.Sprint(v.Totals.Redelivered))
	if topic != "" {
		// topic= names a topic, or one partition as TOPIC/PARTITION.
		t, p, onePartition := splitPartition(topic)
		var again []int64
		for _, d := range v.Deliveries {
			if d.Redelivery && (d.Topic == topic || onePartition && d.Topic == t && d.Partition == p) {
				again = append(again, d.Record.Offset)
			}
		}
		x.keep(c, "offsets", joinInts(again))
		if len(again) > 0 {
			return solved("group %s received offsets %s of %s a second time", name, joinInts(again), topic)
		}
		return pending("group %s has received no record of %s twice yet", name, topic)
	}
	if v.Totals.Redelivered > 0 {
		return solved("group %s received %d of its %d deliveries a second time", name, v.Totals.Redelivered, v.Totals.Delivered)
	}
	// What keeps a redelivery from coming: a crash after the commit, or
	// one before it whose partitions nobody has taken over yet.
	base, _ := x.baseline().Group(name)
	_, down := downMember(v)
	crashed := down || liveMembers(v) < liveMembers(base)
	unprocessed := slices.ContainsFunc(v.Deliveries, func(d core.DeliveryLogEntry) bool { return d.Outcome == core.OutcomeUnprocessed })
	switch {
	case crashed && !unprocessed:
		return pending("%s's consumer stopped after committing what it had polled, so its successor began where it finished: nothing came twice; crash a member between its poll and its commit", name)
	case unprocessed:
		return pending("%s's crashed member left records unprocessed; once its session times out the other member takes over: advance the clock and poll with it", name)
	}
	return pending("nothing has reached %s twice yet: poll with a member of %s, and crash it before it commits", name, name)
}

// groupAndTopic reads the GROUP TOPIC a check names: the group's view
// and the topic's partition count, or a pending result naming what is not
// there.
func groupAndTopic(x *ctx, c *check) (core.GroupView, int, *Result) {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return v, 0, missing
	}
	n := x.partitions(c.args[1])
	if n == 0 {
		r := pending("there is no topic %s yet", c.args[1])
		return v, 0, &r
	}
	return v, n, nil
}

func checkProcessedAll(x *ctx, c *check) Result {
	name, topic := c.args[0], c.args[1]
	v, n, missing := groupAndTopic(x, c)
	if missing != nil {
		return *missing
	}
	total := 0
	for p := range n {
		recs := x.records(topic, p)
		total += len(recs)
		processed := map[int64]int64{}
		for _, d := range v.Deliveries {
			if d.Topic == topic && d.Partition == p && (d.Outcome == core.OutcomeProcessed || d.Outcome == core.OutcomeProcessing) {
				processed[d.Record.Offset] = d.Time
			}
		}
		if missing := missingOffsets(recs, processed); len(missing) > 0 {
			x.keep(c, "offsets", joinInts(missing))
			return pending("group %s has not processed offsets %s of %s/%d yet", name, joinInts(missing), topic, p)
		}
	}
	x.keep(c, "records", fmt.Sprint(total))
	return solved("group %s processed every record of %s", name, topic)
}

func checkReadAll(x *ctx, c *check) Result {
	name, topic := c.args[0], c.args[1]
	v, n, missing := groupAndTopic(x, c)
	if missing != nil {
		return *missing
	}
	for p := range n {
		// Consumers read below the high watermark only.
		hw, _ := x.log.HighWatermark(topic, p)
		recs := x.records(topic, p) // in offset order
		for len(recs) > 0 && recs[len(recs)-1].Offset >= hw {
			recs = recs[:len(recs)-1]
		}
		if missing := missingOffsets(recs, deliveredOffsets(v, topic, p)); len(missing) > 0 {
			x.keep(c, "partition", fmt.Sprintf("%s/%d", topic, p))
			return pending("group %s has not received %s of %s/%d yet", name, units.Plural(int64(len(missing)), "record"), topic, p)
		}
	}
	return solved("group %s received every record of %s", name, topic)
}

func checkConfig(x *ctx, c *check) Result {
	topic := c.args[0]
	want, err := canonicalConfig(c)
	if err != nil {
		return pending("%v", err)
	}
	cfg, err := x.log.TopicConfig(topic)
	if err != nil {
		return pending("there is no topic %s yet", topic)
	}
	for _, e := range cfg.Entries() {
		if e.Name == want.Name {
			if e.Value != want.Value {
				return pending("%s's %s is %s; set it to %s", topic, e.Name, e.Value, want.Value)
			}
			return solved("%s's %s is %s", topic, e.Name, e.Value)
		}
	}
	return pending("%s has no config %s under these rules", topic, want.Name)
}

// run runs one line: its checks, combined. A line with an else: says
// that instead when it does not hold.
func (g *goalLine) run(x *ctx) Result {
	r := g.expr.eval(x)
	if !r.Solved && g.otherwise != "" {
		value := func(label, name string) string {
			switch {
			case isQuote(name):
				return x.quote(g.quotes, name)
			case label == "":
				return g.value(x, name)
			}
			return x.labelled(label, name)
		}
		shown := keptParts(g.otherwise, func(label, name string) bool { return value(label, name) != "" })
		x.noteUnfilled("else:", g.otherwise, shown, g.otherwiseAt.line, g.otherwiseAt.col, value)
		r.Progress, r.ProgressDoc = fill(shown, value)
	}
	return r
}

// unfilledValue is a value a sentence quotes outside [ ] that was not
// there when the sentence showed: the learner read a gap.
type unfilledValue struct {
	sentence    string // "else:" or "solved:"
	placeholder string // as written, label.name or name
	line, col   int    // in the lesson file
	why         string // for a function, why it had no value
}

// noteUnfilled notes the values a shown sentence quotes and has not;
// tmpl is the sentence as written, at line:col of the file.
func (x *ctx) noteUnfilled(sentence, tmpl, shown string, line, col int, value func(label, name string) string) {
	placeholders(shown, func(_ int, label, name string) {
		if value(label, name) != "" {
			return
		}
		ref := name
		if label != "" {
			ref = label + "." + name
		}
		at := col + utf8.RuneCountInString(tmpl[:max(strings.Index(tmpl, "{"+ref), 0)])
		x.unfilled = append(x.unfilled, unfilledValue{sentence: sentence, placeholder: ref, line: line, col: at, why: x.quoteErrs[ref]})
	})
}

// labelled returns a value a labelled line found.
func (x *ctx) labelled(label, name string) string {
	for j := range x.lesson.checks {
		if x.lesson.checks[j].label == label {
			return x.lesson.checks[j].value(x, name)
		}
	}
	return ""
}

// keptParts drops the [parts] of a sentence that quote a value keep says
// is not there, and the brackets of the others; its control links stay.
func keptParts(tmpl string, keep func(label, name string) bool) string {
	var b strings.Builder
	for tmpl != "" {
		open, end := nextPart(tmpl)
		if open < 0 {
			b.WriteString(tmpl)
			break
		}
		b.WriteString(tmpl[:open])
		part, shown := tmpl[open+1:end], true
		placeholders(part, func(_ int, label, name string) { shown = shown && keep(label, name) })
		if shown {
			b.WriteString(part)
		}
		tmpl = tmpl[end+1:]
	}
	return b.String()
}

// runOne runs one check. Arguments that quote a labelled line above,
// {LABEL.NAME}, are filled in first.
func (c *check) runOne(x *ctx) Result {
	run := c
	if slices.ContainsFunc(c.args, func(a string) bool { return strings.Contains(a, "{") }) {
		filled := *c
		filled.args, filled.owner = slices.Clone(c.args), c
		for i, a := range filled.args {
			filled.args[i] = expand(a, x.labelled)
		}
		run = &filled
	}
	return c.spec.run(x, run)
}

// held records that a line held, so that solved: may quote it.
func (x *ctx) held(g *goalLine) {
	if x.holds == nil {
		x.holds = map[*goalLine]bool{}
	}
	x.holds[g] = true
}

// expandSolved fills a solved: sentence from the lines that held, as
// fill does. A [part] quoting a line that did not hold (a maybe line) is
// left out.
func expandSolved(tmpl string, x *ctx, checks []goalLine) (string, []Inline) {
	line := func(label string) *goalLine {
		for i := range checks {
			if checks[i].label == label {
				return &checks[i]
			}
		}
		return nil
	}
	value := func(label, name string) string {
		if isQuote(name) {
			return x.quote(x.lesson.solvedQuotes, name)
		}
		if g := line(label); g != nil {
			return g.value(x, name)
		}
		return ""
	}
	// A [part] shows when the line it quotes held, or when the function
	// it quotes has a value now.
	held := func(label, name string) bool {
		if isQuote(name) {
			return value(label, name) != ""
		}
		g := line(label)
		return g != nil && x.holds[g]
	}
	shown := keptParts(tmpl, held)
	x.noteUnfilled("solved:", tmpl, shown, x.lesson.lines.solved, len("solved:")+2, value)
	return fill(shown, value)
}

// keep records a value a check found, for else: and solved: to quote.
func (x *ctx) keep(c *check, name, value string) {
	if c.owner != nil {
		c = c.owner
	}
	if x.values == nil {
		x.values = map[*check]map[string]string{}
	}
	if x.values[c] == nil {
		x.values[c] = map[string]string{}
	}
	x.values[c][name] = value
}

func valueList(spec *checkSpec) string {
	if len(spec.values) == 0 {
		return "it has none to quote"
	}
	return "it has {" + strings.Join(spec.values, "}, {") + "}"
}

// placeholders finds the {name} and {label.name} of a sentence, and the
// {function(arguments)} that quote one of expect's functions (the name
// is then the function as written, the label ""), calling f with each and
// its byte offset; other braces are plain text. A count may name what it
// counts, {lost:payment}, to read "3 payments".
func placeholders(tmpl string, f func(at int, label, name string)) {
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] != '{' {
			continue
		}
		end := strings.IndexByte(tmpl[i:], '}')
		if end < 0 {
			return
		}
		ref, noun, counted := strings.Cut(tmpl[i+1:i+end], ":")
		if isQuote(ref) && (!counted || isSlug(noun)) {
			f(i, "", ref)
			i += end
			continue
		}
		label, name, dotted := strings.Cut(ref, ".")
		if !dotted {
			label, name = "", ref
		}
		if isSlug(name) && (!dotted || isSlug(label)) && (!counted || isSlug(noun)) {
			f(i, label, name)
			i += end
		}
	}
}

// checkTemplate validates a sentence's placeholders: bad says what is
// wrong with one, "" when it is known.
func checkTemplate(tmpl string, line, col int, bad func(label, name string) string) error {
	var err error
	placeholders(tmpl, func(at int, label, name string) {
		if msg := bad(label, name); msg != "" && err == nil {
			err = &scenario.Error{Line: line, Col: col + utf8.RuneCountInString(tmpl[:at]), Msg: msg}
		}
	})
	return err
}

// expand fills a sentence's placeholders.
func expand(tmpl string, value func(label, name string) string) string {
	var b strings.Builder
	last := 0
	placeholders(tmpl, func(at int, label, name string) {
		b.WriteString(tmpl[last:at])
		last = at + strings.IndexByte(tmpl[at:], '}') + 1
		v := value(label, name)
		if _, noun, counted := strings.Cut(tmpl[at+1:last-1], ":"); counted {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				v = units.Plural(n, noun)
			}
		}
		b.WriteString(v)
	})
	b.WriteString(tmpl[last:])
	return b.String()
}

// evaluate runs a lesson's checks in order and returns the first that
// does not hold, with its index, or the goal solved and -1.
func evaluate(x *ctx, checks []goalLine) (Result, int) {
	var held []string
	for i := range checks {
		r := checks[i].run(x)
		switch {
		case r.Solved:
			x.held(&checks[i])
			held = append(held, r.Progress)
		case !checks[i].optional:
			return r, i
		}
	}
	progress := strings.Join(held, "; ")
	if !strings.HasSuffix(progress, ".") {
		progress += "."
	}
	return Result{Solved: true, Progress: progress}, -1
}

func checkRecordsAtLeast(x *ctx, c *check) Result {
	topic, least, key := c.args[0], c.count(1), c.named["key"]
	if x.partitions(topic) == 0 {
		return pending("there is no topic %s yet", topic)
	}
	var n int64
	for _, r := range x.allRecords(topic) {
		if key == "" || r.HasKey && r.Key == key {
			n++
		}
	}
	withKey := ""
	if key != "" {
		withKey = " with key " + key
	}
	if n < least {
		return pending("%s holds %s%s; it must hold at least %d", topic, units.Plural(n, "record"), withKey, least)
	}
	return solved("%s holds %s%s", topic, units.Plural(n, "record"), withKey)
}

// latest returns the latest record of a key in a topic, nil for none.
func (x *ctx) latest(topic, key string) *placed {
	var last *placed
	recs := x.allRecords(topic)
	for i := range recs {
		if recs[i].HasKey && recs[i].Key == key {
			last = &recs[i]
		}
	}
	return last
}

func checkTombstone(x *ctx, c *check) Result {
	topic, key := c.args[0], c.args[1]
	last := x.latest(topic, key)
	switch {
	case last == nil:
		return solved("%s holds no record with key %s", topic, key)
	case last.Tombstone:
		return solved("%s's latest record in %s is a tombstone", key, topic)
	}
	x.keep(c, "value", last.Value)
	if last.Value == "" {
		return pending("%s's latest record in %s has an empty value, which is a value like any other; a tombstone has no value at all", key, topic)
	}
	return pending("%s's latest record in %s has the value %s, not a tombstone", key, topic, last.Value)
}

func checkEmptyValue(x *ctx, c *check) Result {
	topic, key := c.args[0], c.args[1]
	if last := x.latest(topic, key); last != nil && !last.Tombstone && last.Value == "" {
		return solved("%s's latest record in %s has an empty value, not a tombstone", key, topic)
	}
	return pending("%s's latest record in %s does not have an empty value", key, topic)
}

func checkRebuilt(x *ctx, c *check) Result {
	topic, p, _ := splitPartition(c.args[0])
	recs := x.records(topic, p)
	end, _ := x.log.LogEndOffset(topic, p)
	start, _ := x.log.LogStartOffset(topic, p)
	want := table(recs)
	x.keep(c, "offsets", fmt.Sprint(end-start))
	x.keep(c, "table", tableText(want))
	partial := ""
	for _, name := range x.log.GroupNames() {
		v, _ := x.group(name)
		got := deliveredOffsets(v, topic, p)
		if len(got) == 0 {
			continue
		}
		if missing := missingOffsets(recs, got); len(missing) > 0 {
			partial = fmt.Sprintf("%s has not read offsets %s of %s yet: poll", name, joinInts(missing), topic)
			continue
		}
		if int64(len(got)) >= end-start {
			partial = fmt.Sprintf("%s read %s before it was compacted; read the compacted log with a new group", name, topic)
			continue
		}
		var read []core.Record
		for _, d := range v.Deliveries {
			if d.Topic == topic && d.Partition == p {
				read = append(read, d.Record)
			}
		}
		if built := table(read); tableText(built) != tableText(want) {
			partial = fmt.Sprintf("%s built the table %s, but the log says %s", name, tableText(built), tableText(want))
			continue
		}
		x.keep(c, "group", name)
		x.keep(c, "read", fmt.Sprint(len(got)))
		return solved("%s read %d of %s's %d offsets, skipping what compaction removed, and rebuilt the table %s", name, len(got), topic, end-start, tableText(want))
	}
	if partial != "" {
		return pending("%s", partial)
	}
	return pending("%s is compacted; now rebuild the table: a new group reading %s from the start", topic, topic)
}

func checkCompacted(x *ctx, c *check) Result {
	topic := c.args[0]
	n := x.partitions(topic)
	if n == 0 {
		return pending("there is no topic %s yet", topic)
	}
	for p := range n {
		hw, _ := x.log.LogEndOffset(topic, p)
		start, _ := x.log.LogStartOffset(topic, p)
		if int64(len(x.records(topic, p))) < hw-start {
			return solved("the cleaner removed records from %s/%d", topic, p)
		}
	}
	return pending("%s still holds every record written to it: the cleaner has removed nothing", topic)
}

// groupOr returns a group's view, or a pending result naming it.
func groupOr(x *ctx, name string) (core.GroupView, *Result) {
	v, ok := x.group(name)
	if !ok {
		r := noGroup(x, name)
		return v, &r
	}
	return v, nil
}

func checkAlert(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	x.keep(c, "rule", alertRule(v.Config))
	x.keep(c, "reason", v.AlertReason)
	x.keep(c, "lag", units.Plural(v.TotalLag, "record"))
	x.keep(c, "time-lag", units.SpanToSecond(v.MaxTimeLagMs))
	if v.Alert {
		return solved("group %s alerts: %s", v.Name, v.AlertReason)
	}
	return pending("group %s does not alert (%s; lag %s, time lag %s)", v.Name, alertRule(v.Config), units.Plural(v.TotalLag, "record"), units.SpanToSecond(v.MaxTimeLagMs))
}

func checkLostToReset(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	if n := v.Totals.SkippedByReset; n > 0 {
		return solved("auto.offset.reset=%s moved group %s over %s it had not read", v.Config.AutoOffsetReset, v.Name, units.Plural(n, "record"))
	}
	return pending("group %s has lost no record to auto.offset.reset", v.Name)
}

func checkLostUnprocessed(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	x.keep(c, "lost", fmt.Sprint(v.Totals.LostUnprocessed))
	if n := v.Totals.LostUnprocessed; n > 0 {
		return solved("group %s committed %s a stopped member had not processed", v.Name, units.Plural(n, "record"))
	}
	return pending("group %s has lost no record to a member that stopped after committing", v.Name)
}

func checkSettled(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	if msg := waiting(v, x.log.Now()); msg != "" {
		return pending("%s", msg)
	}
	return solved("group %s is settled", v.Name)
}

// tallyValues are what rebalanced finds.
var tallyValues = []string{"change", "change-words", "rebalances", "stopped", "moved"}

// rebalanceTally sums the rebalances a group went through since the start.
type rebalanceTally struct {
	change                 int // running members now minus at the start
	rounds, stopped, moved int
}

func (x *ctx) tally(v core.GroupView) rebalanceTally {
	b, _ := x.baseline().Group(v.Name)
	t := rebalanceTally{change: liveMembers(v) - liveMembers(b)}
	for _, h := range v.History {
		if h.Generation > b.Generation {
			t.rounds++
			t.moved += h.Moved
			t.stopped += stoppedBy(h)
		}
	}
	return t
}

func checkRebalanced(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	if msg := waiting(v, x.log.Now()); msg != "" {
		return pending("%s", msg)
	}
	t := x.tally(v)
	x.keep(c, "change", fmt.Sprintf("%+d", t.change))
	x.keep(c, "change-words", changeWords(t.change))
	x.keep(c, "rebalances", units.Plural(int64(t.rounds), "rebalance"))
	x.keep(c, "stopped", units.Plural(int64(t.stopped), "partition"))
	x.keep(c, "moved", fmt.Sprint(t.moved))
	if t.rounds == 0 {
		return pending("group %s has not rebalanced since the start", v.Name)
	}
	return solved("group %s went through %s since the start", v.Name, units.Plural(int64(t.rounds), "rebalance"))
}

// twoGroups reads the groups a check compares.
func twoGroups(x *ctx, c *check) (a, b core.GroupView, missing *Result) {
	if a, missing = groupOr(x, c.args[0]); missing == nil {
		b, missing = groupOr(x, c.args[1])
	}
	return a, b, missing
}

func checkSameChange(x *ctx, c *check) Result {
	a, b, missing := twoGroups(x, c)
	if missing != nil {
		return *missing
	}
	ta, tb := x.tally(a), x.tally(b)
	x.keep(c, "change", fmt.Sprintf("%+d", ta.change))
	x.keep(c, "other-change", fmt.Sprintf("%+d", tb.change))
	if ta.change != tb.change {
		return pending("%s's running members changed by %+d and %s's by %+d", a.Name, ta.change, b.Name, tb.change)
	}
	return solved("%s's and %s's running members changed by %+d", a.Name, b.Name, ta.change)
}

func checkStoppedFewer(x *ctx, c *check) Result {
	a, b, missing := twoGroups(x, c)
	if missing != nil {
		return *missing
	}
	ta, tb := x.tally(a), x.tally(b)
	x.keep(c, "stopped", units.Plural(int64(ta.stopped), "partition"))
	x.keep(c, "other-stopped", units.Plural(int64(tb.stopped), "partition"))
	if ta.stopped >= tb.stopped {
		return pending("%s's rebalances stopped %s and %s's %s", a.Name, units.Plural(int64(ta.stopped), "partition"), b.Name, units.Plural(int64(tb.stopped), "partition"))
	}
	return solved("%s's rebalances stopped %s, %s's %s", a.Name, units.Plural(int64(ta.stopped), "partition"), b.Name, units.Plural(int64(tb.stopped), "partition"))
}

func checkMembers(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	if msg := waiting(v, x.log.Now()); msg != "" {
		return pending("%s", msg)
	}
	x.keep(c, "count", fmt.Sprint(liveMembers(v)))
	if n := liveMembers(v); int64(n) != c.count(1) {
		return pending("group %s has %s running; it needs %d", v.Name, units.Plural(int64(n), "member"), c.count(1))
	}
	return solved("group %s has %s running", v.Name, units.Plural(c.count(1), "member"))
}

func checkIdle(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	m, ok := member(v, c.args[1])
	x.keep(c, "assignment", assignmentText(m.Assignment))
	switch {
	case !ok:
		return pending("group %s has no member %s", v.Name, c.args[1])
	case waiting(v, x.log.Now()) != "":
		return pending("%s", waiting(v, x.log.Now()))
	case !m.Idle:
		return pending("%s owns %s", m.ID, assignmentText(m.Assignment))
	}
	return solved("%s sits idle in group %s", m.ID, v.Name)
}

func checkStrategy(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	x.keep(c, "strategy", v.Strategy)
	if v.Strategy != c.args[1] {
		return pending("group %s uses %s, not %s; its first member to join chooses the strategy", v.Name, v.Strategy, c.args[1])
	}
	return solved("group %s uses %s", v.Name, v.Strategy)
}

func checkInSync(x *ctx, c *check) Result {
	rep, missing := replicationOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	if int64(len(rep.ISR)) < c.count(1) {
		return pending("%s has %s in sync; it needs %d", c.args[0], units.Plural(int64(len(rep.ISR)), "replica"), c.count(1))
	}
	return solved("%s has %s in sync", c.args[0], units.Plural(int64(len(rep.ISR)), "replica"))
}

func checkOnline(x *ctx, c *check) Result {
	rep, missing := replicationOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	if rep.Offline {
		x.keep(c, "reason", rep.OfflineReason)
		return pending("%s is offline: %s", c.args[0], rep.OfflineReason)
	}
	return solved("%s is online, led by broker %d", c.args[0], rep.Leader)
}

func checkAlertRule(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	rule := alertRule(v.Config)
	x.keep(c, "rule", rule)
	if v.Config.LagAlertMs == 0 && v.Config.LagAlertRecords == 0 {
		return pending("group %s has no lag alert rule: give it lag.alert.ms or lag.alert.records", v.Name)
	}
	return solved("group %s alerts on %s", v.Name, rule)
}

func checkSameAlertRule(x *ctx, c *check) Result {
	a, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	b, missing := groupOr(x, c.args[1])
	if missing != nil {
		return *missing
	}
	x.keep(c, "rule", alertRule(a.Config))
	x.keep(c, "other-rule", alertRule(b.Config))
	if a.Config.LagAlertMs != b.Config.LagAlertMs || a.Config.LagAlertRecords != b.Config.LagAlertRecords {
		return pending("%s has %s and %s %s: give them one rule", a.Name, alertRule(a.Config), b.Name, alertRule(b.Config))
	}
	return solved("%s and %s share one rule, %s", a.Name, b.Name, alertRule(a.Config))
}

// partitionReads returns a group's deliveries of one partition, oldest
// first.
func partitionReads(v core.GroupView, topic string, partition int) []core.DeliveryLogEntry {
	var reads []core.DeliveryLogEntry
	for _, d := range v.Deliveries {
		if d.Topic == topic && d.Partition == partition {
			reads = append(reads, d)
		}
	}
	return reads
}

func checkReceived(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	topic, p, _ := splitPartition(c.args[1])
	got := int64(len(deliveredOffsets(v, topic, p)))
	x.keep(c, "count", fmt.Sprint(got))
	if got < c.count(2) {
		return pending("group %s has received %s of %s; it needs %d", v.Name, units.Plural(got, "record"), c.args[1], c.count(2))
	}
	return solved("group %s has received %s of %s", v.Name, units.Plural(got, "record"), c.args[1])
}

// firstRun returns how many of a partition's reads came in the group's
// first generation of them.
func firstRun(reads []core.DeliveryLogEntry) int {
	for i, d := range reads {
		if d.Generation > reads[0].Generation {
			return i
		}
	}
	return len(reads)
}

func checkRestarted(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	topic, p, _ := splitPartition(c.args[1])
	reads := partitionReads(v, topic, p)
	if n := firstRun(reads); n < len(reads) {
		x.keep(c, "offset", fmt.Sprint(reads[n].Record.Offset))
		return solved("group %s went on reading %s at offset %d after a rebalance", v.Name, c.args[1], reads[n].Record.Offset)
	}
	return pending("group %s has read %s in one generation: no rebalance came between its reads", v.Name, c.args[1])
}

func checkCommittedAtLeast(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	topic, p, _ := splitPartition(c.args[1])
	pv, _ := partitionView(v, topic, p)
	committed := "none"
	if pv.HasCommitted {
		committed = fmt.Sprint(pv.Committed)
	}
	x.keep(c, "committed", committed)
	if !pv.HasCommitted || pv.Committed < c.count(2) {
		return pending("group %s's committed offset on %s is %s; it must reach %d", v.Name, c.args[1], committed, c.count(2))
	}
	return solved("group %s committed %s on %s", v.Name, committed, c.args[1])
}

func checkReadByAnother(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	topic, p, _ := splitPartition(c.args[1])
	reads := partitionReads(v, topic, p)
	first := reads[:firstRun(reads)]
	if len(first) == 0 {
		return pending("group %s has not read %s yet", v.Name, c.args[1])
	}
	for _, name := range x.log.GroupNames() {
		if name == v.Name {
			continue
		}
		other, _ := x.group(name)
		seen := deliveredOffsets(other, topic, p)
		all := true
		for _, d := range first {
			if _, ok := seen[d.Record.Offset]; !ok {
				all = false
			}
		}
		if all {
			x.keep(c, "group", name)
			return solved("group %s read the records of %s that %s read first", name, c.args[1], v.Name)
		}
	}
	return pending("no group but %s has read the records of %s that %s read first", v.Name, c.args[1], v.Name)
}

func checkKept(x *ctx, c *check) Result {
	topic, p, _ := splitPartition(c.args[0])
	recs := x.records(topic, p)
	base, _ := x.baseline().Records(topic, p)
	for _, b := range base {
		if !slices.ContainsFunc(recs, func(r core.Record) bool { return r.Offset == b.Offset }) {
			x.keep(c, "offset", fmt.Sprint(b.Offset))
			x.keep(c, "value", b.Value)
			return pending("offset %d (%s) is gone from %s: reading never removes records, but truncation and retention do", b.Offset, b.Value, c.args[0])
		}
	}
	return solved("%s still holds its records at the same offsets", c.args[0])
}

// fullReaders lists, in name order, the groups that received every record
// of a partition, and the first group that received only some.
func (x *ctx) fullReaders(topic string, p int) (readers []string, partial string) {
	recs := x.records(topic, p)
	for _, name := range x.log.GroupNames() {
		v, _ := x.group(name)
		got := deliveredOffsets(v, topic, p)
		switch {
		case len(got) > 0 && len(missingOffsets(recs, got)) == 0:
			readers = append(readers, name)
		case len(got) > 0 && partial == "":
			partial = name
		}
	}
	return readers, partial
}

func checkGroupsReadAll(x *ctx, c *check) Result {
	topic, p, _ := splitPartition(c.args[0])
	recs := x.records(topic, p)
	if len(recs) == 0 {
		return pending("%s holds no record to read", c.args[0])
	}
	span := fmt.Sprintf("offsets %d to %d", recs[0].Offset, recs[len(recs)-1].Offset)
	readers, partial := x.fullReaders(topic, p)
	x.keep(c, "groups", units.Join(readers))
	x.keep(c, "span", span)
	switch {
	case int64(len(readers)) >= c.count(1):
		return solved("groups %s read %s", units.Join(readers), span)
	case len(readers) == 0 && partial != "":
		return pending("group %s has read part of %s; poll until it has read %s", partial, c.args[0], span)
	case len(readers) == 0:
		return pending("no group has read %s yet: join a group, advance the clock for its rebalance, and poll", c.args[0])
	}
	return pending("%s read %s; %d groups must", units.Join(readers), span, c.count(1))
}

func checkReread(x *ctx, c *check) Result {
	topic, p, _ := splitPartition(c.args[0])
	readers, _ := x.fullReaders(topic, p)
	x.keep(c, "groups", units.Join(readers))
	if recs := x.records(topic, p); len(recs) > 0 {
		x.keep(c, "span", fmt.Sprintf("offsets %d to %d", recs[0].Offset, recs[len(recs)-1].Offset))
	}
	for _, name := range readers {
		v, _ := x.group(name)
		if slices.ContainsFunc(v.Deliveries, func(d core.DeliveryLogEntry) bool { return d.Topic == topic && d.Redelivery }) {
			x.keep(c, "group", name)
			return solved("group %s read %s a second time", name, c.args[0])
		}
	}
	return pending("no group that read all of %s has read it twice", c.args[0])
}

// firstEvent returns the first event of a topic that match says is the
// one, nil for none, from a replay of the script; what names the search,
// so that a goal asking again (two lines, or or) replays once.
func (x *ctx) firstEvent(what, topic string, match func(e core.Event) bool) *core.Event {
	key := what + " " + topic
	if found, ok := x.events[key]; ok {
		return found
	}
	var found *core.Event
	x.replay(func(_ int, _ core.ReadOnlyLog, events []core.Event) {
		for _, e := range events {
			if found == nil && e.Topic == topic && match(e) {
				found = &e
			}
		}
	})
	if x.events == nil {
		x.events = map[string]*core.Event{}
	}
	x.events[key] = found
	return found
}

func checkAgedOut(x *ctx, c *check) Result {
	topic := c.args[0]
	cfg, err := x.log.TopicConfig(topic)
	if err != nil {
		return pending("there is no topic %s yet", topic)
	}
	x.keep(c, "retention", units.Duration(cfg.RetentionMs))
	e := x.firstEvent("aged-out", topic, func(e core.Event) bool {
		return e.Kind == core.EventSegmentDeleted && e.Cause == core.CauseRetentionTime
	})
	if e == nil {
		return pending("retention has not deleted a segment of %s yet: a segment goes once its newest record is more than %s old", topic, units.Duration(cfg.RetentionMs))
	}
	x.keep(c, "from", fmt.Sprint(e.From))
	x.keep(c, "to", fmt.Sprint(e.To-1))
	x.keep(c, "at", units.SpanToSecond(e.Time))
	return solved("retention deleted offsets %d to %d of %s at %s", e.From, e.To-1, topic, units.SpanToSecond(e.Time))
}

func checkTruncated(x *ctx, c *check) Result {
	if x.firstEvent("truncated", c.args[0], func(e core.Event) bool { return e.Kind == core.EventTruncated }) == nil {
		return pending("no record of %s was deleted by DeleteRecords (truncate)", c.args[0])
	}
	return solved("records of %s were deleted by DeleteRecords (truncate)", c.args[0])
}

func checkOutlived(x *ctx, c *check) Result {
	topic, p, _ := splitPartition(c.args[0])
	cfg, err := x.log.TopicConfig(topic)
	if err != nil {
		return pending("there is no topic %s yet", topic)
	}
	x.keep(c, "retention", units.Duration(cfg.RetentionMs))
	now := x.log.Now()
	for _, r := range x.records(topic, p) {
		if now-r.Timestamp <= cfg.RetentionMs {
			continue
		}
		newest := r.Timestamp
		segments, _ := x.log.Segments(topic, p)
		for _, s := range segments {
			if s.BaseOffset <= r.Offset && r.Offset < s.EndOffset {
				newest = s.MaxTimestamp
			}
		}
		x.keep(c, "offset", fmt.Sprint(r.Offset))
		x.keep(c, "value", r.Value)
		x.keep(c, "age", units.SpanToSecond(now-r.Timestamp))
		x.keep(c, "segment-age", units.SpanToSecond(now-newest))
		return solved("offset %d of %s is %s old, older than retention.ms=%s, yet still there: its segment's newest record is %s old",
			r.Offset, c.args[0], units.SpanToSecond(now-r.Timestamp), units.Duration(cfg.RetentionMs), units.SpanToSecond(now-newest))
	}
	return pending("every record left in %s is younger than retention.ms=%s", c.args[0], units.Duration(cfg.RetentionMs))
}

func checkAlertInTime(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	topic, p, _ := splitPartition(c.args[1])
	cfg, err := x.log.TopicConfig(topic)
	if err != nil {
		return pending("there is no topic %s yet", topic)
	}
	retained := int64(len(x.records(topic, p)))
	x.keep(c, "rule", alertRule(v.Config))
	x.keep(c, "retention", units.Duration(cfg.RetentionMs))
	x.keep(c, "retained", units.Plural(retained, "record"))
	if v.Config.LagAlertMs > 0 && v.Config.LagAlertMs < cfg.RetentionMs || v.Config.LagAlertRecords > 0 && v.Config.LagAlertRecords < retained {
		return solved("group %s's alert (%s) can fire before retention (retention.ms=%s) deletes what it has not read", v.Name, alertRule(v.Config), units.Duration(cfg.RetentionMs))
	}
	return pending("group %s's alert (%s) cannot fire before retention deletes records older than retention.ms=%s (%s holds about %s)",
		v.Name, alertRule(v.Config), units.Duration(cfg.RetentionMs), c.args[1], units.Plural(retained, "record"))
}

func checkAlertedBeforeLoss(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	to := "the end"
	if v.Config.AutoOffsetReset == "earliest" {
		to = "the log start"
	}
	x.keep(c, "reset", v.Config.AutoOffsetReset)
	x.keep(c, "to", to)
	// Only a replay tells whether the alert came first: it re-runs every
	// workload.
	warnedAt, lostAt := int64(-1), int64(-1)
	var lost int64
	x.replay(func(step int, l core.ReadOnlyLog, events []core.Event) {
		for _, e := range events {
			if e.Kind == core.EventLostToReset && e.Group == v.Name {
				if lostAt < 0 {
					lostAt = e.Time
				}
				lost += int64(e.Count)
			}
		}
		if step <= x.startLen || lostAt >= 0 || warnedAt >= 0 {
			return
		}
		if g, err := l.Group(v.Name); err == nil && g.Alert {
			warnedAt = l.Now()
		}
	})
	x.keep(c, "lost", units.Plural(lost, "record"))
	x.keep(c, "lost-at", units.SpanToSecond(lostAt))
	x.keep(c, "warned", units.SpanToSecond(warnedAt))
	switch {
	case lostAt < 0:
		return pending("group %s has lost no record to auto.offset.reset yet", v.Name)
	case warnedAt < 0:
		return pending("group %s lost records at %s before its alert was on", v.Name, units.SpanToSecond(lostAt))
	}
	return solved("group %s's alert was on by %s, before it lost records at %s", v.Name, units.SpanToSecond(warnedAt), units.SpanToSecond(lostAt))
}

// producedAhead is the next minute of the workloads running now
// (Session.ProducedAhead), made once for a goal however many lines ask.
func (x *ctx) producedAhead() (core.ReadOnlyLog, error) {
	if x.ahead == nil && x.aheadErr == nil {
		x.ahead, x.aheadErr = x.s.ProducedAhead(spreadWindowMs)
	}
	return x.ahead, x.aheadErr
}

// spreadValues are what spread and spread-ahead find.
var spreadValues = []string{"records", "partitions", "skew", "rough-skew", "top", "share", "key", "key-records"}

// spreadWindowMs is the window spread measures: a minute.
const spreadWindowMs = 60_000

// keepSpread records what a spread found.
func (x *ctx) keepSpread(c *check, sp spread) {
	x.keep(c, "records", fmt.Sprint(sp.total))
	x.keep(c, "partitions", fmt.Sprint(len(sp.counts)))
	x.keep(c, "skew", fmt.Sprintf("%.2f", sp.skew))
	x.keep(c, "rough-skew", fmt.Sprintf("%.1f", sp.skew))
	x.keep(c, "top", fmt.Sprintf("%d", sp.top))
	if sp.total > 0 {
		x.keep(c, "share", fmt.Sprint(sp.counts[sp.top]*100/sp.total))
	}
	key, n := hottestKey(sp.topRecords)
	x.keep(c, "key", key)
	x.keep(c, "key-records", fmt.Sprint(n))
}

func checkSpread(x *ctx, c *check) Result {
	topic := c.args[0]
	most, _ := strconv.ParseFloat(c.args[1], 64)
	last := spreadOf(x.log, topic, x.log.Now()-spreadWindowMs)
	x.keepSpread(c, last)
	if int64(last.total) < c.count(2) {
		return pending("%s got %s in the last minute: keep a producer running so that the spread shows", topic, units.Plural(int64(last.total), "record"))
	}
	if last.skew > most {
		key, n := hottestKey(last.topRecords)
		return pending("in the last minute %s/%d got %d%% of the records (skew %.1f; 1 is even), %d of them with key %s: every record of a key goes to the same partition",
			topic, last.top, last.counts[last.top]*100/last.total, last.skew, n, key)
	}
	return solved("over the last minute %s spread %d records over %d partitions with skew %.2f", topic, last.total, len(last.counts), last.skew)
}

func checkSpreadAhead(x *ctx, c *check) Result {
	topic := c.args[0]
	most, _ := strconv.ParseFloat(c.args[1], 64)
	ahead, err := x.producedAhead()
	if err != nil {
		return pending("the next minute of %s cannot be foreseen: %v", topic, err)
	}
	next := spreadOf(ahead, topic, x.log.Now())
	x.keepSpread(c, next)
	if int64(next.total) < c.count(2) {
		return pending("the last minute of %s spreads evenly, but with the producers running now %s would get %s in the next minute: keep a producer with well-spread keys running",
			topic, topic, units.Plural(int64(next.total), "record"))
	}
	if next.skew > most {
		key, n := hottestKey(next.topRecords)
		return pending("a producer with skewed keys still runs: in the next minute %s/%d would get %d%% of the records (skew %.1f), %d of them with key %s",
			topic, next.top, next.counts[next.top]*100/next.total, next.skew, n, key)
	}
	return solved("the producers running now keep %s's skew at %.2f over the next minute", topic, next.skew)
}

func checkExists(x *ctx, c *check) Result {
	v, ok := x.group(c.args[0])
	if sv, err := x.log.ShareGroup(c.args[0]); !ok && err == nil {
		running := 0
		for _, m := range sv.Members {
			if m.CrashedAt < 0 {
				running++
			}
		}
		x.keep(c, "running", fmt.Sprint(running))
		return solved("share group %s exists", sv.Name)
	}
	if !ok {
		return noGroup(x, c.args[0])
	}
	x.keep(c, "split", groupSplit(v))
	x.keep(c, "running", fmt.Sprint(liveMembers(v)))
	return solved("group %s exists", c.args[0])
}

func checkPickGroup(x *ctx, c *check) Result {
	topic := c.args[0]
	var skip []string
	if list := c.named["not"]; list != "" {
		skip = strings.Split(list, ",")
	}
	var picked core.GroupView
	for _, name := range x.log.GroupNames() {
		if slices.Contains(skip, name) {
			continue
		}
		v, _ := x.group(name)
		reads := slices.ContainsFunc(v.Members, func(m core.MemberView) bool { return slices.Contains(m.Topics, topic) })
		if reads && (picked.Name == "" || c.named["strategy"] != "" && v.Strategy == c.named["strategy"]) {
			picked = v
		}
	}
	if picked.Name == "" {
		return pending("no group%s reads %s yet", notWords(skip), topic)
	}
	x.keep(c, "group", picked.Name)
	x.keep(c, "split", groupSplit(picked))
	return solved("group %s reads %s", picked.Name, topic)
}

func notWords(skip []string) string {
	if len(skip) == 0 {
		return ""
	}
	return " but " + units.Join(skip)
}

func checkMember(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	if _, ok := member(v, c.args[1]); !ok {
		return pending("group %s has no member %s", v.Name, c.args[1])
	}
	return solved("%s is a member of group %s", c.args[1], v.Name)
}

func checkTopic(x *ctx, c *check) Result {
	n := x.partitions(c.args[0])
	if n == 0 {
		return pending("there is no topic %s yet", c.args[0])
	}
	x.keep(c, "partitions", fmt.Sprint(n))
	return solved("topic %s has %s", c.args[0], units.Plural(int64(n), "partition"))
}

func checkRunningAtLeast(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	n := liveMembers(v)
	x.keep(c, "count", fmt.Sprint(n))
	if int64(n) < c.count(1) {
		return pending("group %s has %s running; it needs %d", v.Name, units.Plural(int64(n), "member"), c.count(1))
	}
	return solved("group %s has %s running", v.Name, units.Plural(int64(n), "member"))
}

// deployOf returns a group's restarts from a replay of the script, made
// once for a goal however many lines ask.
func (x *ctx) deployOf(group string) *deploy {
	if x.deployed == nil {
		x.deployed = x.deploys()
	}
	return x.deployed[group]
}

func checkDeployBegan(x *ctx, c *check) Result {
	if d := x.deployOf(c.args[0]); d != nil && d.began >= 0 {
		return solved("group %s's restarts began at %s", c.args[0], units.SpanToSecond(d.began))
	}
	return pending("no member of group %s has stopped or left yet", c.args[0])
}

func checkRestartedAll(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	d := x.deployOf(v.Name)
	var todo []string
	for _, m := range v.Members {
		if d == nil || !d.restarted[m.ID] {
			todo = append(todo, m.ID)
		}
	}
	x.keep(c, "todo", units.Join(todo))
	if len(todo) > 0 {
		return pending("group %s has not restarted %s yet", v.Name, units.Join(todo))
	}
	return solved("every member of group %s restarted", v.Name)
}

func checkDeployCheaper(x *ctx, c *check) Result {
	a, b, missing := twoGroups(x, c)
	if missing != nil {
		return *missing
	}
	d := x.deployOf(a.Name)
	aRebalances, aPaused := deployCost(a, d)
	bRebalances, bPaused := deployCost(b, x.deployOf(b.Name))
	x.keep(c, "rebalances", units.Plural(int64(aRebalances), "rebalance"))
	x.keep(c, "stopped", units.Plural(int64(aPaused), "partition"))
	x.keep(c, "other-rebalances", units.Plural(int64(bRebalances), "rebalance"))
	x.keep(c, "other-stopped", units.Plural(int64(bPaused), "partition"))
	x.keep(c, "session-timeout", units.Duration(a.Config.SessionTimeoutMs))
	if d != nil {
		x.keep(c, "timeouts", units.Join(d.timeouts))
	}
	if int64(aPaused)*c.count(2) > int64(bPaused) {
		return pending("%s's restarts stopped %s in %s, against %s's %s in %s",
			a.Name, units.Plural(int64(aPaused), "partition"), units.Plural(int64(aRebalances), "rebalance"),
			b.Name, units.Plural(int64(bPaused), "partition"), units.Plural(int64(bRebalances), "rebalance"))
	}
	return solved("%s's restarts stopped %s in %s, %s's %s in %s",
		a.Name, units.Plural(int64(aPaused), "partition"), units.Plural(int64(aRebalances), "rebalance"),
		b.Name, units.Plural(int64(bPaused), "partition"), units.Plural(int64(bRebalances), "rebalance"))
}

func checkKeysTogether(x *ctx, c *check) Result {
	for _, topic := range x.log.TopicNames() {
		if key, ps := splitKey(x, topic); key != "" {
			x.keep(c, "topic", topic)
			x.keep(c, "key", key)
			x.keep(c, "partitions", joinInts(ps))
			return pending("in %s, %s's records are split over partitions %s", topic, key, joinInts(ps))
		}
	}
	return solved("in every topic each key's records sit in one partition")
}

func checkPickTopic(x *ctx, c *check) Result {
	var skip []string
	if list := c.named["not"]; list != "" {
		skip = strings.Split(list, ",")
	}
	least, _ := strconv.Atoi(c.named["partitions"])
	picked := ""
	for _, topic := range x.log.TopicNames() {
		if !slices.Contains(skip, topic) && x.partitions(topic) >= max(least, 1) {
			if picked == "" || len(x.allRecords(picked)) == 0 {
				picked = topic
			}
		}
	}
	if picked == "" {
		return pending("no topic%s with at least %s yet", notWords(skip), units.Plural(int64(max(least, 1)), "partition"))
	}
	x.keep(c, "topic", picked)
	return solved("topic %s has %s", picked, units.Plural(int64(x.partitions(picked)), "partition"))
}

// switchAt returns when the first record went to a topic, false when it
// holds none.
func (x *ctx) switchAt(topic string) (int64, bool) {
	fresh := x.allRecords(topic)
	if len(fresh) == 0 {
		return 0, false
	}
	at := fresh[0].Timestamp
	for _, r := range fresh {
		at = min(at, r.Timestamp)
	}
	return at, true
}

func checkSwitched(x *ctx, c *check) Result {
	old, next := c.args[0], c.args[1]
	at, ok := x.switchAt(next)
	if !ok {
		return pending("%s holds no record yet", next)
	}
	x.keep(c, "switch-at", units.SpanToSecond(at))
	for _, r := range x.allRecords(old) {
		if r.Timestamp > at {
			x.keep(c, "key", r.Key)
			x.keep(c, "value", r.Value)
			x.keep(c, "at", units.SpanToSecond(r.Timestamp))
			return pending("%s got a record at %s, after the first record went to %s at %s", old, units.SpanToSecond(r.Timestamp), next, units.SpanToSecond(at))
		}
	}
	return solved("%s got no record after the first went to %s at %s", old, next, units.SpanToSecond(at))
}

func checkDrained(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	old, next := c.args[1], c.args[2]
	at, ok := x.switchAt(next)
	if !ok {
		return pending("%s holds no record yet", next)
	}
	x.keep(c, "switch-at", units.SpanToSecond(at))
	unread, total := 0, 0
	for p := range x.partitions(old) {
		got := deliveredOffsets(v, old, p)
		for _, r := range x.records(old, p) {
			total++
			if when, ok := got[r.Offset]; !ok || when > at {
				unread++
			}
		}
	}
	x.keep(c, "unread", units.Plural(int64(unread), "record"))
	x.keep(c, "records", units.Plural(int64(total), "record"))
	if unread > 0 {
		return pending("when the first record went to %s at %s, group %s had not yet read %s of %s", next, units.SpanToSecond(at), v.Name, units.Plural(int64(unread), "record"), old)
	}
	return solved("group %s read all %s of %s before the first record went to %s at %s", v.Name, units.Plural(int64(total), "record"), old, next, units.SpanToSecond(at))
}
