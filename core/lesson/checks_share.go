package lesson

import (
	"fmt"
	"slices"

	"plog/core"
	"plog/core/units"
)

// The checks about share groups (KIP-932, core/share.go): a queue on the
// log, whose members share partitions and whose records are acquired one
// by one, under locks that expire, up to share.delivery.count.limit
// deliveries. Each reads the share group's history from one replay of
// the script (shareHistory), shared by the goal's lines.

var shareChecks = []*checkSpec{
	{name: "share-all-work", usage: "share-all-work GROUP TOPIC", min: 2, max: 2,
		help:   "after the lesson's start, share group GROUP had more running members than TOPIC has partitions, and every one of them had acquired a record of TOPIC, as a replay of the script shows",
		values: []string{"members", "partitions"}, run: checkShareAllWork},
	{name: "share-lock-expired", usage: "share-lock-expired GROUP", min: 1, max: 1,
		help:   "after the lesson's start, a record a member of share group GROUP held (crashed, or too slow to acknowledge it) went back when its acquisition lock expired (share.record.lock.duration.ms), and another member acquired it, as a replay of the script shows",
		values: []string{"crashed", "taker", "record", "deliveries"}, run: checkShareLockExpired},
	{name: "share-poison", usage: "share-poison GROUP", min: 1, max: 1,
		help:   "after the lesson's start, share group GROUP archived a record once it had been delivered share.delivery.count.limit times, as a replay of the script shows",
		values: []string{"record", "deliveries", "limit"}, run: checkSharePoison},
}

// shareRecord names one record of a share-partition.
type shareRecord struct {
	core.TopicPartition
	offset int64
}

func (r shareRecord) String() string { return fmt.Sprintf("%s/%d@%d", r.Topic, r.Partition, r.offset) }

// shareHistory is what a replay of the script shows of one share group
// after the lesson's start.
type shareHistory struct {
	exists bool
	// allWork is the first step at which the group had more running
	// members than the topic has partitions, each of which had acquired
	// a record of it, by topic; allWorkMembers counts them then.
	allWork        map[string]bool
	allWorkMembers map[string]int
	// acquirers are who acquired a record of each topic.
	acquirers map[string][]string
	// expired are the records a crashed member held when its lock
	// expired, with who held them; comeBack the first one another member
	// then acquired.
	expired  []expiredLock
	comeBack *expiredLock
	// archived is the first record archived at the delivery count limit,
	// rejected the first archived by a reject before it.
	archived, rejected *core.Event
	limit              int
}

type expiredLock struct {
	shareRecord
	// crashed is who held the record: a crashed member, or a live one
	// too slow to acknowledge it in time (live).
	crashed, taker string
	live           bool
	deliveries     int
}

// why says how the holder lost the record.
func (e expiredLock) why() string {
	if e.live {
		return "before it acknowledged the record"
	}
	return "after it crashed"
}

