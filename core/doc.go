// Package core is plog's engine: a deterministic, in-memory model of Kafka's
// partitioned log. It holds topics, partitions, segments, offsets, the Java
// client's partitioner, retention, compaction, consumer groups with Kafka's
// assignors, lag, replication over brokers and a virtual clock.
//
// The package is pure: it imports only the standard library, performs no I/O,
// starts no goroutines, never reads the wall clock and draws randomness only
// from the seed it is given. The same sequence of calls therefore yields the
// same state, byte for byte, natively and in WebAssembly.
//
// Every exported operation validates its input before it changes anything: on
// error it returns a message naming the problem and the state is untouched. No
// input may make it panic, because a panic in WebAssembly kills the page.
//
// # Where the log simplifies Kafka
//
// The log follows Kafka's rules for partitioning, offsets, DeleteRecords,
// segment retention and compaction. Where it departs, it does so on purpose
// and says so here:
//
//   - Replication is an overlay (replica.go, broker.go): with the default
//     replication.factor of 1 a produce is acknowledged at once and the high
//     watermark is the log end offset. Replicas are placed by Kafka's
//     rack-unaware rule with a fixed start rather than a random one;
//     followers fetch on a 500ms grid of virtual time; the controller
//     notices a crashed broker at once; the producer never retries; a
//     slowed broker's pace counts records, not bytes; every replica runs
//     retention and compaction at the same moment as the leader.
//   - Smaller defaults (DefaultTopicConfig lists them beside Kafka's) so that
//     segments and retention show with a few dozen records.
//   - segment.records is the playground's own config: it rolls a segment
//     after a number of records. partitioner is too: Kafka chooses keyless
//     behaviour in the producer (partitioner.class).
//   - A record's size, for segment.bytes and retention.bytes, is
//     len(key)+len(value)+8 bytes, about Kafka's per-record framing; records
//     are not batched, so the 61-byte batch header is not counted.
//   - Retention checks run, under rules 3, as Kafka's do (30s after the
//     start, then every 5 minutes of virtual time); under rules 1 and 2 every
//     RetentionCheckIntervalMs (30s), at multiples of it. Segments wholly
//     below a new log start are deleted by Truncate at once rather than at
//     the next check.
//   - The cleaner runs by itself under rules 3 with the brokers' defaults
//     (every 15s it finds nothing, a dirty ratio above 0.5; no topic sets
//     min.cleanable.dirty.ratio or max.compaction.lag.ms), and Compact cleans
//     a topic at once whatever its ratio, the playground's shortcut; under
//     rules 1 and 2 it ran only when Compact was called. It cleans each
//     segment on its own, removing segments it empties (Kafka merges small
//     cleaned segments into one).
//   - Under rules 1 (rules.go), a topic's partitioner=sticky moves on after
//     StickyBatchRecords records rather than after a full batch of
//     batch.size bytes; under rules 2 keyless records follow Kafka's
//     built-in partitioner by its bytes, with the approximations listed in
//     partitioner_builtin.go.
//   - Timestamps are the virtual clock at produce time (LogAppendTime-like):
//     producers cannot set them, so they never go backwards in a partition.
//
// The entry point is PartitionedLog. Operations that change state append
// Events, which callers collect with DrainEvents to animate or print them.
// Records produced one after another to a partition at one instant make one
// produced event, a run of offsets (From, To, Count), as Kafka's produce
// response reports a batch by its base offset and record count.
package core
