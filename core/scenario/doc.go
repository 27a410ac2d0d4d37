// Package scenario is plog's scenario language and the machinery around it:
// parsing and canonical formatting, applying commands to the engine in a
// Session with undo, redo and time travel, seeded workloads, the state
// snapshot (JSON and text), and the share-link codec.
//
// # The language (v1)
//
// One command a line; a '#' that begins a word starts a comment; arguments
// are words or name=value; a value with spaces, quotes or a leading '#' is
// in double quotes with Go's escapes ("say \"hi\""). Bare words after
// the names are flags (tombstone, commit, to-earliest, to-latest); a name
// spelled like one is written in quotes (produce "tombstone" key=k), and
// read as the name where a name is due. Durations: 500ms 10s
// 5m 2h 7d. Sizes: 512B 4KB 1MB 1GB (KB = 1024 bytes). Rates: 20/s 3/m
// 1/h. Topic and group configs use Kafka's names with units allowed, plus
// the playground's segment.records and partitioner; -1 means unlimited
// where Kafka allows it.
//
//	seed N
//	rules N
//	topic NAME [partitions=N] [config=value ...]
//	produce TOPIC [key=K] [value=V | tombstone] [count=N] [partition=P] [acks=0|1|all] [partitioner=default|round-robin] [producer=NAME [values=A,B,...]]
//	advance DURATION
//	partitions TOPIC count=N
//	config topic NAME config=value ... | config group NAME config=value ...
//	truncate TOPIC/PARTITION before=OFFSET
//	compact TOPIC
//	join GROUP MEMBER topics=T1,T2 [strategy=range|roundrobin|sticky|cooperative-sticky] [instance=ID] [group.protocol=classic|consumer] [group.remote.assignor=uniform|range]
//	leave GROUP MEMBER
//	crash GROUP MEMBER
//	poll GROUP MEMBER [max=N]
//	commit GROUP MEMBER [epoch=N] | commit GROUP TOPIC/PARTITION offset=N
//	reset GROUP to-earliest | to-latest | to-offset=N | to-datetime=DURATION [topic=TOPIC[/PARTITION]]
//	delete-group GROUP
//	producer NAME TOPIC rate=N/s [keys=none|sequence|uniform|zipf] [keyspace=N] [exponent=X] [keylist=K1,K2,... | key=PATTERN] [value=V] [acks=0|1|all] [partitioner=default|round-robin]
//	consumer GROUP MEMBER rate=N/s [max=N] [commit]
//	stop PRODUCER | stop GROUP MEMBER
//	answer QUESTION TEXT
//	brokers N [replica.lag.time.max.ms=DURATION] [group.consumer.migration.policy=bidirectional|upgrade|downgrade|disabled]
//	broker crash|restart|isolate|heal ID | broker slow ID pace=N/s
//	producer-config NAME [config=value ...] [transactional.id=ID]
//	wire PRODUCER lose-request|lose-response [after=N] [count=N]
//	txn PRODUCER init|begin|commit|abort | txn PRODUCER send-offsets group=GROUP
//
// Named producers (core/producer.go): producer-config makes one with
// Kafka 4.4's producer configs (acks, enable.idempotence,
// max.in.flight.requests.per.connection, retries, delivery.timeout.ms,
// request.timeout.ms, linger.ms, batch.size, partitioner,
// transaction.timeout.ms) and transactional.id; produce ... producer=NAME
// sends through it, values=a,b,c one record for each value. wire makes
// its next produce requests (after= of them pass first) lose the request
// or the answer; the producer retries. txn runs a transactional
// producer's initTransactions, beginTransaction, sendOffsetsToTransaction
// (the group's members' positions), commitTransaction and
// abortTransaction. A group's isolation.level is read_uncommitted or
// read_committed.
//
//	share-join GROUP MEMBER topics=T1,T2 [share.acknowledgement.mode=implicit|explicit] [max.poll.records=N]
//	share-poll GROUP MEMBER [max=N]
//	acknowledge GROUP MEMBER accept|release|reject|renew [TOPIC/PARTITION [offsets=N|N-M|N,M,...]]
//	share-leave GROUP MEMBER
//
// Share groups (KIP-932; core/share.go): share-join makes the group on its
// first member; crash GROUP MEMBER crashes a share group's member too, and
// config group NAME takes a share group's configs (share.record.lock.duration.ms,
// share.delivery.count.limit, ...). acknowledge without a partition
// acknowledges every record of the member's last poll it has not
// acknowledged yet; with one, that partition's, or the offsets named.
//
// seed, if present, is the first command (the default seed is 0). rules,
// if present, comes first or right after seed: the version of the
// engine's rules the scenario runs under (core/rules.go); a script without
// it runs under the latest, and a link without it was made before rules
// were numbered and is read as rules 1 (DecodeLink). A
// produce without key= is keyless (key="" is the empty key, which is a
// key). poll's max defaults to 500, Kafka's max.poll.records. A topic
// gets 1 partition unless told otherwise, as with Kafka's num.partitions.
//
// Replication: a cluster has 3 brokers, numbered from 1, unless brokers says
// otherwise; a topic's replication.factor (1 by default, as Kafka's
// default.replication.factor), min.insync.replicas and
// unclean.leader.election.enable are topic configs. acks defaults to all,
// as in Kafka since 3.0. broker crash stops a broker (restart brings it back
// with its log), isolate cuts it off from the other brokers, slow limits how
// fast its followers copy, heal undoes isolate and slow.
//
// Workloads act as virtual time passes: a producer makes its k-th record at
// start + ceil(k·period/count) with keys key-0, key-1, ... (sequence),
// uniform over keyspace keys, or Zipf over keyspace keys with the given
// exponent (key-0 the hottest). keylist=acct-1,acct-2 names the keys
// instead (sequence goes round it, and it is the keyspace: acct-1 the
// hottest), and key=tenant-{n} a pattern the drawn number fills; both
// change names, not draws. A consumer polls (and with commit, commits)
// at its rate, and stops when its member leaves or crashes. A workload
// whose action fails stops, with an error event. Draws come from a
// generator seeded by the seed and the workload's name.
//
// Parse reports the first problem as an *Error with its line and column,
// and suggests the nearest command or argument name for a typo. Format
// writes the canonical text: arguments in a fixed order, durations in their
// largest exact unit, quotes only where needed; Parse(Format(cmds)) gives
// cmds back.
//
// # Limits
//
// A script holds at most MaxCommands commands of at most MaxLineBytes
// bytes; a scenario produces at most MaxRecords records (commands and
// workloads together), has at most MaxTotalPartitions partitions over all
// topics, compacts at most MaxCompactedRecords records over all its compact
// commands, and its workloads act at most MaxWorkloadActions times in one
// advance; over all its commands it does at most MaxWork units of work
// (records produced and delivered, polls, events: MaxWork, PollWork). A link decodes from at most MaxLinkChars characters to at most
// MaxScriptBytes bytes. Commands and links beyond them are refused with an
// error, never truncated.
package scenario
