package main

import (
	"fmt"
	"io"
	"strings"

	"plog/core"
	"plog/core/scenario"
)

// The demo walks through the partitioned log's core promises in one
// session. Each part applies a few commands, then checks in the engine
// that what it claims holds; a claim that does not hold fails the demo
// (exit status 1), so scripts/verify.sh catches a regression.

// demoPart is one claim of the demo.
type demoPart struct {
	title string
	lines []string
	check func(l core.ReadOnlyLog) (string, error)
}

func runDemo(stdout, stderr io.Writer) int {
	s := scenario.NewSession()
	for i, part := range demoParts() {
		fmt.Fprintf(stdout, "%d. %s\n", i+1, part.title)
		for _, line := range part.lines {
			fmt.Fprintf(stdout, "   > %s\n", line)
			if _, err := s.Apply(line); err != nil {
				fmt.Fprintf(stderr, "demo: %s: %v\n", line, err)
				return 1
			}
		}
		summary, err := part.check(s.Log())
		if err != nil {
			fmt.Fprintf(stderr, "demo: %s: %v\n", part.title, err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\n", indent(summary))
	}
	fmt.Fprintf(stdout, "The whole demo as a scenario (plogsim run, or paste in the playground):\n%s", indent(s.Script()))
	link, err := scenario.EncodeLink(s.Script())
	if err != nil {
		fmt.Fprintf(stderr, "demo: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "Its link fragment:\n   #%s\n", link)
	return 0
}

func indent(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	return "   " + strings.Join(lines, "\n   ") + "\n"
}

func demoParts() []demoPart {
	return append([]demoPart{
		{
			title: "Every record of a key lands on one partition, in order",
			lines: []string{
				"seed 42",
				"topic orders partitions=4",
				"produce orders key=acct-1 value=created",
				"produce orders key=acct-2 value=created",
				"produce orders key=acct-1 value=paid",
				"produce orders key=acct-3 value=created",
				"produce orders key=acct-1 value=shipped",
			},
			check: checkKeyOrder,
		},
	}, append(groupDemoParts(), demoPart{
		title: "Retention deletes old segments; offsets stay absolute",
		lines: []string{
			"topic clicks partitions=1 retention.ms=1m segment.records=2",
			"produce clicks key=u1 value=home count=4",
			"advance 6m", // past the retention check at 5m30s (Kafka's: 30s, then every 5m)
			"produce clicks key=u1 value=cart count=2",
		},
		check: checkRetention,
	})...)
}

func checkKeyOrder(l core.ReadOnlyLog) (string, error) {
	p := core.PartitionFor("acct-1", 4)
	records, err := l.Records("orders", p)
	if err != nil {
		return "", err
	}
	var values []string
	for _, r := range records {
		if r.Key == "acct-1" {
			values = append(values, fmt.Sprintf("%d:%s", r.Offset, r.Value))
		}
	}
	want := []string{"created", "paid", "shipped"}
	if len(values) != len(want) {
		return "", fmt.Errorf("acct-1 has %d records on orders/%d, want 3", len(values), p)
	}
	for i, v := range values {
		if !strings.HasSuffix(v, ":"+want[i]) {
			return "", fmt.Errorf("acct-1 records out of order on orders/%d: %v", p, values)
		}
	}
	for q := range 4 {
		if q == p {
			continue
		}
		others, _ := l.Records("orders", q)
		for _, r := range others {
			if r.Key == "acct-1" {
				return "", fmt.Errorf("an acct-1 record is on orders/%d too", q)
			}
		}
	}
	return fmt.Sprintf("murmur2(\"acct-1\") %% 4 = %d: orders/%d holds acct-1 at %s, in order", p, p, strings.Join(values, ", ")), nil
}

func checkRetention(l core.ReadOnlyLog) (string, error) {
	start, _ := l.LogStartOffset("clicks", 0)
	hw, _ := l.HighWatermark("clicks", 0)
	records, _ := l.Records("clicks", 0)
	if start != 4 || hw != 6 || len(records) != 2 || records[0].Offset != 4 {
		return "", fmt.Errorf("clicks/0: log start %d, high watermark %d, %d records; want 4, 6 and offsets 4 and 5", start, hw, len(records))
	}
	return fmt.Sprintf("after 6m (the retention check at 5m30s) the four old records are gone: log start offset %d, high watermark %d;\nthe new records took offsets %d and %d, never reusing 0 to 3", start, hw, records[0].Offset, records[1].Offset), nil
}
