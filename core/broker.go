package core

import (
	"fmt"
	"slices"
	"strings"

	"plog/core/units"
)

// Brokers, as the replication overlay models them:
//
//   - A cluster has DefaultBrokers brokers unless SetBrokers says otherwise,
//     numbered from 1. Every partition has replication.factor replicas on
//     distinct brokers (see placeReplicas for the rule).
//   - CrashBroker stops a broker. Its disk survives: RestartBroker brings it
//     back with the log it had. The controller notices a crash at once (in
//     Kafka, after broker.session.timeout.ms): the broker leaves every ISR
//     and the partitions it led elect a new leader.
//   - IsolateBroker cuts a broker off from the other brokers, not from the
//     controller or the clients: it keeps its leaderships and serves
//     producers and consumers, but no replica traffic passes, so followers
//     on either side fall behind and leave the ISR after
//     replica.lag.time.max.ms. HealBroker reconnects it.
//   - SlowBroker limits how fast the broker's follower replicas copy: at
//     most the given number of records per period, for each partition it
//     follows (Kafka's follower replication throttle, counted in records).
//     HealBroker also lifts the limit.

// DefaultBrokers is how many brokers a cluster has until SetBrokers.
const DefaultBrokers = 3

// MaxBrokers is the most brokers a playground cluster may have.
const MaxBrokers = 100

// defaultReplicaLagTimeMaxMs is Kafka's default replica.lag.time.max.ms
// (the registry's, config_registry.go): a follower that has not caught up
// with the leader for longer leaves the ISR.
var defaultReplicaLagTimeMaxMs = durationDefault(OnCluster, "replica.lag.time.max.ms")

// maxPaceRecords bounds a slowed broker's records per period, so that pace
// arithmetic over the whole virtual clock never overflows.
const maxPaceRecords = 100_000

// broker is one broker of the cluster.
type broker struct {
	id       int
	down     bool // crashed and not yet restarted
	isolated bool // cut off from the other brokers
	// paceRecords per paceMs is how fast its followers copy; 0: as fast as
	// the fetches go.
	paceRecords, paceMs int64
}

// cluster is the brokers and the cluster-wide replication settings.
type cluster struct {
	brokers  []broker // ids 1..len(brokers), in order
	lagMaxMs int64    // replica.lag.time.max.ms
	// touched says a broker command was given: the state then shows the
	// brokers even when every topic has one replica.
	touched bool
}

func newCluster() cluster {
	c := cluster{lagMaxMs: defaultReplicaLagTimeMaxMs}
	for id := 1; id <= DefaultBrokers; id++ {
		c.brokers = append(c.brokers, broker{id: id})
	}
	return c
}

func (c *cluster) clone() cluster {
	d := *c
	d.brokers = slices.Clone(c.brokers)
	return d
}

// broker returns the broker with the id, or nil.
func (c *cluster) broker(id int) *broker {
	if id < 1 || id > len(c.brokers) {
		return nil
	}
	return &c.brokers[id-1]
}

// alive reports whether a broker runs.
func (c *cluster) alive(id int) bool {
	b := c.broker(id)
	return b != nil && !b.down
}

// connected reports whether replica traffic passes between two brokers:
// both run and neither is isolated.
func (c *cluster) connected(a, b int) bool {
	x, y := c.broker(a), c.broker(b)
	return x != nil && y != nil && !x.down && !y.down && !x.isolated && !y.isolated
}

