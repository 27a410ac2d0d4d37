// Package kafkarun runs a plog scenario on a real Kafka (or Kafka-compatible)
// cluster with franz-go, reads back what the cluster did in the playground's
// own State, and compares it with the playground's prediction for the same
// script.
//
// Everything the run creates lives under a prefix (topics and group ids
// start with it), so it never touches other topics or groups; at the end it
// deletes what it created, unless told to keep it. When the run fails part
// way, or is stopped (its context cancelled), it deletes what it created
// whatever it was told, on deadlines of its own; what it could not delete,
// its error (a LeftBehindError) lists with the Kafka commands that delete
// it. Every wait on the cluster has a deadline (see Options.WaitTimeout):
// a broker that stops answering fails the run at the command it stopped
// in, and the run creates no topic that Kafka would refuse (a name longer
// than 249 characters once prefixed) or read as its own (starting "__").
//
// How each command runs on the cluster:
//
//   - topic: CreateTopics with the Kafka configs the script sets
//     (retention.*, cleanup.policy, delete.retention.ms,
//     min.compaction.lag.ms, replication.factor and the replication
//     configs; segment.* are left to the broker, whose minimum
//     segment size is far above the playground's, and segment.records and
//     partitioner are the playground's own).
//   - produce: every record goes through the producer's own partitioner
//     as the scenario configures the topic (topics.go's
//     scriptPartitioner): a keyed one by murmur2 of its key, as Kafka's
//     Java client does; one with partition= to that partition; a keyless
//     one round-robin as the Java client's RoundRobinPartitioner counts,
//     or by a sticky partitioner (franz-go's, which are the Java
//     client's). A command's records are flushed together, one batch per
//     partition. Where a sticky partitioner placed keyless records, it
//     picked its partitions at random, so the comparison checks its rule
//     (the records sent together share a partition), the topic's records
//     as a whole and each partition's keyed records, rather than the
//     partition each record is in; a truncate past the cluster's end of
//     such a partition truncates at its end.
//   - join, leave, crash: each member is its own franz-go consumer client in
//     the group (group id prefixed), with the group's strategy as balancer
//     and its client id set to the member's name, so that the broker orders
//     members as the playground does. Auto-commit is off unless the group's
//     auto.commit is on; crash closes the client, which leaves at once
//     instead of after session.timeout.ms. A static member (instance=)
//     sends no LeaveGroup, as in Kafka: it stays in the group, with its
//     partitions, until its session ends in the playground's virtual
//     time, and then the run removes it as an admin (its session on the
//     cluster is at least five minutes, so that the wall clock does not
//     end it first). The cleanup removes whatever members the broker
//     still lists, even those whose join never finished, before deleting
//     the run's groups.
//   - advance: does not wait. Groups whose rebalance the playground ended
//     are let to settle on the cluster too, so that rebalances end at the
//     same points of the script on both sides. Before a poll, a commit or
//     a membership change of a group the playground is rebalancing, and
//     at the end of the script, both sides let the rebalance end: the
//     playground's clock advances to its end (in virtual time, as the
//     comparison's notes say), the cluster settles; then the rows compare
//     settled groups, and no assignment is excused by timing. From rules 4
//     a playground's rebalance waits for its members to rejoin in their
//     polls: the run polls those that have not (max=1) on both sides, a
//     member the playground removes for not polling within
//     max.poll.interval.ms leaves the cluster's group too, and the clients
//     refresh their metadata when the playground's group leader does
//     (timing.go).
//   - poll: waits until the group is stable, then fetches until the member
//     holds max records or all its partitions have been read to their end
//     (or a timeout). The member keeps a position on every partition it owns
//     after a poll, as the Java consumer does: each poll first sets the
//     client's positions where the Java consumer's would be (the client
//     takes its own at assignment and fetches ahead). A poll stopped at max
//     explains the offsets and lag of the partitions it read, and nothing
//     else.
//   - commit: commits the member's positions with its generation, as the
//     Java consumer's commitSync does; commit with offset= commits one
//     offset (through a live member, else as an admin).
//   - reset: commits the offsets kafka-consumer-groups --reset-offsets would.
//   - delete-group: DeleteGroups, as kafka-consumer-groups --delete; the
//     cluster's answer (deleted, NON_EMPTY_GROUP, GROUP_ID_NOT_FOUND) is a
//     row of its own, and the deleted group is Dead on both sides
//     (delete_group.go).
//   - join with group.protocol=consumer: a member of Kafka 4's consumer
//     protocol (consumer_protocol.go); each member runs the protocol its
//     join names, so a classic group rolled to the consumer protocol one
//     member at a time converts on the cluster as in the playground.
//     brokers' group.consumer.migration.policy is the cluster's, which
//     Kafka 4.4 reads only at broker start: the run compares it with the
//     script's (migration.go).
//   - truncate: DeleteRecords. partitions: CreatePartitions.
//   - config topic: IncrementalAlterConfigs; config group: applied to the
//     members that join afterwards. A group only config group named has
//     no member on either side: the broker describes it as Dead, which
//     the comparison reads as the playground's Empty.
//   - share-join, share-poll, acknowledge, share-leave, and crash and
//     config group on a share group: franz-go's share consumer, one
//     client a member (share.go).
//   - producer-config, produce producer=, txn: each named producer is a
//     franz-go client of its own with its configs (producer.go); txn runs
//     its transaction as Kafka 4.4 does with the transaction protocol v2
//     (txn.go); a read_committed group fetches with that isolation. The
//     state adds the markers, transactional records, last stable offsets,
//     producers' epochs and sequences, and each poll's records. wire: made
//     by the producer's own connections on a produce of one record
//     (producer_wire.go); otherwise what it changed differs with its
//     Reason.
//   - compact, workloads, reset to-datetime: the broker's cleaner runs on
//     its own schedule, workloads are not run, and record times are the wall
//     clock's, not the playground's virtual clock; what they change is
//     reported as an expected difference with its Reason.
package kafkarun