// shareHistory replays the script once for a share group and reads its
// history after the lesson's start.
func (x *ctx) shareHistory(group string) *shareHistory {
	if h, ok := x.shares[group]; ok {
		return h
	}
	h := &shareHistory{allWork: map[string]bool{}, allWorkMembers: map[string]int{}, acquirers: map[string][]string{}}
	crashed := map[string]bool{}
	x.replay(func(step int, l core.ReadOnlyLog, events []core.Event) {
		v, err := l.ShareGroup(group)
		if err != nil {
			return
		}
		h.exists = true
		h.limit = configInt(v.Configs, "share.delivery.count.limit")
		if step <= x.startLen {
			for _, m := range v.Members {
				if m.CrashedAt >= 0 {
					crashed[m.Name] = true
				}
			}
			return
		}
		for _, e := range events {
			if e.Group != group {
				continue
			}
			rec := shareRecord{core.TopicPartition{Topic: e.Topic, Partition: e.Partition}, e.Offset}
			switch e.Kind {
			case core.EventShareMemberCrashed:
				crashed[e.Member] = true
			case core.EventShareAcquired:
				if !slices.Contains(h.acquirers[e.Topic], e.Member) {
					h.acquirers[e.Topic] = append(h.acquirers[e.Topic], e.Member)
				}
				if h.comeBack != nil {
					break
				}
				for _, ex := range h.expired {
					if ex.shareRecord == rec && ex.crashed != e.Member {
						ex.taker, ex.deliveries = e.Member, e.Count
						h.comeBack = &ex
						break
					}
				}
			case core.EventShareReleased:
				// A crashed member releases nothing itself: its
				// records go back when their locks expire, as a live
				// member's do when it is too slow to acknowledge them.
				if crashed[e.Member] || e.Cause == core.CauseLockExpired {
					h.expired = append(h.expired, expiredLock{shareRecord: rec, crashed: e.Member, live: !crashed[e.Member]})
				}
			case core.EventShareArchived:
				switch {
				case h.archived == nil && h.limit > 0 && e.Count >= h.limit:
					h.archived = &e
				case h.rejected == nil && h.archived == nil:
					h.rejected = &e
				}
			}
		}
		running := 0
		var names []string
		for _, m := range v.Members {
			if m.CrashedAt < 0 {
				running++
				names = append(names, m.Name)
			}
		}
		for topic, who := range h.acquirers {
			n, _ := l.Partitions(topic)
			if h.allWork[topic] || running <= n {
				continue
			}
			all := true
			for _, name := range names {
				all = all && slices.Contains(who, name)
			}
			if all {
				h.allWork[topic], h.allWorkMembers[topic] = true, running
			}
		}
	})
	if x.shares == nil {
		x.shares = map[string]*shareHistory{}
	}
	x.shares[group] = h
	return h
}

// configInt reads a count config of a view's entries, 0 when it has none.
func configInt(entries []core.ConfigEntry, name string) int {
	for _, e := range entries {
		if e.Name == name {
			var n int
			fmt.Sscan(e.Value, &n)
			return n
		}
	}
	return 0
}

func checkShareAllWork(x *ctx, c *check) Result {
	group, topic := c.args[0], c.args[1]
	partitions := x.partitions(topic)
	if partitions == 0 {
		return pending("there is no topic %s yet", topic)
	}
	x.keep(c, "partitions", units.Plural(int64(partitions), "partition"))
	h := x.shareHistory(group)
	if !h.exists {
		return pending("there is no share group %s yet: share-join a member", group)
	}
	if h.allWork[topic] {
		x.keep(c, "members", units.Plural(int64(h.allWorkMembers[topic]), "member"))
		return solved("share group %s had %s on %s's %s, and each acquired records", group, units.Plural(int64(h.allWorkMembers[topic]), "member"), topic, units.Plural(int64(partitions), "partition"))
	}
	v, _ := x.log.ShareGroup(group)
	var running, idle []string
	for _, m := range v.Members {
		if m.CrashedAt < 0 {
			running = append(running, m.Name)
			if !slices.Contains(h.acquirers[topic], m.Name) {
				idle = append(idle, m.Name)
			}
		}
	}
	x.keep(c, "members", units.Plural(int64(len(running)), "member"))
	if len(running) <= partitions {
		return pending("share group %s has %s running and %s has %s: share-join more members than partitions", group, units.Plural(int64(len(running)), "member"), topic, units.Plural(int64(partitions), "partition"))
	}
	return pending("%s of share group %s %s acquired no record of %s yet: poll each member", units.Join(idle), group, verb(len(idle), "has", "have"), topic)
}

func verb(n int, one, many string) string { return units.Noun(int64(n), one, many) }

func deliveries(n int64) string {
	return fmt.Sprintf("%d %s", n, units.Noun(n, "delivery", "deliveries"))
}

