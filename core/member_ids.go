package core

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"

	"plog/core/assign"
)

// Member ids, as Kafka's group coordinator makes them (rules 3 on).
//
// A member's name in a scenario (`join billing c1 ...`) is its client.id,
// set explicitly: every later command (poll, commit, leave, crash) names the
// member by it, so the language requires it and never falls back on the
// Java consumer's default client.id ("consumer-" + group.id + "-" + the
// group.instance.id, or for a dynamic member a sequence number counting the
// consumers of its process, ConsumerConfig.maybeOverrideClientId in
// kafka-clients 4.x), which would give every dynamic consumer of a group, each
// in its own process, the same name.
//
// The member id is the coordinator's: when a member joins with no member id
// it makes one, ClassicGroup.generateMemberId in Kafka 4.x's group
// coordinator (org.apache.kafka.coordinator.group.classic): the client.id, a
// dash and a random UUID, or for a static member its group.instance.id, a
// dash and a UUID (GroupMetadataManager.classicGroupJoinNewMember; a dynamic
// member first gets it back with MEMBER_ID_REQUIRED and joins again with
// it, which the playground folds into the one join). A static member that
// comes back under its group.instance.id gets a new member id that
// replaces the old one (GroupMetadataManager.
// updateStaticMemberThenRebalanceOrCompleteJoin, ClassicGroup.
// replaceStaticMember); a dynamic member that leaves and joins again is a
// new member with a new id; a member that changes its subscription rejoins
// with the id it has.
//
// The assignors order members by it (AbstractPartitionAssignor.MemberInfo.
// compareTo in kafka-clients 4.x: static members first, by group.instance.id,
// then the member id, as strings; assign.SortMembers), so the UUID can decide
// who gets what: the ids of c1 and c1-b compare at the UUID's first digit
// against "b". Kafka draws the UUID at random; the playground draws it from
// the scenario's seed, so the same script gives the same ids everywhere.
// Under rules 1 and 2 members have no member id and the assignors order
// them by name. A consumer-protocol member makes its own id
// (newConsumerMemberID), and from rules 5 a classic member joining a
// consumer group gets one of the same kind from the coordinator
// (newClassicInConsumerMemberID, group_migration.go).

// newMemberID makes the member id of a member joining under name (its
// client.id) with instanceID (its group.instance.id, "" for a dynamic
// member): "" under rules 1 and 2.
func (l *PartitionedLog) newMemberID(name, instanceID string) string {
	if !l.follows(KafkaMemberIDs) {
		return ""
	}
	id := memberIDFor(name, instanceID, l.seed, l.groups.memberIDsMade)
	l.groups.memberIDsMade++
	return id
}

// memberIDFor is the member id the coordinator makes as its n-th (from 0)
// of the scenario.
func memberIDFor(name, instanceID string, seed int64, n uint64) string {
	prefix := name
	if instanceID != "" {
		prefix = instanceID
	}
	return prefix + "-" + seededUUID(seed, n)
}

// seededUUID is the n-th UUID of a seed, written as java.util.UUID.toString
// writes a random (version 4) UUID: 32 lower-case hex digits in groups of
// 8-4-4-4-12.
func seededUUID(seed int64, n uint64) string {
	hi, lo := seededUUIDBits(seed, n)
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", hi>>32, hi>>16&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
}

// seededUUIDBits are the 128 bits of the n-th random (version 4) UUID of a
// seed, as java.util.UUID.randomUUID sets them. They come from splitmix64
// over a stream of their own, so that drawing member ids moves nothing the
// partitioners draw.
func seededUUIDBits(seed int64, n uint64) (hi, lo uint64) {
	state := uint64(seed) ^ 0x6d656d6265722d69 // "member-i": a stream apart from randomIntn's
	state += 2 * n * 0x9e3779b97f4a7c15
	hi, lo = splitmix64(&state), splitmix64(&state)
	hi = hi&^0xf000 | 0x4000 // version 4, as UUID.randomUUID
	lo = lo&^(0xc<<60) | 0x8<<60
	return hi, lo
}

// newConsumerMemberID makes the member id of a consumer-protocol member,
// which the client makes itself in Kafka 4 (KIP-1082):
// Uuid.randomUuid().toString() in AbstractMembershipManager of
// kafka-clients 4.4, a random UUID written as org.apache.kafka.common.Uuid
// writes one, its 16 bytes in URL-safe base64 without padding (22
// characters). Uuid.randomUuid draws again for a UUID that is reserved (0,
// 1) or whose text starts with a dash; the playground draws from the seed.
func (l *PartitionedLog) newConsumerMemberID() string {
	for {
		id := kafkaUuidFor(l.seed, l.groups.memberIDsMade)
		l.groups.memberIDsMade++
		if id[0] != '-' {
			return id
		}
	}
}

// kafkaUuidFor is the n-th UUID of a seed as Kafka's Uuid.toString writes
// it.
func kafkaUuidFor(seed int64, n uint64) string {
	hi, lo := seededUUIDBits(seed, n)
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], hi)
	binary.BigEndian.PutUint64(b[8:], lo)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// splitmix64 advances state and returns its next number.
func splitmix64(state *uint64) uint64 {
	*state += 0x9e3779b97f4a7c15
	z := *state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// assignorID is how the assignors know the member: its member id from
// rules 3, its name before.
func (m *member) assignorID() string {
	if m.memberID != "" {
		return m.memberID
	}
	return m.id
}

// byName keys an assignment made over assignorIDs by the members' names.
func (g *group) byName(plan Assignment) Assignment {
	out := make(Assignment, len(plan))
	for _, m := range g.members {
		if tps, ok := plan[m.assignorID()]; ok {
			out[m.id] = tps
		}
	}
	return out
}

// assignorOrder lists the names of the group's running members in the
// order the assignors take them (assign.SortMembers).
func (g *group) assignorOrder() []string {
	var members []AssignMember
	names := map[string]string{}
	for _, m := range g.members {
		if m.down == "" {
			members = append(members, AssignMember{ID: m.assignorID(), InstanceID: m.instanceID})
			names[m.assignorID()] = m.id
		}
	}
	assign.SortMembers(members)
	order := make([]string, len(members))
	for i, m := range members {
		order[i] = names[m.ID]
	}
	return order
}