// Event kinds of the replication overlay. Broker is the broker concerned;
// a leader-elected event carries the leader epoch in Generation.
const (
	EventBrokerCrashed     EventKind = "broker-crashed"      // Broker
	EventBrokerRestarted   EventKind = "broker-restarted"    // Broker
	EventBrokerIsolated    EventKind = "broker-isolated"     // Broker
	EventBrokerHealed      EventKind = "broker-healed"       // Broker
	EventBrokerSlowed      EventKind = "broker-slowed"       // Broker, Detail: the pace
	EventBrokersChanged    EventKind = "brokers-changed"     // Count = brokers
	EventISRShrunk         EventKind = "isr-shrunk"          // Topic, Partition, Broker (who left), Count = ISR size, Detail (why)
	EventISRExpanded       EventKind = "isr-expanded"        // Topic, Partition, Broker (who joined), Count = ISR size
	EventLeaderElected     EventKind = "leader-elected"      // Topic, Partition, Broker, Generation = leader epoch, Detail (clean / unclean)
	EventPartitionOffline  EventKind = "partition-offline"   // Topic, Partition, Detail (why no replica may lead)
	EventRecordsLost       EventKind = "records-lost"        // Topic, Partition, From..To, Count, Detail (how many were committed or acknowledged)
	EventAcknowledged      EventKind = "acknowledged"        // Topic, Partition, From..To, Count: acks=all records the high watermark passed
	EventNotEnoughReplicas EventKind = "not-enough-replicas" // Topic, Partition, From..To, Count: acks=all records that failed (NOT_ENOUGH_REPLICAS_AFTER_APPEND)
	EventProduceFailed     EventKind = "produce-failed"      // Topic, Partition, From..To, Count, Detail: acks=all records whose leader changed before they were acknowledged
)

// BrokerInfo describes one broker.
type BrokerInfo struct {
	ID       int
	Down     bool
	Isolated bool
	// PaceRecords per PaceMs is the slowed copy rate of its followers;
	// both 0 when it is not slowed.
	PaceRecords, PaceMs int64
	// Leads and Follows count the partitions it leads and the other
	// replicas it holds.
	Leads, Follows int
}

// Brokers describes the cluster's brokers by id.
func (l *PartitionedLog) Brokers() []BrokerInfo {
	infos := make([]BrokerInfo, len(l.cluster.brokers))
	for i, b := range l.cluster.brokers {
		infos[i] = BrokerInfo{ID: b.id, Down: b.down, Isolated: b.isolated, PaceRecords: b.paceRecords, PaceMs: b.paceMs}
	}
	for _, name := range l.topicNames {
		for _, p := range l.topics[name].partitions {
			if p.replicas == nil {
				continue
			}
			for i, r := range p.replicas.replicas {
				if i == p.replicas.leader {
					infos[r.broker-1].Leads++
				} else {
					infos[r.broker-1].Follows++
				}
			}
		}
	}
	return infos
}

// ReplicaLagTimeMaxMs returns replica.lag.time.max.ms.
func (l *PartitionedLog) ReplicaLagTimeMaxMs() int64 { return l.cluster.lagMaxMs }

// ReplicationInUse reports whether the cluster is worth showing: a topic
// has more than one replica, a broker was changed by a command, or a broker
// is not healthy.
func (l *PartitionedLog) ReplicationInUse() bool {
	if l.cluster.touched {
		return true
	}
	for _, name := range l.topicNames {
		if l.topics[name].config.ReplicationFactor > 1 {
			return true
		}
	}
	return false
}

// SetBrokers sets how many brokers the cluster has, numbered 1 to n. New
// brokers start empty (Kafka does not move replicas onto them by itself);
// removing a broker that holds a replica is refused.
func (l *PartitionedLog) SetBrokers(n int) error {
	if n < 1 || n > MaxBrokers {
		return fmt.Errorf("a cluster has between 1 and %d brokers, got %d", MaxBrokers, n)
	}
	for _, name := range l.topicNames {
		for i, p := range l.topics[name].partitions {
			for _, r := range p.replicas.replicas {
				if r.broker > n {
					return fmt.Errorf("broker %d holds a replica of %s/%d: a cluster of %d brokers would lose it", r.broker, name, i, n)
				}
			}
		}
	}
	for id := len(l.cluster.brokers) + 1; id <= n; id++ {
		l.cluster.brokers = append(l.cluster.brokers, broker{id: id})
	}
	l.cluster.brokers = l.cluster.brokers[:n]
	l.cluster.touched = true
	l.emit(Event{Kind: EventBrokersChanged, Count: n})
	return nil
}

// SetReplicaLagTimeMaxMs sets replica.lag.time.max.ms for the cluster,
// within the registry's bounds.
func (l *PartitionedLog) SetReplicaLagTimeMaxMs(ms int64) error {
	if def, _ := LookupConfig(OnCluster, "replica.lag.time.max.ms"); ms < def.Min || ms > def.Max {
		return fmt.Errorf("replica.lag.time.max.ms must be between %s and %s, got %s", units.Duration(def.Min), units.Duration(def.Max), units.Duration(ms))
	}
	l.cluster.lagMaxMs = ms
	l.cluster.touched = true
	return nil
}

