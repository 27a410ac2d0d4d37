package main

import (
	"fmt"
	"slices"
	"strings"

	"plog/core"
)

// groupDemoParts are the demo's consumer group parts.
func groupDemoParts() []demoPart {
	return []demoPart{
		{
			title: "A group commits, and the next owner resumes from the commit",
			lines: []string{
				// Kafka's defaults start a new group at the end and commit
				// by themselves: this group reads the records already
				// there and commits when told.
				"config group billing auto.offset.reset=earliest enable.auto.commit=false",
				"join billing c1 topics=orders",
				"advance 3s",
				"poll billing c1 max=2",
				"commit billing c1",
				"leave billing c1",
				"join billing c2 topics=orders",
				"advance 3s",
				"poll billing c2",
				"commit billing c2",
			},
			check: checkResume,
		},
		{
			title: "Partitions are assigned across consumers two ways: range and round-robin",
			lines: []string{
				"topic events partitions=5",
				"join by-range a topics=events strategy=range",
				"join by-range b topics=events strategy=range",
				"join by-turns a topics=events strategy=roundrobin",
				"join by-turns b topics=events strategy=roundrobin",
				"advance 6s", // b joined in the first wait, 3s longer
			},
			check: checkAssignors,
		},
	}
}

// checkResume checks that c2 got exactly the records c1 had not committed:
// for each partition, c2's deliveries start at the offset c1 committed.
func checkResume(l core.ReadOnlyLog) (string, error) {
	v, err := l.Group("billing")
	if err != nil {
		return "", err
	}
	firstByC1 := map[core.TopicPartition][]int64{}
	firstByC2 := map[core.TopicPartition]int64{}
	for _, d := range v.Deliveries {
		tp := core.TopicPartition{Topic: d.Topic, Partition: d.Partition}
		switch d.Member {
		case "c1":
			firstByC1[tp] = append(firstByC1[tp], d.Record.Offset)
		case "c2":
			if _, seen := firstByC2[tp]; !seen {
				firstByC2[tp] = d.Record.Offset
			}
		}
	}
	var lines []string
	for _, p := range v.Partitions {
		tp := core.TopicPartition{Topic: p.Topic, Partition: p.Partition}
		c1 := firstByC1[tp]
		next := int64(0)
		if len(c1) > 0 {
			next = c1[len(c1)-1] + 1
		}
		if from, ok := firstByC2[tp]; ok && from != next {
			return "", fmt.Errorf("%s/%d: c2 started at offset %d, but c1 had committed %d", p.Topic, p.Partition, from, next)
		}
		if !p.HasCommitted || p.Lag != 0 {
			return "", fmt.Errorf("%s/%d: c2 did not catch up and commit", p.Topic, p.Partition)
		}
		lines = append(lines, fmt.Sprintf("%s/%d: c1 read %v; c2 went on from offset %d; committed %d, lag %d",
			p.Topic, p.Partition, offsetsText(c1), next, p.Committed, p.Lag))
	}
	return strings.Join(lines, "\n"), nil
}

func offsetsText(offsets []int64) string {
	if len(offsets) == 0 {
		return "nothing"
	}
	return fmt.Sprint(offsets)
}

// checkAssignors checks the seed's case: 5 partitions over 2 consumers give
// range [0 1 2] and [3 4], round-robin [0 2 4] and [1 3].
func checkAssignors(l core.ReadOnlyLog) (string, error) {
	want := map[string]map[string][]int{
		"by-range": {"a": {0, 1, 2}, "b": {3, 4}},
		"by-turns": {"a": {0, 2, 4}, "b": {1, 3}},
	}
	var lines []string
	for _, group := range []string{"by-range", "by-turns"} {
		v, err := l.Group(group)
		if err != nil {
			return "", err
		}
		var parts []string
		for _, m := range v.Members {
			var got []int
			for _, tp := range m.Assignment {
				got = append(got, tp.Partition)
			}
			slices.Sort(got)
			if !slices.Equal(got, want[group][m.ID]) {
				return "", fmt.Errorf("group %s: member %s owns %v, want %v", group, m.ID, got, want[group][m.ID])
			}
			parts = append(parts, fmt.Sprintf("%s owns %v", m.ID, got))
		}
		lines = append(lines, fmt.Sprintf("%s (%s): %s", group, v.Strategy, strings.Join(parts, ", ")))
	}
	return strings.Join(lines, "\n"), nil
}
