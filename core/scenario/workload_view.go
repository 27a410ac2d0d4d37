package scenario

import (
	"slices"

	"plog/core"
)

// Workload is a running workload as the page and the lessons read it.
type Workload struct {
	Producer bool
	// Name is the producer's name; for a consumer, "GROUP MEMBER".
	Name string
	// Topic is the topic a producer writes to; "" for a consumer.
	Topic string
	// Group and Member name a consumer's member; "" for a producer.
	Group, Member string
	// Keys is how a producer picks keys: none, sequence, uniform or zipf.
	Keys string
	// KeyList is the keys a producer draws from (keylist=), in order;
	// KeyPattern its keys' pattern with {n} (key=). Both are empty for
	// keys key-N.
	KeyList    []string
	KeyPattern string
	// Line is the command that started it, in canonical form.
	Line string
}

// StopLine is the command that stops the workload.
func (w Workload) StopLine() string {
	if w.Producer {
		return Command{Name: CmdStop, Args: []Arg{{Value: w.Name}}}.String()
	}
	return Command{Name: CmdStop, Args: []Arg{{Value: w.Group}, {Value: w.Member}}}.String()
}

// Workloads lists the workloads running at the position, in the order they
// started.
func (s *Session) Workloads() []Workload {
	out := make([]Workload, len(s.cur.loads))
	for i, l := range s.cur.loads {
		out[i] = Workload{Producer: l.producer, Name: l.name, Topic: l.topic,
			Group: l.group, Member: l.member, Keys: l.keys, KeyList: slices.Clone(l.keyList), KeyPattern: l.keyPattern, Line: l.command}
	}
	return out
}

// ProducedAhead returns the engine as it would be after ms more of virtual
// time with the running producers producing and no consumer polling: what
// the producers running now would write, without applying anything. The
// session does not change. Consumers are left out because where a record
// goes does not depend on them, and polling is most of an advance's work.
// A lesson's goal reads it to tell a state that holds from one that holds
// only for now.
func (s *Session) ProducedAhead(ms int64) (*core.PartitionedLog, error) {
	w := s.cur.clone(nil)
	w.loads = slices.DeleteFunc(w.loads, func(l workload) bool { return !l.producer })
	if err := w.advanceWithWorkloads(ms); err != nil {
		return nil, err
	}
	return w.log, nil
}
