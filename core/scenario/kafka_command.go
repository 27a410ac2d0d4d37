package scenario

import "strings"

// DefaultBrokers is the bootstrap address KafkaCommand puts in the command
// line: a broker on the learner's own machine, where Kafka and Redpanda
// listen by default.
const DefaultBrokers = "localhost:9092"

// KafkaCommand returns the shell command line that runs the scenario of a
// link on a real cluster and compares it with the playground, for the page
// to show under "run this on a real cluster":
//
//	plogsim kafka --brokers localhost:9092 --link '#v1.…'
//
// The link may come with or without its leading '#'. It is single-quoted
// for POSIX shells, so whatever it holds reaches plogsim as one argument.
func KafkaCommand(link string) string {
	return "plogsim kafka --brokers " + DefaultBrokers + " --link " + shellQuote("#"+strings.TrimPrefix(link, "#"))
}

// shellQuote single-quotes s for a POSIX shell: inside single quotes
// nothing is special except the quote itself, which closes the quotes,
// adds an escaped quote and opens them again.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