func checkShareLockExpired(x *ctx, c *check) Result {
	group := c.args[0]
	h := x.shareHistory(group)
	if !h.exists {
		return pending("there is no share group %s yet: share-join a member", group)
	}
	if h.comeBack != nil {
		b := h.comeBack
		x.keep(c, "crashed", b.crashed)
		x.keep(c, "taker", b.taker)
		x.keep(c, "record", b.String())
		x.keep(c, "deliveries", deliveries(int64(b.deliveries)))
		return solved("%s's lock on %s expired %s, and %s acquired the record, its delivery %d", b.crashed, b.String(), b.why(), b.taker, b.deliveries)
	}
	if len(h.expired) > 0 {
		e := h.expired[0]
		return pending("%s's lock on %s expired %s: the record is available again; poll another member to take it", e.crashed, e.String(), e.why())
	}
	v, _ := x.log.ShareGroup(group)
	lock := "30s"
	for _, e := range v.Configs {
		if e.Name == "share.record.lock.duration.ms" {
			lock = e.Value
		}
	}
	for _, m := range v.Members {
		if m.CrashedAt >= 0 {
			for _, p := range v.Partitions {
				for _, r := range p.InFlight {
					if r.State == core.RecordAcquired && r.Member == m.Name {
						return pending("%s crashed holding %s/%d@%d: its lock expires at %s (share.record.lock.duration.ms=%s); [advance the clock](control:advance)", m.Name, p.Topic, p.Partition, r.Offset, units.Duration(r.LockUntil), lock)
					}
				}
			}
			return pending("%s crashed holding no record: crash a member right after its poll, before its next poll accepts what it holds", m.Name)
		}
	}
	for _, m := range v.Members {
		for _, p := range v.Partitions {
			for _, r := range p.InFlight {
				if r.State == core.RecordAcquired && r.Member == m.Name {
					return pending("%s holds %s/%d@%d: its lock expires at %s unless it acknowledges the record (share.record.lock.duration.ms=%s); [advance the clock](control:advance)", m.Name, p.Topic, p.Partition, r.Offset, units.Duration(r.LockUntil), lock)
				}
			}
		}
	}
	return pending("no record of share group %s has had its lock expire: poll a member, then let its lock run out (crash it, or advance the clock before it acknowledges)", group)
}

func checkSharePoison(x *ctx, c *check) Result {
	group := c.args[0]
	h := x.shareHistory(group)
	if !h.exists {
		return pending("there is no share group %s yet: share-join a member", group)
	}
	x.keep(c, "limit", fmt.Sprint(h.limit))
	if e := h.archived; e != nil {
		rec := shareRecord{core.TopicPartition{Topic: e.Topic, Partition: e.Partition}, e.Offset}
		x.keep(c, "record", rec.String())
		x.keep(c, "deliveries", deliveries(int64(e.Count)))
		return solved("%s was archived after %s (share.delivery.count.limit=%d): no member gets it again", rec, deliveries(int64(e.Count)), h.limit)
	}
	if e := h.rejected; e != nil {
		return pending("%[1]s rejected %[2]s/%[3]d@%[4]d after %[5]s: a rejected record is archived at once; [release](control:release %[1]s) it instead, poll by poll, to see the delivery count limit (%[6]d) archive it",
			e.Member, e.Topic, e.Partition, e.Offset, deliveries(int64(e.Count)), h.limit)
	}
	v, _ := x.log.ShareGroup(group)
	most, at, holder := 0, "", ""
	for _, p := range v.Partitions {
		for _, r := range p.InFlight {
			if r.DeliveryCount > most {
				most, at, holder = r.DeliveryCount, fmt.Sprintf("%s/%d@%d", p.Topic, p.Partition, r.Offset), r.Member
			}
		}
	}
	if most == 0 {
		return pending("no record of share group %s has been delivered yet: poll a member", group)
	}
	release := "release it"
	if holder != "" {
		release = "[release](control:release " + holder + ") it"
	}
	return pending("%s has had %s of %d: %s and poll again until the limit archives it", at, deliveries(int64(most)), h.limit, release)
}
