package main

import (
	"fmt"
	"io"
	"strings"

	"plog/core"
)

// printDifferences prints every deliberate simplification of the
// playground (core.Differences), as the page's "How plog differs from
// Kafka" shows them.
func printDifferences(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprintf(stderr, "plogsim differences takes no arguments\n%s", usage)
		return 2
	}
	var b strings.Builder
	fmt.Fprintf(&b, "How plog differs from Kafka\n\nplog follows Apache Kafka %s. Where it departs on purpose:\n", core.KafkaVersion)
	for _, d := range core.Differences() {
		fmt.Fprintf(&b, "\n%s [%s]\n  Kafka %s: %s\n  plog: %s\n  why: %s\n", d.Title, d.Name, d.Version, d.Kafka, d.Plog, d.Why)
		if d.Older != "" {
			fmt.Fprintf(&b, "  links made before: %s\n", d.Older)
		}
	}
	io.WriteString(stdout, b.String())
	return 0
}
