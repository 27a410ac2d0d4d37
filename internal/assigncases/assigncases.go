// Package assigncases holds the cases of Kafka's own server-side assignor
// tests that plog keeps (kafka_server_cases.txt, beside this file): the
// core/assign tests check plog's assignors against the expected
// assignments, the conformance suite checks the expected assignments
// against Kafka's classes.
//
// The format, a case a paragraph:
//
//	ids topic1=T1-A4s3VTwiI5CTbEp6POw topic2=...   (once: the topic ids)
//	# a comment
//	case UniformHomogeneousAssignmentBuilderTest.testName uniform
//	topics topic1=3 topic3=2
//	type heterogeneous                             (optional: the subscription type Kafka's test forces)
//	member A topic1,topic3 target=topic1/0,topic3/1
//	member B@instanceB -                           (instance id after @; - subscribes to nothing)
//	want A topic1/0 topic3/0
//	want B
package assigncases

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

//go:embed kafka_server_cases.txt
var kafkaCases string

// Kafka returns the cases of kafka_server_cases.txt and their topic ids.
func Kafka() ([]Case, map[string]string, error) {
	return Parse(kafkaCases)
}

// Case is one test of Kafka's.
type Case struct {
	// Name is Kafka's test class and method.
	Name, Assignor string
	// Heterogeneous is set when Kafka's test forces that subscription
	// type on a group the coordinator would call homogeneous.
	Heterogeneous bool
	Partitions    map[string]int
	Members       []Member
	// Want is each member's expected partitions, as topic/partition.
	Want map[string][]string
}

// Member is a member of a case.
type Member struct {
	ID, Instance string
	Topics       []string
	Target       []Partition
}

// Partition is one partition of a topic.
type Partition struct {
	Topic     string
	Partition int
}

// Parse reads a file of cases, and the topic ids its ids line gives.
func Parse(text string) ([]Case, map[string]string, error) {
	var cases []Case
	ids := map[string]string{}
	for n, line := range strings.Split(text, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		fail := func(why string) error { return fmt.Errorf("line %d: %s: %q", n+1, why, line) }
		if fields[0] != "case" && fields[0] != "ids" && len(cases) == 0 {
			return nil, nil, fail("no case before it")
		}
		c := &Case{}
		if len(cases) > 0 {
			c = &cases[len(cases)-1]
		}
		switch fields[0] {
		case "ids", "topics":
			target := ids
			if fields[0] == "topics" {
				c.Partitions = map[string]int{}
			}
			for _, f := range fields[1:] {
				name, value, ok := strings.Cut(f, "=")
				if !ok {
					return nil, nil, fail("want name=value")
				}
				if fields[0] == "ids" {
					target[name] = value
					continue
				}
				count, err := strconv.Atoi(value)
				if err != nil {
					return nil, nil, fail("bad partition count")
				}
				c.Partitions[name] = count
			}
		case "case":
			if len(fields) != 3 {
				return nil, nil, fail("want case NAME ASSIGNOR")
			}
			cases = append(cases, Case{Name: fields[1], Assignor: fields[2], Want: map[string][]string{}})
		case "type":
			c.Heterogeneous = len(fields) == 2 && fields[1] == "heterogeneous"
			if !c.Heterogeneous {
				return nil, nil, fail("want type heterogeneous")
			}
		case "member":
			if len(fields) < 3 || len(fields) > 4 {
				return nil, nil, fail("want member ID TOPICS [target=...]")
			}
			m := Member{}
			m.ID, m.Instance, _ = strings.Cut(fields[1], "@")
			if fields[2] != "-" {
				m.Topics = strings.Split(fields[2], ",")
			}
			if len(fields) == 4 {
				list, ok := strings.CutPrefix(fields[3], "target=")
				if !ok {
					return nil, nil, fail("want target=topic/p,...")
				}
				for _, s := range strings.Split(list, ",") {
					p, err := parsePartition(s)
					if err != nil {
						return nil, nil, fail(err.Error())
					}
					m.Target = append(m.Target, p)
				}
			}
			c.Members = append(c.Members, m)
		case "want":
			if len(fields) < 2 {
				return nil, nil, fail("want want ID [topic/p ...]")
			}
			for _, s := range fields[2:] {
				if _, err := parsePartition(s); err != nil {
					return nil, nil, fail(err.Error())
				}
			}
			c.Want[fields[1]] = append([]string{}, fields[2:]...)
		default:
			return nil, nil, fail("unknown line")
		}
	}
	return cases, ids, nil
}

func parsePartition(s string) (Partition, error) {
	topic, p, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(p)
	if !ok || err != nil {
		return Partition{}, fmt.Errorf("bad partition %q", s)
	}
	return Partition{topic, n}, nil
}
