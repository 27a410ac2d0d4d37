package core

import "plog/core/assign"

// The assignors live in core/assign, a pure package of their own; these
// names keep the engine's API in one vocabulary, since its views speak of
// partitions, members and strategies too.

// TopicPartition names one partition of one topic (assign.TopicPartition).
type TopicPartition = assign.TopicPartition

// AssignMember is a member as an assignor sees it (assign.Member).
type AssignMember = assign.Member

// Assignment maps each member id to its partitions (assign.Assignment).
type Assignment = assign.Assignment

// The assignment strategies, named as Kafka's partition.assignment.strategy
// protocols are (see core/assign).
const (
	StrategyRange             = assign.Range
	StrategyRoundRobin        = assign.RoundRobin
	StrategySticky            = assign.Sticky
	StrategyCooperativeSticky = assign.CooperativeSticky
)
