package app

import (
	"sort"
	"strconv"

	"plog/core"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// helpTopic is one concept's short explanation.
type helpTopic struct {
	Title string // the concept's name, as it reads after "What is"
	Text  string
}

// helpTopics explains every concept the page shows. The texts describe what
// Kafka does; where the playground differs, they say so.
var helpTopics = map[string]helpTopic{
	"offset": {"an offset",
		"Every record in a partition gets the next number in that partition: its offset. " +
			"Offsets only grow and are never reused, even after the record is deleted. " +
			"Ordering is guaranteed within a partition, not across partitions."},
	"high-watermark": {"the high watermark",
		"The offset below which every in-sync replica holds a partition's records: consumers read only " +
			"below it. With one replica (replication.factor=1, the playground's default) it is the log end " +
			"offset, the offset the next record will get; with more, it trails the leader's log end until " +
			"the followers have copied. While fewer replicas than min.insync.replicas are in sync it does not " +
			"move at all (Kafka 3.7 and later, KAFKA-15583): records written then wait, not committed, until a " +
			"follower catches up and rejoins the ISR. Under plog's rules 1 and 2 (links made before rules 3) " +
			"it followed the ISR alone."},
	"log-start": {"the log start offset",
		"The first offset a partition still holds. Retention, compaction of whole segments and " +
			"DeleteRecords (truncate) move it forward; records before it are gone for every consumer."},
	"segment": {"a segment",
		"A partition is stored as a series of files, the segments. New records go to the active " +
			"(last) segment; it rolls to a new one after segment.bytes, segment.ms or, in the playground, " +
			"segment.records. Compaction rewrites whole closed segments, never the active one. Retention deletes " +
			"whole segments too, the active one included: when every segment has expired, Kafka first rolls a " +
			"new, empty active segment, then deletes them all, so the log start offset reaches the high watermark."},
	"retention": {"retention",
		"With cleanup.policy=delete, Kafka deletes a segment once its newest record is older than " +
			"retention.ms, or while the partition is larger than retention.bytes. It deletes whole segments, " +
			"oldest first, so some records outlive their retention until their segment goes. The active " +
			"segment goes too once every segment before it has: Kafka then rolls a new, empty active segment " +
			"first, and the note on what was removed says so. The broker checks 30 s after it starts " +
			"(log.initial.task.delay.ms), then every log.retention.check.interval.ms (5 min): a segment that " +
			"expires between two checks stays until the next. Under rules 1 and 2 (links made before rules 3) the " +
			"playground checked every 30 s."},
	"compaction": {"compaction",
		"With cleanup.policy=compact, the log cleaner keeps only the latest record of each key in the closed " +
			"segments, leaving gaps in the offsets. Offsets never change. A tombstone deletes its key. Kafka's cleaner " +
			"runs by itself: when it finds nothing to clean it looks again after log.cleaner.backoff.ms (15 s), and it " +
			"cleans a partition once more than half of its cleanable bytes are dirty, not cleaned yet " +
			"(min.cleanable.dirty.ratio, 0.5), sparing segments younger than min.compaction.lag.ms. Under rules 3 the " +
			"playground's does the same; Run the cleaner now is its shortcut, which cleans a topic at once whatever " +
			"its dirty ratio (under rules 1 and 2, links made before, the cleaner ran only then)."},
	"tombstone": {"a tombstone",
		"A record with a key and no value. Compaction treats it as \"delete this key\": earlier records of the " +
			"key go, and the tombstone itself goes after delete.retention.ms. Kafka also takes a record with " +
			"neither key nor value, on a topic that is not compacted (a compacted topic refuses every record " +
			"without a key); it deletes nothing. The playground writes no such record: a record without a key " +
			"has a value, empty when none is given."},
	"delete-records": {"truncating (DeleteRecords)",
		"Truncate is Kafka's DeleteRecords (kafka-delete-records): it moves a partition's log start offset up " +
			"to the offset given, at most the high watermark, and every record below it is gone for every " +
			"consumer; the others keep their offsets. Kafka also reads the offset -1 as \"the high " +
			"watermark\", emptying the partition of its committed records; the playground's truncate takes " +
			"the offset itself (the lane shows the high watermark). A topic whose cleanup.policy has no " +
			"delete refuses it (POLICY_VIOLATION)."},
	"timestamp": {"a record's timestamp",
		"Every record carries a timestamp, which time retention, segment.ms and time lag read. By default " +
			"(message.timestamp.type=CreateTime) it is the producer's: its clock when it sent the record, or " +
			"any time the application sets, so timestamps may go backwards along a partition. A topic with " +
			"message.timestamp.type=LogAppendTime has the broker stamp each record with its clock when it " +
			"appends it instead. In the playground the producer sends and the broker appends at the same " +
			"virtual instant, and no command sets a timestamp, so both give the same time; a record's " +
			"tooltip says which clock it stands for."},
	"skew": {"skew",
		"How unevenly records spread over partitions: the largest partition's count over the mean. " +
			"1 is perfectly even. A hot key sends all its records to one partition, which then lags behind."},
	"consumer-group": {"a consumer group",
		"Consumers that share a group id split the partitions of the topics they subscribe to: each " +
			"partition is read by one member of the group at a time. The group remembers where it got to " +
			"with committed offsets. Different groups read the same records independently."},
	"committed-offset": {"a committed offset",
		"The offset a group will resume from: the next record to read, not the last one read. A member " +
			"commits its position; after a crash or a rebalance the new owner starts at the committed offset, " +
			"so records after it are delivered again. Committing an offset by hand goes through a running " +
			"member of the group; with none running it comes from outside the group, as an admin client's " +
			"does, and Kafka takes it only once the group is empty: a member that crashed, or a static member " +
			"that shut down, stays in the group until its session times out, and until then Kafka answers " +
			"UNKNOWN_MEMBER_ID (plog's rules 3; under rules 1 and 2 such a commit was taken)."},
	"position": {"a position",
		"Where a member will read next on a partition it owns. Poll moves it forward; only a commit saves it " +
			"for the group."},
	"lag": {"consumer lag",
		"How far a group is behind: the high watermark minus the committed offset, in records. Time lag is " +
			"how old the first unread record is. Without a committed offset there is no lag to measure: the " +
			"page says unknown, where Kafka's tools print \"-\"."},
	"lag-alert": {"the lag alert",
		"The playground lights it when a group's total lag reaches lag.alert.records or its largest time lag " +
			"reaches lag.alert.ms, as a monitoring system would. Set either to 0 to turn it off."},
	"generation": {"a generation",
		"Each completed rebalance starts a new generation of the group. Commits from a member of an older " +
			"generation are refused, which is how Kafka fences a member that missed a rebalance."},
	"rebalance": {"a rebalance",
		"When members join, leave or time out, or subscribed topics gain partitions, the group reassigns " +
			"partitions. With the eager strategies every member gives up everything while it runs; with " +
			"cooperative-sticky only the partitions that move pause, in two rounds. As in Kafka, it ends when " +
			"every member has rejoined, which a consumer does in its next poll, or at the rebalance timeout " +
			"(max.poll.interval.ms), which removes those that did not; a new group's first rebalance waits " +
			"group.initial.rebalance.delay.ms (3s) for more members. Under rules 1 to 3 every round took rebalance.ms."},
	"max-poll-interval": {"max.poll.interval.ms",
		"A consumer that does not poll within max.poll.interval.ms (" + kafkaDefault(core.OnGroup, "max.poll.interval.ms") +
			" by default) leaves its group: its heartbeat thread sends LeaveGroup and the group rebalances (a static " +
			"member only stops heartbeating, and its session ends it). Partitions added to a topic reach the group " +
			"at its leader's next metadata refresh (metadata.max.age.ms)."},
	"session-timeout": {"the session timeout",
		"How long the group waits for a member that stopped sending heartbeats (session.timeout.ms, " +
			kafkaDefault(core.OnGroup, "session.timeout.ms") + " by default) before it removes it and rebalances. A crashed member's partitions sit unread until then."},
	"idle-member": {"an idle member",
		"A member with no partitions: the group has more members than partitions. It waits as a spare " +
			"and takes over if another member leaves."},
	"static-membership": {"static membership",
		"A member with a group.instance.id (KIP-345) sends no LeaveGroup when it stops. The group keeps its " +
			"partitions for it until its session times out; if it comes back with the same instance id before " +
			"that, it takes them back with no rebalance. Static members sort before dynamic ones."},
	"member-ordering": {"a member id",
		"A member's name is its client.id. On joining, the coordinator gives it a member id, as Kafka's does: " +
			"the client.id (a static member's group.instance.id), a dash and a UUID, here drawn from the seed. " +
			"Leaving and joining again, or a static member coming back, gives a new one. The assignors take " +
			"static members first, by group.instance.id, then the others by member id, compared as strings (\"c10-…\" " +
			"before \"c2-…\"): the names decide but where one is another's with a dash and more (a, a-b). " +
			"Under rules 1 and 2 there are no member ids: the names decide."},
	"auto-commit": {"auto-commit",
		"With enable.auto.commit, the consumer commits its positions in poll once " +
			"auto.commit.interval.ms has passed, before a rebalance revokes partitions, and when it leaves. " +
			"Kafka's default, and the playground's, is " + onOff(kafkaDefault(core.OnGroup, "enable.auto.commit")) +
			"; turn it off to commit by hand. Under rules 1 and 2 (links made before rules 3, which wrote auto.commit) " +
			"the playground's default was " + onOff(defaultUnder(core.OnGroup, "enable.auto.commit", core.RulesV2)) + "."},
	"delivery": {"at-least-once and at-most-once",
		"When a consumer commits decides what a crash costs. At-least-once: process what a poll returned, then " +
			"commit; a crash before the commit makes the next owner receive those records again. At-most-once: " +
			"commit first, then process; a crash in between loses the records being processed."},
	"auto-offset-reset": {"auto.offset.reset",
		"Where a member starts on a partition its group has no committed offset for, or whose committed offset " +
			"retention has deleted: earliest (the log start), latest (the high watermark: only new records) or " +
			"none (poll fails). Kafka's default, and the playground's, is " + kafkaDefault(core.OnGroup, "auto.offset.reset") +
			": a new group reads only what is produced after its first poll, and a member whose position retention " +
			"deleted jumps to the end, not to the log start. Under rules 1 and 2 (links made before rules 3) the " +
			"playground's default was " + defaultUnder(core.OnGroup, "auto.offset.reset", core.RulesV2) + "."},
	"reset-offsets": {"resetting offsets",
		"kafka-consumer-groups --reset-offsets moves a group's committed offsets: to the earliest or latest " +
			"offset, to a given offset, or to the first record at or after a time. Kafka only allows it while " +
			"the group has no active members: a member that crashed, or a static member that shut down, " +
			"counts until its session times out."},
	"strategy": {"an assignment strategy",
		"How a group splits partitions between its members: range, roundrobin, sticky or " +
			"cooperative-sticky (partition.assignment.strategy). They differ in balance and in how many " +
			"partitions move when members come and go."},
	"range": {"the range strategy",
		"Per topic, partitions are split into contiguous ranges, in member order; the first members get one " +
			"more when it does not divide evenly. With several topics the same members get the extra ones, so " +
			"range can be unbalanced. Kafka's classic default."},
	"roundrobin": {"the roundrobin strategy",
		"All subscribed partitions are dealt out one at a time to the members in order, like cards. Balanced, " +
			"but a change of membership reshuffles almost everything."},
	"sticky": {"the sticky strategy",
		"Balances like round-robin, but keeps each member's partitions where it can, so fewer move in a " +
			"rebalance. It is still eager: every member stops consuming during the rebalance."},
	"cooperative-sticky": {"the cooperative-sticky strategy",
		"Sticky's assignment, rebalanced cooperatively (KIP-429): members keep consuming partitions that do " +
			"not move; moving partitions are revoked in a first round and assigned in a second."},
	"broker": {"a broker",
		"A Kafka server. A cluster has several; each holds replicas of many partitions and serves the " +
			"producers and consumers of the partitions it leads. The playground's cluster has 3 brokers unless " +
			"brokers N says otherwise; crash, restart, isolate (cut off from the other brokers) or slow one to " +
			"see what replication does."},
	"replica": {"a replica",
		"One broker's copy of a partition. replication.factor, fixed when the topic is created, says how many " +
			"each partition has, each on a different broker. One replica leads; the others, the followers, " +
			"fetch from it and copy its records at the same offsets, in the same order."},
	"leader": {"the leader",
		"The replica that takes every write to a partition and serves its reads. When its broker fails, the " +
			"controller elects a new leader from the in-sync replicas, starting a new leader epoch; the other " +
			"replicas drop whatever records the new leader does not have."},
	"isr": {"the ISR (in-sync replicas)",
		"The leader and the followers keeping up with it. A follower that has not caught up with the " +
			"leader's log end for replica.lag.time.max.ms (" + kafkaDefault(core.OnCluster, "replica.lag.time.max.ms") +
			" by default) leaves the ISR, and rejoins once it " +
			"reaches the high watermark again. Only an in-sync replica may become leader in a clean election, " +
			"and acks=all waits for every one of them."},
	"isolation-level": {"isolation.level",
		"What a consumer of the group reads of transactions. read_uncommitted (Kafka's default) reads up to " +
			"the high watermark, records of open and aborted transactions too. read_committed reads up to the " +
			"last stable offset, below the first open transaction, and skips the records of aborted ones."},
	"partitioner": {"the partitioner",
		"Where a record goes when no partition is given (partitioner.class). Kafka's built-in partitioner, " +
			"the default: a record with a key goes to the partition its key's hash picks (murmur2, a hash of " +
			"the key's bytes, modulo the number of partitions), so one key always lands in one partition; a " +
			"record without a key sticks to one partition until a batch (batch.size, 16 KB) has gone there, then " +
			"moves to another. round-robin (RoundRobinPartitioner) ignores keys and sends records to the " +
			"partitions in turn."},
	"acks": {"acks",
		"The producer's setting for when a write counts as done. acks=0: it does not wait for an answer. " +
			"acks=1: the leader answers once it has appended the record, so if it fails before a follower " +
			"copies it, the record is lost though the producer was told it was written. acks=all (Kafka's " +
			"default since 3.0): the leader answers once every in-sync replica has the record."},
	"min-insync-replicas": {"min.insync.replicas",
		"The fewest in-sync replicas an acks=all write needs. With fewer in sync, the write fails with " +
			"NOT_ENOUGH_REPLICAS instead of being acknowledged by too few brokers, so every acknowledged record " +
			"is on at least that many. With replication.factor=3, 2 is usual: one broker may fail and writes go " +
			"on. acks=0 and acks=1 writes are still taken, but since Kafka 3.7 (KAFKA-15583) the high watermark " +
			"does not move while too few replicas are in sync, so consumers do not see those records until a " +
			"follower rejoins the ISR. A value above the replication factor is accepted: Kafka then needs every " +
			"replica, min(min.insync.replicas, replication factor). Under plog's rules 1 and 2 (links made " +
			"before rules 3) the high watermark did not wait, and a value above the replication factor was " +
			"refused. Kafka's default is " + kafkaDefault(core.OnTopic, "min.insync.replicas") + "."},
	"unclean-election": {"an unclean leader election",
		"When no in-sync replica of a partition is alive, unclean.leader.election.enable=true lets an " +
			"out-of-sync replica lead. The partition is back at once, but every record the new leader lacks " +
			"is lost, acknowledged or not, even ones consumers have read. Kafka's default is " +
			kafkaDefault(core.OnTopic, "unclean.leader.election.enable") + ": the " +
			"partition stays offline until an in-sync replica comes back."},
	"offline-partition": {"an offline partition",
		"A partition with no leader: no replica that may lead is alive (with unclean leader election off, " +
			"no in-sync replica). Producing to it and reading from it fail until such a replica's broker " +
			"comes back. Other partitions go on; records without a key go to them instead."},
	"alter-config": {"changing a topic's config",
		"kafka-configs --alter --entity-type topics --add-config name=value changes a config of a topic " +
			"that exists (the IncrementalAlterConfigs API); it applies from then on, to records already written " +
			"too (retention, compaction), and leaves the other configs as they were. replication.factor is not " +
			"a config Kafka alters this way: it takes a partition reassignment."},
	"workload": {"a workload",
		"A producer or a consumer that acts on its own as virtual time passes: a producer sends records at " +
			"a rate, its keys drawn from a distribution (none, in sequence, uniform over a keyspace, or zipf, " +
			"where a few keys make most of the traffic), named key-0, key-1, … or as you say in Key names: " +
			"a list of your own (acct-1,acct-2,acct-3) or a pattern (tenant-{n}); a consumer polls at a rate, and commits if asked. " +
			"On a share group's member it share-polls, each poll accepting the records of the one before, " +
			"and commits nothing. It runs until it is stopped, or its member leaves or crashes. Advance the " +
			"clock, or press Play, to let it work."},
	"seed": {"the seed",
		"The number every random draw of the scenario starts from: the keys a workload picks, the partition " +
			"Kafka's built-in partitioner moves keyless records to next. The same seed gives the same records every time, so a link replays " +
			"identically. It can only be the scenario's first command."},
	"movement": {"partition movement",
		"How many partitions change owner in a rebalance. Each move pauses a partition and can redeliver " +
			"records since its last commit, so fewer is better."},
	"idempotence": {"an idempotent producer",
		"With enable.idempotence=true (Kafka's default since 3.0) the brokers give the producer a producer id " +
			"and an epoch, and it numbers its batches per partition from 0: the sequence. A partition's leader keeps " +
			"each producer id's last 5 batches; a retry of one of them (its answer was lost) is answered with the " +
			"first copy's offset and not written again, and a batch after a gap is refused, so retries neither " +
			"duplicate nor reorder records. It covers one producer's retries, not a restarted producer or a " +
			"consumer that processes a record twice."},
	"named-producer": {"a named producer",
		"A producer the scenario keeps, with Kafka's producer configs. With enable.idempotence=true (Kafka's " +
			"default since 3.0) the broker gives it a producer id and it numbers its batches per partition: the " +
			"broker drops a retried batch it already holds, and refuses one that skips a sequence number, so " +
			"retries neither duplicate nor reorder records. Without it, a retry after a lost answer writes the " +
			"record twice, and with more than one request in flight a retried batch can land after a later one."},
	"transaction": {"a transaction",
		"Writes to several partitions and topics that count all together or not at all. A producer with a " +
			"transactional.id calls initTransactions, which gives it a producer id and epoch and fences any " +
			"earlier producer with the same transactional.id; its records are written where they go, open until " +
			"commitTransaction or abortTransaction has the coordinator write a COMMIT or ABORT marker, a control " +
			"record with an offset of its own, into every partition the transaction touched; in Kafka 4 the epoch " +
			"is bumped at every end (KIP-890). sendOffsetsToTransaction commits a group's offsets with it. No " +
			"consumer is given a marker; one with isolation.level=read_committed reads only up to the last " +
			"stable offset and skips aborted records."},
	"last-stable-offset": {"the last stable offset (LSO)",
		"The offset below which every transaction on a partition has ended: the high watermark, or the first " +
			"offset of the earliest transaction still open if that is lower. A read_committed consumer reads only " +
			"below it, and its lag is measured against it; a read_uncommitted one reads up to the high watermark."},
	"share-group": {"a share group",
		"A group whose members read the same partitions together, as a queue (KIP-932): each record is " +
			"acquired by one member at a time, under a lock that expires (share.record.lock.duration.ms), and " +
			"acknowledged on its own: accepted, released for another delivery, or rejected. A record delivered " +
			"share.delivery.count.limit times without being accepted is archived. A share group can have more " +
			"members than partitions, and keeps no order across its members."},
}

// HelpTopics lists the topics Help can explain, sorted.
func HelpTopics() []string {
	names := make([]string, 0, len(helpTopics))
	for name := range helpTopics {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// kafkaDefault is Kafka's default of a config, from the engine's registry.
func kafkaDefault(target core.ConfigTarget, name string) string {
	def, _ := core.LookupConfig(target, name)
	return def.KafkaDefault
}

// playgroundDefault is the playground's default of a config.
func playgroundDefault(target core.ConfigTarget, name string) string {
	def, _ := core.LookupConfig(target, name)
	return def.DefaultValue()
}

// defaultUnder is the playground's default of a config under a rules
// version.
func defaultUnder(target core.ConfigTarget, name string, rules int) string {
	def, _ := core.LookupConfig(target, name)
	return def.DefaultUnder(rules)
}

// onOff writes a boolean default as the help texts say it.
func onOff(b string) string {
	if b == "true" {
		return "on"
	}
	return "off"
}

// configHelp is a config's line of help with its defaults, where the page
// offers the config: what it does, Kafka's default and the playground's
// where it differs, or that the config is the playground's own.
func configHelp(target core.ConfigTarget, name string) string {
	def, ok := core.LookupConfig(target, name)
	if !ok {
		return ""
	}
	switch {
	case def.Kafka() == "":
		return def.Help + " A config of the playground's own, not Kafka's (default " + def.DefaultValue() + ")."
	case def.DiffersFromKafka():
		return def.Help + " Kafka's default is " + def.KafkaDefault + "; the playground's is " + def.DefaultValue() + "." + earlierDefaults(def)
	}
	return def.Help + " Kafka's default is " + def.KafkaDefault + "." + earlierDefaults(def)
}

// earlierDefaults says what a config's default was under older rules, which
// old links keep; "" when it was the same.
func earlierDefaults(def core.ConfigDef) string {
	var out string
	from := core.RulesV1
	for _, e := range def.Earlier {
		before := e.Before.Since()
		out += " Under " + rulesSpan(from, before-1) + " (links made before rules " + strconv.Itoa(before) + ") it was " + e.Value + "."
		from = before
	}
	return out
}

// rulesSpan names rules versions from to to: "rules 1", "rules 1 and 2",
// "rules 1 to 3".
func rulesSpan(from, to int) string {
	switch {
	case from == to:
		return "rules " + strconv.Itoa(from)
	case to == from+1:
		return "rules " + strconv.Itoa(from) + " and " + strconv.Itoa(to)
	}
	return "rules " + strconv.Itoa(from) + " to " + strconv.Itoa(to)
}

// playgroundMark is the visible mark of a config of the playground's own,
// which Kafka does not have ([data-playground-only=NAME]); an empty text for
// Kafka's configs.
func playgroundMark(target core.ConfigTarget, name string) app.UI {
	def, ok := core.LookupConfig(target, name)
	if !ok || def.Kafka() != "" {
		return app.Text("")
	}
	return app.Span().Class("playground-only").DataSet("playground-only", def.Name).
		Title("A config of the playground's own: Kafka has no " + def.Name + ".").Text("playground only")
}

// playgroundSuffix is what a list of config names adds to one of the
// playground's own.
func playgroundSuffix(target core.ConfigTarget, name string) string {
	if def, ok := core.LookupConfig(target, name); ok && def.Kafka() == "" {
		return " (playground only)"
	}
	return ""
}
