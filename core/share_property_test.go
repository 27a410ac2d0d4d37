package core

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// Share groups keep Kafka's invariants whatever members do, in any order,
// as virtual time passes: every offset below a share-partition's start
// offset is done with (nothing below it is in flight, and its head is
// never acknowledged or archived, which would have moved it), no record
// is acquired by two members at once, no delivery count passes
// share.delivery.count.limit, an acquired record has an owner and a lock
// in the future, the in-flight records stay within
// share.partition.max.record.locks, and share lag is the high watermark
// less the start offset less the records done in flight.
func TestShareGroupInvariants(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		l := NewPartitionedLog(rapid.Int64().Draw(rt, "seed"))
		if err := l.CreateTopic("orders", rapid.IntRange(1, 3).Draw(rt, "partitions"), nil); err != nil {
			rt.Fatal(err)
		}
		members := []string{"a", "b", "c", "d"}
		steps := rapid.IntRange(1, 300).Draw(rt, "steps")
		maxLimit, maxLocks := 0, 0
		// A low delivery count limit, so that records reach it.
		if err := l.ShareJoin("work", "a", ShareJoinOptions{Topics: []string{"orders"}, AckMode: AckModeExplicit}); err != nil {
			rt.Fatal(err)
		}
		if err := l.SetShareGroupConfigs("work", [][2]string{{"share.delivery.count.limit", fmt.Sprint(rapid.IntRange(2, 4).Draw(rt, "limit"))}}); err != nil {
			rt.Fatal(err)
		}
		for step := range steps {
			member := rapid.SampledFrom(members).Draw(rt, "member")
			var err error
			before, _ := l.ShareGroup("work")
			// Polls and acknowledgements most, crashes and leaves least.
			op := []int{0, 1, 1, 1, 1, 1, 4, 4, 4, 4, 3, 3, 6, 7, 8, 9}[rapid.IntRange(0, 15).Draw(rt, "op")]
			switch op {
			case 0:
				mode := rapid.SampledFrom([]string{AckModeImplicit, AckModeExplicit}).Draw(rt, "mode")
				err = l.ShareJoin("work", member, ShareJoinOptions{Topics: []string{"orders"}, AckMode: mode, MaxPollRecords: rapid.IntRange(1, 8).Draw(rt, "max.poll.records")})
			case 1:
				var got []SharePolled
				got, err = l.SharePoll("work", member, rapid.IntRange(0, 6).Draw(rt, "max"))
				for _, r := range got {
					if owner := ownerIn(before, r.TopicPartition, r.Offset); owner != "" && owner != member {
						rt.Fatalf("step %d: %s's poll returned %s/%d offset %d, which %s held", step, member, r.Topic, r.Partition, r.Offset, owner)
					}
				}
			case 3:
				p := rapid.IntRange(0, 2).Draw(rt, "partition")
				for range rapid.IntRange(1, 30).Draw(rt, "count") {
					if _, err = l.Produce(ProduceRequest{Topic: "orders", Partition: p % mustPartitions(l), Key: "k", HasKey: true, Value: "v"}); err != nil {
						rt.Fatal(err)
					}
				}
			case 4:
				ack := rapid.SampledFrom([]string{AckAccept, AckRelease, AckRelease, AckRelease, AckReject, AckRenew}).Draw(rt, "type")
				err = l.ShareAcknowledge("work", member, TopicPartition{}, nil, ack)
			case 6:
				err = l.Advance(rapid.Int64Range(1, 40_000).Draw(rt, "ms"))
			case 7:
				err = l.ShareCrash("work", member)
			case 8:
				err = l.ShareLeave("work", member)
			case 9:
				name := rapid.SampledFrom([]string{"share.delivery.count.limit", "share.record.lock.duration.ms", "share.partition.max.record.locks"}).Draw(rt, "config")
				value := map[string]string{"share.delivery.count.limit": fmt.Sprint(rapid.IntRange(2, 4).Draw(rt, "new limit")),
					"share.record.lock.duration.ms": "15s", "share.partition.max.record.locks": fmt.Sprint(rapid.IntRange(100, 120).Draw(rt, "locks"))}[name]
				err = l.SetShareGroupConfigs("work", [][2]string{{name, value}})
			}
			_ = err // refusals are part of the game; what follows must hold after each
			if v, err := l.ShareGroup("work"); err == nil {
				for _, e := range v.Configs {
					var n int
					fmt.Sscan(e.Value, &n)
					switch e.Name {
					case "share.delivery.count.limit":
						maxLimit = max(maxLimit, n)
					case "share.partition.max.record.locks":
						maxLocks = max(maxLocks, n)
					}
				}
			}
			checkShareInvariants(rt, l, step, maxLimit, maxLocks)
		}
	})
}

func mustPartitions(l *PartitionedLog) int {
	n, _ := l.Partitions("orders")
	return n
}

