package lesson

import (
	"fmt"
	"strings"
)

// A hint says which control to press, and the page points at it: a hint
// writes the control as a link whose address is control:NAME, or
// control:NAME THING for a control that belongs to one member, group,
// topic, producer, workload or broker,
//
//	press [Poll](control:poll b1) with max 5, then [+1 s](control:advance-1s)
//
// and the page draws the label as a button that opens the tab or the
// inspector holding the control, scrolls to it and highlights it. The
// names are this package's, checked when the file is read; the page maps
// each to where it draws it (app/hint_controls.go), and a test of the
// page's checks that every name has a place.

// ControlScope is what a control belongs to: the THING its reference
// names.
type ControlScope int

// The scopes of controls.
const (
	NoScope       ControlScope = iota
	MemberScope                // a member of a consumer or share group
	GroupScope                 // a consumer group or a share group
	TopicScope                 // a topic
	ProducerScope              // a named producer (the Producers panel)
	WorkloadScope              // a producer or consumer workload
	BrokerScope                // a broker, by its id
)

func (s ControlScope) String() string {
	return [...]string{"", "MEMBER", "GROUP", "TOPIC", "PRODUCER", "WORKLOAD", "BROKER"}[s]
}

// ControlDoc is one control a hint can point at.
type ControlDoc struct {
	Name  string
	Scope ControlScope
	Help  string
}

// Usage is the control's address as a hint writes it.
func (c ControlDoc) Usage() string {
	if c.Scope == NoScope {
		return "control:" + c.Name
	}
	return "control:" + c.Name + " " + c.Scope.String()
}

// controlDocs are the controls hints point at, in the order the docs list
// them.
var controlDocs = []ControlDoc{
	{"produce", NoScope, "the Produce button of the produce form"},
	{"produce-key", NoScope, "the produce form's Key"},
	{"produce-value", NoScope, "the produce form's Value"},
	{"produce-partition", NoScope, "the produce form's Partition"},
	{"produce-tombstone", NoScope, "the produce form's tombstone box"},
	{"produce-acks", NoScope, "the produce form's acks"},
	{"produce-producer", NoScope, "the produce form's Producer (a named producer sends the records)"},
	{"produce-count", NoScope, "the produce form's Count"},
	{"join", NoScope, "the consumer groups' join form (+ New group)"},
	{"join-member", GroupScope, "a consumer group's own join form (its + Join a member)"},
	{"new-share-group", NoScope, "the share groups' join form (+ New share group)"},
	{"new-topic", NoScope, "the New topic form"},
	{"topic-config", TopicScope, "a topic's Topic configs form, in its inspector"},
	{"start-producer", NoScope, "the Workloads form that starts a producer workload"},
	{"advance-1s", NoScope, "the +1 s button"},
	{"advance-1m", NoScope, "the +1 m button"},
	{"advance", NoScope, "Advance by and its Advance button"},
	{"poll", MemberScope, "a member's Poll button (consumer or share group)"},
	{"poll-max", MemberScope, "the max records of a consumer's poll"},
	{"commit", MemberScope, "a consumer's Commit button"},
	{"leave", MemberScope, "a member's Leave button"},
	{"crash", MemberScope, "a member's Crash button"},
	{"come-back", MemberScope, "the Come back button of a member that left or crashed"},
	{"release", MemberScope, "a share consumer's Release button"},
	{"reject", MemberScope, "a share consumer's Reject button"},
	{"reset-offsets", GroupScope, "a consumer group's Reset offsets form"},
	{"lag-alert-time", GroupScope, "a group's lag alert (time), in its inspector"},
	{"lag-alert-records", GroupScope, "a group's lag alert (records), in its inspector"},
	{"session-timeout", GroupScope, "a group's session timeout, in its inspector"},
	{"add-partitions", TopicScope, "a topic's Add partitions form, in its inspector"},
	{"run-cleaner", TopicScope, "a topic's Run the cleaner now button"},
	{"stop", WorkloadScope, "a workload's Stop button"},
	{"crash-broker", BrokerScope, "a broker's crash button, under Brokers and replicas"},
	{"restart-broker", BrokerScope, "a crashed broker's restart button"},
	{"lose-answer", ProducerScope, "a named producer's Lose the next answer"},
	{"lose-request", ProducerScope, "a named producer's Lose the next request"},
	{"init", ProducerScope, "a transactional producer's Init"},
	{"begin", ProducerScope, "a transactional producer's Begin"},
	{"send-offsets", ProducerScope, "a transactional producer's Send offsets"},
	{"offsets-group", ProducerScope, "the group whose offsets a transactional producer's Send offsets sends"},
	{"txn-commit", ProducerScope, "a transactional producer's Commit"},
	{"abort", ProducerScope, "a transactional producer's Abort"},
}

// Controls lists the controls a hint can point at.
func Controls() []ControlDoc { return append([]ControlDoc(nil), controlDocs...) }

// ControlRef is a control a hint points at: its name and the thing it
// belongs to ("" for a control of the page's own).
type ControlRef struct {
	Name  string
	Thing string
	// line and col are where the reference is written in the lesson
	// file, for the fairness check's errors.
	line, col int
}

// String is the reference as a hint writes it after control:.
func (r ControlRef) String() string { return strings.TrimSpace(r.Name + " " + r.Thing) }

// Scope is what the control belongs to.
func (r ControlRef) Scope() ControlScope {
	for _, c := range controlDocs {
		if c.Name == r.Name {
			return c.Scope
		}
	}
	return NoScope
}

// controlScheme begins a link's address that names a control.
const controlScheme = "control:"

// parseControl reads the address after control:, or says what is wrong.
func parseControl(addr string) (ControlRef, string) {
	fields := strings.Fields(addr)
	if len(fields) == 0 {
		return ControlRef{}, "control: names no control; write control:NAME, such as control:poll b1"
	}
	var names []string
	for _, c := range controlDocs {
		names = append(names, c.Name)
	}
	for _, c := range controlDocs {
		if c.Name != fields[0] {
			continue
		}
		switch {
		case c.Scope == NoScope && len(fields) > 1:
			return ControlRef{}, fmt.Sprintf("control %s belongs to nothing: write control:%s alone", c.Name, c.Name)
		case c.Scope != NoScope && len(fields) != 2:
			return ControlRef{}, fmt.Sprintf("control %s needs its %s: write %s", c.Name, strings.ToLower(c.Scope.String()), c.Usage())
		case c.Scope != NoScope:
			return ControlRef{Name: c.Name, Thing: fields[1]}, ""
		}
		return ControlRef{Name: c.Name}, ""
	}
	return ControlRef{}, unknownWord("control", fields[0], names)
}
