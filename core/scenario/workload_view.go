package scenario

import (
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
	// Line is the command that started it, in canonical form.
	Line string
}

// StopLine is the command that stops the workload.
func (w Workload) StopLine() string {
	if w.Producer {
		return Command{Name: "stop", Args: []Arg{{Value: w.Name}}}.String()
	}
	return Command{Name: "stop", Args: []Arg{{Value: w.Group}, {Value: w.Member}}}.String()
}

// Workloads lists the workloads running at the position, in the order they
// started.
func (s *Session) Workloads() []Workload {
	out := make([]Workload, len(s.cur.loads))
	for i, l := range s.cur.loads {
		out[i] = Workload{Producer: l.producer, Name: l.name, Topic: l.topic,
			Group: l.group, Member: l.member, Keys: l.keys, Line: l.command}
	}
	return out
}

// Ahead returns the engine as it would be after ms more of virtual time,
// with the running workloads acting as they would: what an advance would
// make, without applying it. The session does not change. A lesson's goal
// reads it to tell a state that holds from one that holds only for now.
func (s *Session) Ahead(ms int64) (*core.PartitionedLog, error) {
	w := s.cur.clone()
	if err := w.advanceWithWorkloads(ms); err != nil {
		return nil, err
	}
	return w.log, nil
}
