package conformance

// simplifications is FIDELITY.md's list of what the playground simplifies
// on purpose, each with the words the page shows for it (app/help_topics.go,
// the help the page opens beside each term).
const simplifications = `
## What plog simplifies on purpose

Each is said on the page where the learner meets it; the quotes are the page's words (app/help_topics.go).

- **Virtual time.** The clock moves only with ` + "`advance`" + `; retention, session timeouts, rebalances and
  auto-commit follow it, where a broker follows the wall clock. The page: "virtual time".
  ` + "`plogsim kafka`" + ` does not wait for ` + "`advance`" + ` and says so in what it did not compare.
- **Rebalances take a fixed time.** A rebalance ends after ` + "`rebalance.ms`" + ` (3 s) of virtual time, where
  Kafka ends it when the members have rejoined (and waits group.initial.rebalance.delay.ms, 3 s, for the first).
- **Segments by record count.** "it rolls to a new one after segment.bytes, segment.ms or, in the playground,
  segment.records." Kafka's least segment.bytes is far above a scenario's records, so on the broker a
  partition stays one active segment.
- **Auto-commit is off by default.** "Kafka's default is on; the playground's is off so that commits are yours to make."
- **auto.offset.reset is earliest by default.** "Kafka's default is latest; the playground's is earliest."
- **One replica by default.** "With one replica (replication.factor=1, the playground's default) it is the log end
  offset"; "The playground's cluster has 3 brokers unless brokers N says otherwise".
- **The lag alert** is the playground's own: "The playground lights it when a group's total lag reaches
  lag.alert.records or its largest time lag reaches lag.alert.ms, as a monitoring system would."
- **A crash waits for the session timeout.** The playground's crashed member stays until session.timeout.ms, as
  after a real crash: "A crashed member's partitions sit unread until then." On the broker the run's client
  closes and leaves at once (kafkarun's crash reason).
`
