// Package hostile holds scenarios written to break the playground's bounds:
// records of large keys and values by every way of making them, workloads of
// every kind, thousands of tables, work the engine did without counting it,
// groups over thousands of partitions, and ten times each. Each is a few
// hundred characters to a few hundred KB, as a shared link may be. The
// engine's tests load them natively and under wasm, the browser's open them
// in the page; each must end in a refusal that names a limit, or in a
// bounded result, within seconds.
package hostile

import (
	"fmt"
	"strings"
)

// Script is one hostile scenario.
type Script struct {
	Name string
	Text string // the script, without a rules line
	// Heavy says it takes seconds natively and in the browser, and five to
	// sixty under Node (a million records, thousands of rebalances), whose
	// tests leave it out: the browser's open it in wasm.
	Heavy bool
}

// Refusals are what the refusals of the limits say, as the learner reads
// them: the budgets of memory and work, the caps on workloads, members,
// records, partitions and a workload's actions in one advance, a number
// larger than its argument takes, a link longer than a link may be.
var Refusals = []string{"memory budget", "units of work", "workloads at once", "the playground's limit", "is larger than",
	"is faster than", "a scenario may produce at most", "a scenario may have at most", "act more than", "records; at most"}

// Scripts lists the hostile scenarios, in a fixed order.
func Scripts() []Script {
	k, v := strings.Repeat("k", 1900), strings.Repeat("v", 1900)
	big := func(c string) string { return strings.Repeat(c, 3900) }
	distinct := func(i int) string { return fmt.Sprintf("%04d", i) + strings.Repeat("d", 1896) }
	lines := func(n int, format func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(format(i))
		}
		return b.String()
	}
	// topics lists n topics of 1,000 partitions, the most a topic has.
	topics := func(prefix string, n int) (string, string) {
		var made strings.Builder
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("%s%d", prefix, i)
			fmt.Fprintf(&made, "topic %s partitions=1000\n", names[i])
		}
		return made.String(), strings.Join(names, ",")
	}
	group := func(protocol string, members, n int) string {
		made, names := topics("t", n)
		var b strings.Builder
		b.WriteString(made)
		for i := range members {
			fmt.Fprintf(&b, "join g c%d topics=%s group.protocol=%s\n", i, names, protocol)
		}
		b.WriteString("advance 10s\nleave g c3\nadvance 10s\n")
		return b.String()
	}
	sendOffsets := func(n, times int) string {
		made, names := topics("in", n)
		return made + "topic out\njoin g c topics=" + names + "\nproduce in0 key=a value=1\nadvance 5s\npoll g c\n" +
			"producer-config p transactional.id=tx\ntxn p init\ntxn p begin\nproduce out key=a value=x producer=p\n" +
			strings.Repeat("txn p send-offsets group=g\n", times)
	}
	flips := func(n, times int) string {
		made, names := topics("t", n)
		return made + "join g a topics=" + names + "\n" +
			strings.Repeat("join g b topics="+names+" group.protocol=consumer\nleave g b\njoin g b topics="+names+"\nleave g b\n", times)
	}
	return []Script{
		// Records by produce: one key and value repeated, or all distinct.
		{Name: "produce copies", Text: "topic t partitions=4\n" + strings.Repeat("produce t key="+k+" value="+v+" count=10000\n", 100), Heavy: true},
		{Name: "produce copies x10", Text: "topic t partitions=4\n" + strings.Repeat("produce t key="+k+" value="+v+" count=10000\n", 1000), Heavy: true},
		{Name: "produce distinct", Text: "topic t partitions=4\n" + lines(1000, func(i int) string {
			return fmt.Sprintf("produce t key=%s value=%s count=100\n", distinct(i), distinct(i+1))
		})},
		// Records by a workload, of each kind of keys.
		{Name: "workload", Text: "topic t\nproducer p t rate=1000/s value=" + big("x") + "\nadvance 1000s\n", Heavy: true},
		{Name: "workload x10", Text: "topic t\nproducer p t rate=1000/s value=" + big("x") + "\nadvance 10000s\n"},
		{Name: "workload sequence", Text: "topic t\nproducer p t rate=1000/s keys=sequence value=" + big("x") + "\nadvance 1000s\n", Heavy: true},
		{Name: "workloads in turn", Text: "topic t\n" + lines(8, func(i int) string {
			return fmt.Sprintf("producer p%d t rate=100/s keys=sequence value=%d%s\n", i, i, big("x"))
		}) + strings.Repeat("advance 100s\n", 20)},
		{Name: "uniform keys in turn", Text: "topic t partitions=3\n" + lines(6, func(i int) string {
			return fmt.Sprintf("producer u%d t rate=1000/s keys=uniform keyspace=100000 value=%d%s\n", i, i, big("u"))
		}) + "join g c topics=t\nconsumer g c rate=100/s\n" + strings.Repeat("advance 10s\n", 100)},
		{Name: "zipf keys", Text: "topic t partitions=3\nproducer z t rate=1000/s keys=zipf keyspace=100000 exponent=1 value=" + big("z") + "\nadvance 1000s\n", Heavy: true},
		// Tables: a zipf workload's is built when it starts.
		{Name: "zipf tables", Text: "topic t\n" + lines(2000, func(i int) string {
			return fmt.Sprintf("producer z%d t rate=1/s keys=zipf keyspace=100000 exponent=1\n", i)
		})},
		{Name: "zipf tables turn", Text: "topic t\n" + lines(2000, func(i int) string {
			return fmt.Sprintf("producer z%d t rate=1/s keys=zipf keyspace=100000 exponent=1\nstop z%d\n", i, i)
		})},
		// Consumers: a group's workload and a share group's polls.
		{Name: "consumer workload", Text: "topic t partitions=8\n" + strings.Repeat("produce t value=v count=10000\n", 10) + "config group g auto.offset.reset=earliest\njoin g c topics=t\nconsumer g c rate=100/s max=500\n" + strings.Repeat("advance 10s\n", 100)},
		{Name: "share polls", Text: "topic t partitions=8\n" + strings.Repeat("produce t value=v count=10000\n", 10) + "share-join s c topics=t\n" + strings.Repeat("share-poll s c\n", 10000)},
		// Work the engine did without counting it.
		{Name: "named producer retries", Text: "topic t partitions=4\nproducer-config p enable.idempotence=false retries=5\nwire p lose-response count=100000\n" +
			strings.Repeat("produce t producer=p key="+k+" value="+v+" count=10000\n", 90), Heavy: true},
		{Name: "retries", Text: "topic t partitions=4\nproducer-config p acks=all\nwire p lose-response count=100000\n" +
			strings.Repeat("produce t key=k value=v producer=p count=10000\n", 90)},
		{Name: "retries x10", Text: "topic t partitions=4\nproducer-config p acks=all\nwire p lose-response count=100000\n" +
			strings.Repeat("produce t key=k value=v producer=p count=10000\n", 900)},
		{Name: "send-offsets", Text: sendOffsets(1, 5000), Heavy: true},
		{Name: "send-offsets x10", Text: sendOffsets(9, 5000), Heavy: true},
		{Name: "protocol flips", Text: flips(2, 750), Heavy: true},
		{Name: "protocol flips x10", Text: flips(10, 750), Heavy: true},
		// Groups over thousands of partitions.
		{Name: "classic group of 200 over 10,000 partitions", Text: group("classic", 200, 10)},
		{Name: "consumer group of 200 over 10,000 partitions", Text: group("consumer", 200, 10)},
		{Name: "consumer group of 2,000 over 10,000 partitions", Text: group("consumer", 2000, 10)},
	}
}
