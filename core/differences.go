package core

import (
	"strconv"
	"strings"

	"plog/core/units"
)

// KafkaVersion is the Apache Kafka release whose behaviour plog follows: the
// broker the conformance suite runs against (internal/kafkabroker's Version,
// 4.4.0; a test of cmd/plogsim checks the two agree).
const KafkaVersion = "4.4"

// Difference is one way plog departs from Kafka on purpose: what Kafka
// does, what plog does instead, and why. Differences lists them all; the
// page shows them under "How plog differs from Kafka" and `plogsim
// differences` prints them.
type Difference struct {
	// Name is the entry's stable name: a config's name (segment.records)
	// for a config, a word for a behaviour (virtual-time). The page's help
	// links to an entry by it.
	Name  string
	Title string
	Kafka string // what Kafka does
	Plog  string // what plog does
	Why   string
	// Older is what links made under older rules do instead, kept apart
	// from Plog: a newcomer reads what the page does now, and "under
	// rules 1 to 3" in the middle of it read as jargon. "" for none.
	Older string
	// Version is the Kafka version whose behaviour the entry describes.
	Version string
}

// Differences lists every deliberate simplification: first the behaviours
// that are no config, then the configs of DifferencesFromKafka (the
// playground's own and the defaults it changes), in registry order.
func Differences() []Difference {
	out := make([]Difference, 0, len(behaviourDifferences)+len(configRegistry))
	for _, d := range behaviourDifferences {
		d.Version = KafkaVersion
		out = append(out, d)
	}
	for _, def := range DifferencesFromKafka() {
		out = append(out, configDifference(def))
	}
	return out
}

// LookupDifference returns the entry named name.
func LookupDifference(name string) (Difference, bool) {
	for _, d := range Differences() {
		if d.Name == name {
			return d, true
		}
	}
	return Difference{}, false
}