// knownBroker returns the broker with the id or an error naming the ids
// there are.
func (l *PartitionedLog) knownBroker(id int) (*broker, error) {
	b := l.cluster.broker(id)
	if b == nil {
		return nil, fmt.Errorf("unknown broker %d: the cluster has brokers 1 to %d", id, len(l.cluster.brokers))
	}
	return b, nil
}

// CrashBroker stops a broker. The partitions it led elect a new leader from
// their ISR (or, with unclean.leader.election.enable, from any live
// replica); with no candidate they go offline.
func (l *PartitionedLog) CrashBroker(id int) error {
	b, err := l.knownBroker(id)
	if err != nil {
		return err
	}
	if b.down {
		return fmt.Errorf("broker %d is already down", id)
	}
	b.down = true
	l.cluster.touched = true
	l.emit(Event{Kind: EventBrokerCrashed, Broker: id})
	l.eachReplicated(func(t *topic, i int, p *partition) {
		l.onBrokerDown(t, i, p, id)
	})
	return nil
}

// RestartBroker brings a crashed broker back with the log it had. Offline
// partitions it may lead elect it; elsewhere its replicas follow, truncate
// where their log diverges from the leader's (by leader epoch) and rejoin
// the ISR once caught up.
func (l *PartitionedLog) RestartBroker(id int) error {
	b, err := l.knownBroker(id)
	if err != nil {
		return err
	}
	if !b.down {
		return fmt.Errorf("broker %d is not down: only a crashed broker restarts", id)
	}
	b.down = false
	l.emit(Event{Kind: EventBrokerRestarted, Broker: id})
	l.eachReplicated(func(t *topic, i int, p *partition) {
		if p.replicas.leader < 0 {
			l.tryElect(t, i, p)
		}
	})
	return nil
}

// IsolateBroker cuts a broker off from the other brokers.
func (l *PartitionedLog) IsolateBroker(id int) error {
	b, err := l.knownBroker(id)
	if err != nil {
		return err
	}
	if b.isolated {
		return fmt.Errorf("broker %d is already isolated", id)
	}
	b.isolated = true
	l.cluster.touched = true
	l.emit(Event{Kind: EventBrokerIsolated, Broker: id})
	return nil
}

// SlowBroker makes the broker's followers copy at most records records per
// perMs milliseconds, for each partition they follow.
func (l *PartitionedLog) SlowBroker(id int, records, perMs int64) error {
	b, err := l.knownBroker(id)
	if err != nil {
		return err
	}
	if records < 1 || records > maxPaceRecords {
		return fmt.Errorf("broker %d: a pace copies between 1 and %d records per period, got %d", id, maxPaceRecords, records)
	}
	if perMs < 1 || perMs > dayMs {
		return fmt.Errorf("broker %d: a pace's period is between 1ms and 1d, got %s", id, units.Duration(perMs))
	}
	b.paceRecords, b.paceMs = records, perMs
	l.cluster.touched = true
	l.emit(Event{Kind: EventBrokerSlowed, Broker: id, Detail: units.Rate(records, perMs)})
	return nil
}

// HealBroker reconnects an isolated broker and lifts a slowed one's pace.
func (l *PartitionedLog) HealBroker(id int) error {
	b, err := l.knownBroker(id)
	if err != nil {
		return err
	}
	if !b.isolated && b.paceRecords == 0 {
		return fmt.Errorf("broker %d is neither isolated nor slowed: nothing to heal", id)
	}
	b.isolated, b.paceRecords, b.paceMs = false, 0, 0
	l.emit(Event{Kind: EventBrokerHealed, Broker: id})
	return nil
}

// eachReplicated calls f for every partition, topics in name order.
func (l *PartitionedLog) eachReplicated(f func(t *topic, i int, p *partition)) {
	for _, name := range l.topicNames {
		t := l.topics[name]
		for i, p := range t.partitions {
			if p.replicas != nil {
				f(t, i, p)
			}
		}
	}
}

// brokerList writes broker ids as "1,2,3", or "none".
func brokerList(ids []int) string {
	if len(ids) == 0 {
		return "none"
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return strings.Join(parts, ",")
}
