// Package core is plog's engine: a deterministic, in-memory model of Kafka's
// partitioned log. It holds topics, partitions, segments, offsets, the Java
// client's partitioner, retention, compaction, consumer groups with Kafka's
// assignors, lag and a virtual clock.
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
// The entry point is PartitionedLog. Operations that change state append
// Events, which callers collect with DrainEvents to animate or print them.
package core