// configDifference is a config's entry, its words from the registry and
// configWhy.
func configDifference(def ConfigDef) Difference {
	why := configWhy[def.Name]
	d := Difference{Name: def.Name, Title: def.Name, Why: why.why, Version: KafkaVersion}
	switch {
	case def.Scope == ScopePlayground:
		d.Title += " (the playground's own)"
		d.Kafka = "Kafka has no such config. " + why.kafka
		d.Plog = def.Help + " Default " + def.DefaultValue() + "."
	default:
		if def.KafkaName != "" {
			d.Title += " (Kafka's " + def.KafkaName + ")"
		}
		d.Kafka = "Default " + def.KafkaDefault + "."
		if why.kafka != "" {
			d.Kafka += " " + why.kafka
		}
		d.Plog = "Default " + def.DefaultValue() + ": " + lowerFirst(def.Help)
	}
	return d
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// configWhy says, for each config of DifferencesFromKafka, what Kafka does
// where it has no such config (kafka), and why the playground departs
// (why). The registry's tests check every difference has its words.
var configWhy = map[string]struct{ kafka, why string }{
	"delete.retention.ms": {"", "So that a tombstone's last moments show in minutes of virtual time, not a day."},
	"partitioner": {"The producer chooses how keyless records spread (partitioner.class); since Kafka 3.3 (KIP-794) " +
		"its built-in partitioner sticks to one partition until batch.size (16384) bytes have gone there, then moves on.",
		"Kept for scenarios made under rules 1, so that they replay as they were made: there keyless records spread " +
			"round-robin (the default) or in a sticky mode that moves on every few records rather than after a batch of bytes. " +
			"From rules 2 on the topic has no such config: the producer's partitioner= chooses, as in Kafka."},
	"retention.ms":    {"", "So that time retention shows after an hour of virtual time, not a week."},
	"segment.bytes":   {"Kafka 4 accepts 1MB or more (KIP-1030).", "So that a partition has several segments with a few dozen small records; Kafka's least is far above a scenario's records."},
	"segment.ms":      {"", "So that time rolls segments in minutes of virtual time."},
	"segment.records": {"Segments roll by size (segment.bytes) and age (segment.ms) only.", "So that segments, and what retention and compaction do to whole segments, show with a handful of records."},
	"auto.commit.interval.ms": {"It accepts 0: the consumer then commits at every poll.",
		"1ms already commits at every poll of virtual time, and the client plogsim kafka runs (franz-go) takes only a positive interval."},
	"delivery": {"The application decides in its own code whether it processes a poll's records before or after it commits.",
		"So that the page can show what a crash costs under each order."},
	"lag.alert.ms":      {"Lag alerts belong to monitoring systems outside Kafka.", "So that a lesson can show when lag in time becomes a problem."},
	"lag.alert.records": {"Lag alerts belong to monitoring systems outside Kafka.", "So that a lesson can show when lag in records becomes a problem."},
	"rebalance.ms": {"Kafka has no such config: group.initial.rebalance.delay.ms (3s) delays an empty group's first rebalance; later rebalances end " +
		"when every member has rejoined (a classic consumer rejoins inside its poll) or when the rebalance timeout, the " +
		"members' max.poll.interval.ms (5 min), removes those that did not.",
		"Only links made under rules 1 to 3 have it, so that they replay as they were made: every rebalance round took rebalance.ms of virtual time. From rules 4 rebalances run as Kafka's do (see Rebalance timing)."},
}

// behaviourDifferences are the simplifications that are no config.
var behaviourDifferences = []Difference{
	{Name: "rebalance-timing", Title: "Rebalance timing, simplified",
		Kafka: "A member learns of a rebalance from its heartbeat (heartbeat.interval.ms, 3s) and rejoins in its next poll; the JoinGroup and SyncGroup round trips take a moment of their own. group.initial.rebalance.delay.ms is a broker config. A consumer that left for not polling within max.poll.interval.ms rejoins at its next poll, as a new member. When the leader leaves, the coordinator picks the next from a hash map; the leader's metadata refreshes metadata.max.age.ms after its last refresh.",
		Plog:  "A member rejoins at its next poll however soon, and the rebalance ends in that instant once every member has. group.initial.rebalance.delay.ms is set per group (config group). A member that left for not polling is gone: join it again. The next leader is the first member by name, and the leader's metadata refreshes at its join time plus each multiple of metadata.max.age.ms.",
		Older: "Under rules 1 to 3 every rebalance round took rebalance.ms (3s).",
		Why:   "So that a scenario says when each member polls and a rebalance ends at a step of its own, the same on every replay."},
	{Name: "virtual-time", Title: "Virtual time",
		Kafka: "Brokers and clients follow the wall clock: retention, segment.ms, session timeouts and auto-commit happen as time passes.",
		Plog:  "A virtual clock moves only with advance (the +1 s, +1 m, +1 h buttons, or Play); everything timed follows it.",
		Why:   "So that a scenario replays identically from its link, and hours pass in a click."},
	{Name: "retention-check", Title: "Retention checks, and truncate's segments",
		Kafka: "The broker checks retention log.initial.task.delay.ms (30s) after it starts, then every log.retention.check.interval.ms (5m), on the topics that do not compact (the log cleaner runs it on the others); the segments wholly below a DeleteRecords' new log start go at the next check.",
		Plog:  "The checks run at those times of the virtual clock, which starts with the broker (30s, 5m30s, 10m30s, ...); truncate deletes the segments wholly below the new log start at once.",
		Older: "Under rules 1 and 2 retention was checked every " + units.Duration(RetentionCheckIntervalMs) + " from 0, on every topic that deletes.",
		Why:   "Readers lose a truncated record at once in both; deleting its segments at once shows it in the lane. Old links replay as they were made."},
	{Name: "cleaner", Title: "The log cleaner, simplified",
		Kafka: "The cleaner runs in the background: when it finds nothing to clean it looks again after log.cleaner.backoff.ms (15s); it cleans a log once its dirty ratio passes min.cleanable.dirty.ratio (0.5) or its oldest dirty record passes max.compaction.lag.ms (Long.MAX_VALUE by default: never), holding back segments younger than min.compaction.lag.ms, and merges small cleaned segments into one. No request makes it clean now.",
		Plog:  "The cleaner runs by itself every 15s of virtual time with Kafka's default ratio, 0.5 (the brokers' log.cleaner.min.cleanable.ratio: a topic sets no min.cleanable.dirty.ratio or max.compaction.lag.ms of its own). Run the cleaner now (compact TOPIC) is the playground's shortcut: it cleans the topic at once, whatever its dirty ratio. A cleaning cleans each closed segment on its own and removes the segments it empties.",
		Older: "Under rules 1 and 2 the cleaner ran only when asked.",
		Why:   "So that a learner need not wait for the cleaner to see what one cleaning does, and each cleaned segment stays where it was."},
	{Name: "producer", Title: "One producer per command, unbatched",
		Kafka: "A producer is a long-lived client that batches records (batch.size, linger.ms), compresses batches and retries failed sends.",
		Plog:  "Each produce command without producer= (and each workload's send) sends its records at once, one at a time, and never retries; a named producer (producer-config) retries as Kafka's does (see Named producers). A record's size is len(key)+len(value)+8 bytes, without the batch header.",
		Why:   "So that each record's place and size can be checked by hand."},
	{Name: "keyless-records", Title: "Keyless records",
		Kafka: "Since Kafka 3.3 (KIP-794) the producer's built-in partitioner sends keyless records to one partition until batch.size (16384) bytes have gone there, then picks another; a record may also have neither key nor value on a topic that is not compacted.",
		Plog:  "As Kafka: the built-in partitioner, with the scenario's seed drawing where Kafka draws at random, and records produced at one virtual instant counted as one batch; partitioner=round-robin is Java's RoundRobinPartitioner. A keyless record always has a value (empty when none is given), and only a keyed record can be a tombstone.",
		Older: "Under rules 1 keyless records go round-robin, or with a topic's partitioner=sticky to one partition for " + strconv.Itoa(StickyBatchRecords) + " records at a time.",
		Why:   "Old links replay as they were made; a producer's linger and in-flight batches have no virtual-time counterpart, so one instant is one batch."},
	{Name: "timestamps", Title: "Timestamps are the virtual clock",
		Kafka: "With CreateTime (the default) a record keeps its producer's timestamp, which the application may set to any time, so timestamps can go backwards; LogAppendTime has the broker stamp it.",
		Plog:  "No command sets a timestamp: the producer sends and the broker appends at the same virtual instant, so both types give that time, and timestamps never go backwards along a partition.",
		Why:   "So that time retention and time lag read the clock the learner moves."},
	{Name: "delete-records", Title: "Truncate takes the offset itself",
		Kafka: "DeleteRecords reads the offset -1 as the high watermark.",
		Plog:  "truncate TOPIC/PARTITION before=OFFSET takes a whole number; the engine reads -1 as Kafka does, but the language does not take it.",
		Why:   "A link holding before=-1 has always stopped there with an error, and must keep opening to the same state; and a line that names its offset says where it cut."},
	{Name: "member-ids", Title: "Member ids come from the seed, and a member needs a name",
		Kafka: "The coordinator gives each member an id, its client.id (a static member's group.instance.id), a dash and a random UUID, and the assignors order members by it (static members first, by group.instance.id). A consumer with no client.id gets consumer-GROUP-INSTANCE, or consumer-GROUP-N for a dynamic one, N counting the consumers of its process.",
		Plog:  "As Kafka: the name typed for a member is its client.id and its member id is NAME-UUID (INSTANCE-UUID for a static member), which the assignors order members by; the UUID is drawn from the scenario's seed. Every member has a name.",
		Older: "Under rules 1 and 2 a member has no member id and the assignors order members by name.",
		Why:   "So that the same scenario gives the same ids and the same partitions every time, and every command can name the member it acts on."},
	{Name: "metadata", Title: "New partitions reach a group at its leader's metadata refresh",
		Kafka: "A consumer learns of new partitions when it next refreshes its metadata, metadata.max.age.ms (5 min) after its last refresh, which other requests can bring forward; the group's leader then rejoins.",
		Plog:  "The group's leader refreshes at its join time plus each multiple of metadata.max.age.ms, and the rebalance starts then.",
		Older: "Under rules 1 to 3 a group saw a topic's new partitions at once and rebalanced.",
		Why:   "So that the refresh falls at a time the scenario can tell; old links replay as they were made."},
	{Name: "consumer-protocol", Title: "The consumer group protocol, simplified",
		Kafka: "A consumer-protocol member heartbeats every group.consumer.heartbeat.interval.ms (5s); the coordinator computes a target assignment at most every group.consumer.assignment.interval.ms (1s), on a background thread, and each heartbeat answers a member with its next step; the client revokes, commits and acknowledges over round trips of its own. With group.consumer.migration.policy=bidirectional (the default) a consumer-protocol member joining a classic group with members upgrades it online, and a classic member may join a consumer group. An empty group is deleted once its offsets expire (Dead).",
		Plog:  "Each heartbeat, the assignor's run and the client's revocation and acknowledgement happen at one instant of the virtual clock. A group runs one protocol at a time: a member of the other protocol joins it only once it is empty (the online upgrade and mixed groups are not there yet), and groups are never deleted. consumer.heartbeat.interval.ms and consumer.session.timeout.ms are set per group, within the brokers' bounds, as Kafka's group configs are.",
		Why:   "So that each step of the protocol falls at a time the scenario can tell, the same on every replay."},
	{Name: "replication", Title: "Replication, simplified",
		Kafka: "Replicas are placed from a random start, followers fetch continuously, the controller learns of a failed broker after its session times out, producers retry, an acks=all write still waiting for the high watermark times out after the producer's request.timeout.ms (30 s), and a slow broker is slow in bytes.",
		Plog:  "Replicas are placed by Kafka's rack-unaware rule from a fixed start; followers fetch on a 500 ms grid of virtual time; the controller notices a crashed broker at once; a producer without a name never retries; an acks=all write waits for the high watermark as long as it takes (while the ISR is smaller than min.insync.replicas, until a follower rejoins); a slowed broker's pace counts records; every replica runs retention and compaction when the leader does.",
		Why:   "So that replication is deterministic and each step of it can be seen."},
	{Name: "no-network", Title: "No network",
		Kafka: "Clients and brokers talk over the network: requests take time, time out and fail.",
		Plog:  "Everything runs in the page: a request takes no time, and the only failures are the ones the learner makes (crash, isolate, slow, and a named producer's lost request or answer, wire).",
		Why:   "So that the page works offline and a scenario replays identically."},
	{Name: "named-producers", Title: "Named producers: one record a batch, retries in an instant",
		Kafka: "A producer gathers records into a batch per partition until batch.size (16KB) fills or linger.ms (5ms) passes, and sends it over the network; a request that gets no answer fails after request.timeout.ms (30s), and the producer retries after retry.backoff.ms (100ms, growing to retry.backoff.max.ms, 1s) while the clock runs, until delivery.timeout.ms (2m). The broker's ProducerIdManager hands out producer ids in blocks.",
		Plog:  "Every record is a batch of its own: linger.ms and batch.size are kept and shown, and change nothing. A produce command's batches go out at once, max.in.flight.requests.per.connection at a time. Nothing is lost on the wire unless the learner says so (wire PRODUCER lose-request or lose-response, the producer card's Lose buttons); every retry then happens at the same virtual instant, while the time each lost request costs (request.timeout.ms, plus retry.backoff.ms per retry) counts against delivery.timeout.ms. Producer ids are counted from 0. A send gives up after " + strconv.Itoa(MaxProduceRequests) + " requests. With replicas, a write the leader appended counts as answered unless its answer is lost, even while acks=all still waits.",
		Why:   "So that each retry, each duplicate the broker drops and each refused sequence is a line of the scenario, the same on every replay, and each record's place can be checked by hand."},
	{Name: "transactions", Title: "Transactions, simplified",
		Kafka: "The transaction coordinator keeps each transactional.id in the __transaction_state topic, and writes the COMMIT and ABORT markers through the partitions' leaders, over the network; the offsets a transaction sends (sendOffsetsToTransaction) wait in __consumer_offsets until its markers are written. The coordinator looks for transactions past transaction.timeout.ms every transaction.abort.timed.out.transaction.cleanup.interval.ms (10s) of the wall clock. A cluster whose transaction.version is below 2 runs the older protocol: the producer adds each partition with AddPartitionsToTxn before writing to it, and keeps its epoch from one transaction to the next.",
		Plog:  "The coordinator's state lives in the engine: __transaction_state and __consumer_offsets are not drawn. Ending a transaction writes every marker at one instant, and the offsets sent to it reach the group when it commits. The timeout check runs every 10s of the virtual clock from 0. Only the transaction protocol v2 (KIP-890, transaction.version 2) is modelled: a produce request adds its partition to the transaction, and each transaction's end bumps the epoch, except that one with nothing sent in it and no offsets ends in the producer alone, with no EndTxn, as Kafka 4.4's producer ends it, and keeps the epoch.",
		Older: "Under rules 4 and before, a transaction with nothing sent in it also ended with an EndTxn, and bumped the epoch.",
		Why:   "So that each step of a transaction falls at an instant the scenario can tell, and its markers, the last stable offset and the group's offsets show at once."},
	{Name: "isolation-level", Title: "isolation.level is the group's",
		Kafka: "isolation.level is a consumer's config (ConsumerConfig), read once when the consumer is made: each member of a group fetches with its own, and a consumer that is to read otherwise is closed and made anew, joining the group again.",
		Plog:  "isolation.level is set on the group (config group G isolation.level=read_committed), and every member reads with it from its next poll, whenever it joined; the group's lag is measured against the last stable offset while it is read_committed. Replayed on a cluster (plogsim kafka), a member made before its group became read_committed fetches read_uncommitted there, and is given only what read_committed gives; a member made while the group was read_committed still fetches so after the group goes back to read_uncommitted, and is not given the records of open and aborted transactions the playground's member then reads.",
		Why:   "So that a group reads one way, the one its lag is measured by, and one command turns a running group from read_uncommitted to read_committed and back, to compare what each reads."},
	{Name: "share-groups", Title: "Share groups, simplified",
		Kafka: "A share group's member learns its assignment at its next heartbeat (share.heartbeat.interval.ms, 5s); the SimpleAssignor walks hash sets of members and partitions; records are acquired in the producers' batches (share.acquire.mode); each acquisition lock is a timer on the broker; the share coordinator keeps the share-partitions' state in __share_group_state; a consumer that is killed and closes its connection has its records released at once. A group also takes share.isolation.level, by_duration: resets and a dead-letter topic (errors.deadletterqueue.topic.name).",
		Plog:  "Each change of members or partitions assigns at once (a share group never revokes first, and records are locked, not partitions, so no record's fate changes); a topic's new partitions reach the group at once while a member runs to heartbeat. Members are taken in join order and partitions in topic, partition order. Each record is acquired on its own, so batch_optimized and record_limit acquire the same. Locks expire on the virtual clock. crash stands for a member that stops with its connection open (a hung process): its records come back when their locks expire; share-leave releases them at once. The state is not drawn as a topic, and share.isolation.level, by_duration: and dead-letter topics are not modelled. A group's configs are kept with the group, so they are set once a member has joined.",
		Older: "Under rules 5 and before, a topic's new partitions reached a share group at a member's next poll.",
		Why:   "So that a share group assigns and acquires the same way on every replay, and each record's lock, owner and delivery count can be followed step by step."},
	{Name: "limits", Title: "A scenario's limits",
		Kafka: "A cluster holds what its disks hold.",
		Plog:  "A scenario may hold 20,000 commands, a million records produced, 10,000 partitions (1,000 a topic) and 100 brokers, and a bounded amount of work (README, the limits).",
		Why:   "So that no link can freeze the page."},
}
