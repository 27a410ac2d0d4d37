package core

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// MaxPartitions is the most partitions a topic may have in the playground.
const MaxPartitions = 1000

// maxTopicNameLength is Kafka's limit on topic names.
const maxTopicNameLength = 249

// topic is a named set of partitions sharing one configuration.
type topic struct {
	name       string
	config     TopicConfig
	partitions []*partition

	// roundRobin counts keyless records sent round-robin, like the Java
	// client's per-topic counter in RoundRobinPartitioner.
	roundRobin int64
	// sticky is the partition keyless records stick to (-1: none yet) and
	// stickyCount how many went there since it was chosen.
	sticky      int
	stickyCount int
	// builtIn is the built-in partitioner's state (rules 2, partitioner.go).
	builtIn builtInState
}

func (t *topic) clone(breathe func()) *topic {
	c := *t
	c.partitions = make([]*partition, len(t.partitions))
	for i, p := range t.partitions {
		c.partitions[i] = p.clone(breathe)
		breathe()
	}
	return &c
}

// CreateTopic creates a topic with 1 to MaxPartitions partitions. configs
// uses Kafka's config names with units allowed (retention.ms=7d,
// segment.bytes=4KB, cleanup.policy=compact,delete) plus the playground's
// segment.records and partitioner; unset configs take DefaultTopicConfig.
// Configs are checked in name order, so the first error is always the same.
func (l *PartitionedLog) CreateTopic(name string, partitions int, configs map[string]string) error {
	if err := validTopicName(name); err != nil {
		return err
	}
	if _, exists := l.topics[name]; exists {
		return fmt.Errorf("topic %q already exists", name)
	}
	// Kafka's metric names turn '.' into '_', so it refuses a name that
	// would then collide with an existing one.
	for _, other := range l.topicNames {
		if strings.ReplaceAll(other, ".", "_") == strings.ReplaceAll(name, ".", "_") {
			return fmt.Errorf("topic %q collides with existing topic %q: '.' and '_' are the same in Kafka's metric names", name, other)
		}
	}
	if partitions < 1 || partitions > MaxPartitions {
		return fmt.Errorf("topic %q: partitions must be between 1 and %d, got %d", name, MaxPartitions, partitions)
	}
	config := DefaultTopicConfig()
	if l.follows(BuiltInPartitioner) {
		config.Partitioner = "" // the producer chooses (checkTopicPartitioner)
	}
	names := make([]string, 0, len(configs))
	for n := range configs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		spec, err := findConfigSpec(n)
		if err != nil {
			return fmt.Errorf("topic %q: %v", name, err)
		}
		if err := spec.set(&config, configs[n]); err != nil {
			return fmt.Errorf("topic %q: %v", name, err)
		}
		if err := l.checkTopicPartitioner(name, n); err != nil {
			return err
		}
	}
	if err := l.checkReplication(name, &config); err != nil {
		return err
	}
	t := &topic{name: name, config: config, sticky: -1, builtIn: builtInState{partition: -1, filled: -1}}
	for range partitions {
		t.partitions = append(t.partitions, newPartition(0, l.now))
	}
	l.placeReplicas(t, 0)
	l.topics[name] = t
	i, _ := slices.BinarySearch(l.topicNames, name)
	l.topicNames = slices.Insert(l.topicNames, i, name)
	l.emit(Event{Kind: EventTopicCreated, Topic: name, Count: partitions})
	return nil
}

// validTopicName applies Kafka's rules: 1 to 249 characters from
// [a-zA-Z0-9._-], and not "." or "..".
func validTopicName(name string) error {
	if name == "" {
		return fmt.Errorf("a topic name cannot be empty")
	}
	if name == "." || name == ".." {
		return fmt.Errorf("topic name %q is not allowed", name)
	}
	if len(name) > maxTopicNameLength {
		return fmt.Errorf("topic name is %d characters long; the limit is %d", len(name), maxTopicNameLength)
	}
	for _, c := range []byte(name) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
		if !ok {
			return fmt.Errorf("topic name %q has the character %q: only ASCII letters, digits, '.', '_' and '-' are allowed", name, c)
		}
	}
	return nil
}

// SetTopicConfig changes one config of an existing topic. Retention applies
// the new values at its next check; compaction at the next Compact.
func (l *PartitionedLog) SetTopicConfig(topicName, name, value string) error {
	t, err := l.topic(topicName)
	if err != nil {
		return err
	}
	spec, err := findConfigSpec(name)
	if err != nil {
		return fmt.Errorf("topic %q: %v", topicName, err)
	}
	config := t.config
	if err := spec.set(&config, value); err != nil {
		return fmt.Errorf("topic %q: %v", topicName, err)
	}
	if err := l.checkTopicPartitioner(topicName, name); err != nil {
		return err
	}
	if err := l.checkConfigChange(topicName, &t.config, &config); err != nil {
		return err
	}
	t.config = config
	l.onConfigChanged(t)
	return nil
}

// TopicNames returns the topics' names in sorted order.
func (l *PartitionedLog) TopicNames() []string {
	return slices.Clone(l.topicNames)
}

// TopicConfig returns a topic's configuration.
func (l *PartitionedLog) TopicConfig(topicName string) (TopicConfig, error) {
	t, err := l.topic(topicName)
	if err != nil {
		return TopicConfig{}, err
	}
	return t.config, nil
}

// Partitions returns how many partitions a topic has.
func (l *PartitionedLog) Partitions(topicName string) (int, error) {
	t, err := l.topic(topicName)
	if err != nil {
		return 0, err
	}
	return len(t.partitions), nil
}

// AddPartitions raises a topic's partition count to count, the new total.
// Like Kafka, a topic only grows: existing records stay where they are, and
// keyed records produced from now on map by the new count, so a key may land
// on a different partition than before. Consumer groups reading the topic
// rebalance.
func (l *PartitionedLog) AddPartitions(topicName string, count int) error {
	t, err := l.topic(topicName)
	if err != nil {
		return err
	}
	current := len(t.partitions)
	switch {
	case count < current:
		return fmt.Errorf("topic %q currently has %d partitions; %d would not be an increase: Kafka can add partitions but never remove them", topicName, current, count)
	case count == current:
		return fmt.Errorf("topic %q already has %d partitions", topicName, current)
	case count > MaxPartitions:
		return fmt.Errorf("topic %q: partitions must be at most %d, got %d", topicName, MaxPartitions, count)
	}
	if err := l.checkReplication(topicName, &t.config); err != nil {
		return err
	}
	for range count - current {
		t.partitions = append(t.partitions, newPartition(0, l.now))
	}
	l.placeReplicas(t, current)
	l.emit(Event{Kind: EventPartitionsAdded, Topic: topicName, Count: count})
	l.onPartitionsChanged(topicName)
	return nil
}