// ownerIn is who holds a record in a view, "" for no one.
func ownerIn(v ShareGroupView, tp TopicPartition, offset int64) string {
	for _, p := range v.Partitions {
		if p.TopicPartition != tp {
			continue
		}
		for _, r := range p.InFlight {
			if r.Offset == offset && r.State == RecordAcquired {
				return r.Member
			}
		}
	}
	return ""
}

// checkShareInvariants checks a share group's invariants after a step;
// maxLimit and maxLocks are the highest delivery count limit and record
// lock limit the group has had (a lower one applies from then on).
func checkShareInvariants(t *rapid.T, l *PartitionedLog, step, maxLimit, maxLocks int) {
	v, err := l.ShareGroup("work")
	if err != nil {
		return // no member joined yet
	}
	for _, p := range v.Partitions {
		where := fmt.Sprintf("step %d, %s/%d", step, p.Topic, p.Partition)
		done := 0
		for i, r := range p.InFlight {
			switch {
			case r.Offset < p.StartOffset:
				t.Fatalf("%s: offset %d is in flight below the start offset %d", where, r.Offset, p.StartOffset)
			case i > 0 && r.Offset <= p.InFlight[i-1].Offset:
				t.Fatalf("%s: in-flight offsets out of order: %v", where, p.InFlight)
			case i == 0 && (r.State == RecordAcknowledged || r.State == RecordArchived):
				t.Fatalf("%s: the head of the in-flight records, offset %d, is %s: the start offset should have moved past it", where, r.Offset, r.State)
			case r.DeliveryCount > maxLimit:
				t.Fatalf("%s: offset %d was delivered %d times, past the limit %d", where, r.Offset, r.DeliveryCount, maxLimit)
			case r.State == RecordAcquired && (r.Member == "" || r.LockUntil <= l.Now()):
				t.Fatalf("%s: offset %d is acquired by %q until %d, at %d", where, r.Offset, r.Member, r.LockUntil, l.Now())
			case r.State != RecordAcquired && r.Member != "":
				t.Fatalf("%s: offset %d is %s yet held by %s", where, r.Offset, r.State, r.Member)
			}
			if r.State == RecordAcknowledged || r.State == RecordArchived {
				done++
			}
		}
		if done != p.DeliveryComplete {
			t.Fatalf("%s: %d records done in flight, delivery complete count %d", where, done, p.DeliveryComplete)
		}
		if n := len(p.InFlight); n > 0 && p.EndOffset-p.StartOffset+1 > int64(maxLocks) {
			t.Fatalf("%s: %d offsets in flight, past share.partition.max.record.locks=%d", where, p.EndOffset-p.StartOffset+1, maxLocks)
		}
		if want := p.HighWatermark - p.StartOffset - int64(p.DeliveryComplete); p.Lag != want {
			t.Fatalf("%s: lag %d, want %d", where, p.Lag, want)
		}
	}
	// A member's partitions are its topics': every member gets some while
	// there are no more members than partitions' worth of sharing.
	for _, m := range v.Members {
		for _, tp := range m.Assignment {
			if !slices.Contains(m.Topics, tp.Topic) {
				t.Fatalf("step %d: %s has %s/%d, of a topic it does not subscribe to", step, m.Name, tp.Topic, tp.Partition)
			}
		}
		if len(m.Assignment) == 0 {
			t.Fatalf("step %d: %s has no partition, yet the SimpleAssignor shares partitions so that every member gets work", step, m.Name)
		}
	}
}

// A clone (a checkpoint, undo, time travel) is independent: what happens
// to the original afterwards does not change it.
func TestShareGroupCloneIsIndependent(t *testing.T) {
	l := NewPartitionedLog(7)
	if err := l.CreateTopic("orders", 1, nil); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(l.ShareJoin("work", "a", ShareJoinOptions{Topics: []string{"orders"}, AckMode: AckModeExplicit}))
	_, err := l.SharePoll("work", "a", 0)
	must(err)
	for range 3 {
		_, err := l.Produce(ProduceRequest{Topic: "orders", Partition: -1, Key: "k", HasKey: true})
		must(err)
	}
	_, err = l.SharePoll("work", "a", 0)
	must(err)
	c := l.Clone()
	before, _ := c.ShareGroup("work")
	must(l.ShareAcknowledge("work", "a", TopicPartition{}, nil, AckReject))
	must(l.SetShareGroupConfigs("work", [][2]string{{"share.delivery.count.limit", "2"}}))
	must(l.ShareJoin("work", "b", ShareJoinOptions{Topics: []string{"orders"}}))
	must(l.Advance(60_000))
	after, _ := c.ShareGroup("work")
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("the clone changed with the original:\nbefore %v\nafter  %v", before, after)
	}
	if now, _ := l.ShareGroup("work"); fmt.Sprint(now) == fmt.Sprint(after) {
		t.Errorf("the original did not change: %v", now)
	}
}
