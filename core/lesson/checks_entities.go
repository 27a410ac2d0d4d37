package lesson

import (
	"fmt"
	"slices"
	"strings"

	"plog/core"
	"plog/core/units"
)

// Entities: the things a topic's records are events of, an order or an
// account. A record is an event of the entity its value names before a
// colon ("order-8:created"), or, when its value is one of a check's
// events, of its key (key=order-8 value=created): either way of writing
// it is the entity's event. The entity checks read the entities the
// lesson's start did not hold, the learner's own.

// entityEvent reads which entity a record is an event of, and which event.
func entityEvent(r core.Record, events []string) (entity, event string, ok bool) {
	if entity, event, ok = strings.Cut(r.Value, ":"); ok && entity != "" && event != "" {
		return entity, event, true
	}
	if r.HasKey && r.Key != "" && slices.Contains(events, r.Value) {
		return r.Key, r.Value, true
	}
	return "", "", false
}

// entitiesIn groups records by the entity they are events of; the names
// come sorted.
func entitiesIn(recs []placed, events []string) (map[string][]placed, []string) {
	by := map[string][]placed{}
	var names []string
	for _, r := range recs {
		if entity, _, ok := entityEvent(r.Record, events); ok {
			if _, seen := by[entity]; !seen {
				names = append(names, entity)
			}
			by[entity] = append(by[entity], r)
		}
	}
	slices.Sort(names)
	return by, names
}

// newEntities returns the records of each entity of a topic that the
// lesson's start did not hold, and their names, sorted.
func (x *ctx) newEntities(topic string, events []string) (map[string][]placed, []string) {
	base := &ctx{log: x.baseline()}
	_, old := entitiesIn(base.allRecords(topic), events)
	by, names := entitiesIn(x.allRecords(topic), events)
	names = slices.DeleteFunc(names, func(n string) bool { return slices.Contains(old, n) })
	return by, names
}

func checkNewEntities(x *ctx, c *check) Result {
	topic, least, events := c.args[0], c.count(1), c.args[2:]
	by, names := x.newEntities(topic, events)
	var where []string
	for _, name := range names {
		where = append(where, fmt.Sprintf("%s in partition %d", name, by[name][0].partition))
	}
	x.keep(c, "count", fmt.Sprint(len(names)))
	x.keep(c, "where", units.Join(where))
	if len(names) > 0 {
		x.keep(c, "entity", names[0])
		x.keep(c, "partition", fmt.Sprint(by[names[0]][0].partition))
	}
	if int64(len(names)) < least {
		return pending("%s holds the events of %d new entities; at least %d must be there", topic, len(names), least)
	}
	return solved("%s holds the events of %d new entities (%s)", topic, len(names), units.Join(where))
}

func checkEntitiesInOrder(x *ctx, c *check) Result {
	topic, events := c.args[0], c.args[1:]
	by, names := x.newEntities(topic, events)
	event := func(r placed) string { _, e, _ := entityEvent(r.Record, events); return e }
	for _, name := range names {
		if msg := inOrder(name, by[name], event, events); msg != "" {
			x.keep(c, "entity", name)
			return pending("%s", msg)
		}
	}
	return solved("each new entity's events sit in one partition of %s in the order %s", topic, strings.Join(events, ", "))
}

// keysOf lists the keys of records, in the order they first come.
func keysOf(recs []placed) []string {
	var keys []string
	for _, r := range recs {
		if !slices.Contains(keys, r.Key) {
			keys = append(keys, r.Key)
		}
	}
	return keys
}

func checkEntitiesOneKey(x *ctx, c *check) Result {
	topic, events := c.args[0], c.args[1:]
	by, names := x.newEntities(topic, events)
	for _, name := range names {
		if keys := keysOf(by[name]); len(keys) != 1 {
			x.keep(c, "entity", name)
			x.keep(c, "keys", units.Join(keys))
			return pending("%s's events carry the keys %s, not one", name, units.Join(keys))
		}
	}
	return solved("each new entity's events in %s carry one key", topic)
}

func checkEntitiesOwnKey(x *ctx, c *check) Result {
	topic, events := c.args[0], c.args[1:]
	by, names := x.newEntities(topic, events)
	owner := map[string]string{}
	for _, name := range names {
		for _, key := range keysOf(by[name]) {
			if other, ok := owner[key]; ok {
				x.keep(c, "entity", name)
				x.keep(c, "other", other)
				x.keep(c, "key", key)
				return pending("%s and %s share the key %s", other, name, key)
			}
			owner[key] = name
		}
	}
	return solved("no two new entities in %s share a key", topic)
}

func checkReadInOrder(x *ctx, c *check) Result {
	name, topic, events := c.args[0], c.args[1], c.args[2:]
	v, missing := groupOr(x, name)
	if missing != nil {
		return *missing
	}
	_, names := x.newEntities(topic, events)
	for _, entity := range names {
		first := map[string]int{}
		for i, d := range v.Deliveries {
			if e, ev, ok := entityEvent(d.Record, events); ok && d.Topic == topic && e == entity {
				if _, seen := first[ev]; !seen {
					first[ev] = i
				}
			}
		}
		x.keep(c, "entity", entity)
		for _, ev := range events {
			if _, ok := first[ev]; !ok {
				x.keep(c, "unread", ev)
				return pending("%s has not read %s's %s event yet", name, entity, ev)
			}
		}
		for i := 1; i < len(events); i++ {
			if first[events[i]] < first[events[i-1]] {
				x.keep(c, "late", events[i])
				x.keep(c, "early", events[i-1])
				return pending("%s read %s's %s before its %s", name, entity, events[i], events[i-1])
			}
		}
	}
	return solved("%s read each new entity of %s as %s", name, topic, strings.Join(events, ", "))
}
