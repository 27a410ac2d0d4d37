package conformance

import (
	"fmt"
	"strings"

	"plog/core"
)

// simplifications is FIDELITY.md's list of what the playground simplifies
// on purpose: core.Differences, the one list the page's "How plog differs
// from Kafka" and `plogsim differences` show, in the page's words.
func simplifications() string {
	var b strings.Builder
	b.WriteString("\n## What plog simplifies on purpose\n\n")
	fmt.Fprintf(&b, "Each is on the page, in \"How plog differs from Kafka\" and beside the help of the controls it affects "+
		"(`core/differences.go`; `plogsim differences` prints the same). plog follows Apache Kafka %s.\n\n", core.KafkaVersion)
	for _, d := range core.Differences() {
		fmt.Fprintf(&b, "- **%s.** Kafka %s: %s plog: %s Why: %s\n", d.Title, d.Version, d.Kafka, d.Plog, d.Why)
	}
	return b.String()
}
