package scenario

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// testNames is a session with two topics, a classic group of two members, a
// consumer-protocol group of one (its member at epoch 3), three
// brokers and a producer and a consumer running.
var testNames = Names{
	Topics:       []string{"orders", "other"},
	Partitions:   map[string]int{"orders": 3, "other": 1},
	Groups:       []string{"billing", "fresh"},
	Members:      map[string][]string{"billing": {"c1", "c2"}, "fresh": {"c1"}},
	Brokers:      []int{1, 2, 3},
	Producers:    []string{"clicks"},
	Consumers:    map[string][]string{"billing": {"c2"}},
	Epochs:       map[string]map[string]int{"fresh": {"c1": 3}},
	ShareGroups:  []string{"work"},
	ShareMembers: map[string][]string{"work": {"w1"}},
}

func texts(c Completion) []string {
	var out []string
	for _, cand := range c.Candidates {
		out = append(out, cand.Text)
	}
	return out
}

func TestCompleteOffersWhatTheGrammarAndTheSessionHold(t *testing.T) {
	for _, tc := range []struct {
		line   string
		want   []string // the candidates, all of them, sorted
		prefix string
		has    []string // or some of them, where the list is long
	}{
		{line: "pro", want: []string{"produce", "producer", "producer-config"}, prefix: "produce"},
		{line: "", has: CommandNames()},
		{line: "produce o", want: []string{"orders", "other"}, prefix: "o"},
		{line: "produce orders ac", want: []string{"acks="}, prefix: "acks="},
		{line: "produce orders acks=", want: []string{"0", "1", "all"}},
		{line: "produce orders partition=", want: []string{"0", "1", "2"}},
		{line: "produce orders key=a ", want: []string{"acks=", "count=", "partition=", "partitioner=", "producer=", "tombstone", "value=", "values="}},
		{line: "produce orders partitioner=r", want: []string{"round-robin"}, prefix: "round-robin"},
		{line: "topic new cleanup.policy=compact,", want: []string{"delete"}},
		{line: "topic new cleanup.policy=", want: []string{"compact", "delete"}},
		{line: "topic ", want: nil}, // a new topic's name is the learner's
		{line: "config ", want: []string{"group", "topic"}},
		{line: "config topic ", want: []string{"orders", "other"}},
		{line: "config group ", want: []string{"billing", "fresh", "work"}},
		{line: "config group billing auto.offset.reset=", want: []string{"earliest", "latest", "none"}},
		{line: "config topic orders retention.ms=1h ret", want: []string{"retention.bytes="}},
		{line: "config topic orders message.timestamp.type=", want: []string{"CreateTime", "LogAppendTime"}},
		{line: "join billing c3 topics=orders,", want: []string{"other"}},
		// A consumer workload polls a consumer group's member or a share
		// group's.
		{line: "consumer ", want: []string{"billing", "fresh", "work"}},
		{line: "consumer work ", want: []string{"w1"}},
		{line: "join billing c3 strategy=", want: Strategies},
		// The consumer protocol's configs: group.protocol=consumer takes a
		// server assignor and no strategy.
		{line: "join billing c3 topics=orders ", want: []string{"group.protocol=", "group.remote.assignor=", "instance=", "strategy="}},
		{line: "join billing c3 topics=orders strategy=range ", want: []string{"group.protocol=", "instance="}},
		{line: "join billing c3 topics=orders group.protocol=consumer ", want: []string{"group.remote.assignor=", "instance="}},
		{line: "poll billing ", want: []string{"c1", "c2"}},
		{line: "commit billing ", want: []string{"c1", "c2", "orders/", "other/"}},
		{line: "commit billing orders/", want: []string{"0", "1", "2"}},
		{line: "truncate o", want: []string{"orders/", "other/"}, prefix: "o"},
		{line: "truncate orders/1 ", want: []string{"before="}},
		{line: "reset billing ", want: []string{"to-datetime=", "to-earliest", "to-latest", "to-offset=", "topic="}},
		{line: "reset billing to-earliest topic=", want: []string{"orders", "other"}},
		{line: "reset billing to-earliest topic=orders/", want: []string{"0", "1", "2"}},
		{line: "broker ", want: BrokerActions},
		{line: "broker crash ", want: []string{"1", "2", "3"}},
		{line: "stop ", want: []string{"billing", "clicks"}},
		{line: "stop billing ", want: []string{"c2"}},
		{line: "producer clicks orders rate=1/s keys=", want: KeyDistributions},
		{line: "consumer billing c1 rate=1/s ", want: []string{"commit", "max="}},
		// Rules between arguments: no tombstone after value=, one reset
		// mode, offset= only for a partition, pace= only for slow.
		{line: "produce orders value=v ", want: []string{"acks=", "count=", "key=", "partition=", "partitioner=", "producer=", "values="}},
		{line: "reset billing to-earliest ", want: []string{"topic="}},
		// Only a consumer-protocol member's commit carries its member
		// epoch, and completion offers the epoch it has now.
		{line: "commit billing c1 ", want: nil},
		{line: "commit fresh c1 ", want: []string{"epoch="}},
		{line: "commit fresh c1 epoch=", want: []string{"3"}},
		{line: "commit billing c1 epoch=", want: nil},
		{line: "commit billing orders/1 ", want: []string{"offset="}},
		{line: "broker crash 1 ", want: nil},
		{line: "producer p orders rate=1/s keys=sequence ", want: []string{"acks=", "key=", "keylist=", "partitioner=", "value="}},
		// A workload's keys come from a list or a pattern, not both, and
		// a list is its own keyspace.
		{line: "producer p orders rate=1/s keys=uniform keylist=a,b ", want: []string{"acks=", "partitioner=", "value="}},
		{line: "producer p orders rate=1/s keys=uniform keyspace=3 ", want: []string{"acks=", "key=", "partitioner=", "value="}},
		{line: "producer p orders rate=1/s keys=zipf key=t-{n} ", want: []string{"acks=", "exponent=", "keyspace=", "partitioner=", "value="}},
		{line: "producer p orders rate=1/s ", has: []string{"key=", "keylist=", "keys="}},
		// Nothing where any text is right, inside quotes, in comments, or
		// after what the parser refuses.
		{line: "produce orders key=", want: nil},
		{line: `produce orders key="a b`, want: nil},
		{line: `produce orders value="x" ke`, want: []string{"key="}},
		{line: "produce # orders ", want: nil},
		{line: "nosuch ", want: nil},
		{line: "produce orders banana ", want: nil},
		{line: "advance ", want: nil},
	} {
		c := Complete(tc.line, len(tc.line), testNames)
		got := texts(c)
		if tc.has != nil {
			for _, h := range tc.has {
				if !slices.Contains(got, h) {
					t.Errorf("%q: %q not among %q", tc.line, h, got)
				}
			}
			continue
		}
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%q: candidates %q, want %q", tc.line, got, want)
		}
		if tc.prefix != "" && c.Prefix != tc.prefix {
			t.Errorf("%q: prefix %q, want %q", tc.line, c.Prefix, tc.prefix)
		}
	}
}

// A session's consumer-protocol member is offered epoch= on commit, with
// its member epoch; a classic member is not.
func TestCompleteOffersEpochOnlyToAConsumerProtocolMember(t *testing.T) {
	s, err := Load("rules 4\ntopic orders partitions=2\njoin billing c1 topics=orders group.protocol=consumer\n" +
		"join audit a1 topics=orders\nadvance 10s\n")
	if err != nil {
		t.Fatal(err)
	}
	names := NamesOf(s)
	v, err := s.Log().Group("billing")
	if err != nil || len(v.Members) != 1 || v.Members[0].Epoch < 1 {
		t.Fatalf("billing: %+v, %v; want c1 with an epoch", v.Members, err)
	}
	epoch := strconv.Itoa(v.Members[0].Epoch)
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"commit billing c1 ", []string{"epoch="}},
		{"commit billing c1 epoch=", []string{epoch}},
		{"commit audit a1 ", nil},
		{"commit audit a1 epoch=", nil},
		{"commit billing orders/0 ", []string{"offset="}},
	} {
		if got := texts(Complete(tc.line, len(tc.line), names)); !slices.Equal(got, tc.want) {
			t.Errorf("%q: candidates %q, want %q", tc.line, got, tc.want)
		}
	}
	line := "commit billing c1 epoch=" + epoch
	if _, ok, err := ParseLine(line, 1); err != nil || !ok {
		t.Errorf("the completed %q does not parse: %v", line, err)
	}
}

func TestCompleteSaysWhatCommandsAndConfigsAre(t *testing.T) {
	c := Complete("produc", 6, testNames)
	if len(c.Candidates) != 3 || c.Candidates[0].Note != Usage(CmdProduce) {
		t.Errorf("produce's note: %+v, want its usage line", c.Candidates)
	}
	c = Complete("config topic orders retention.m", 31, testNames)
	if len(c.Candidates) != 1 || !strings.Contains(c.Candidates[0].Note, "Kafka's default 7d; the playground's 1h") {
		t.Errorf("retention.ms's note: %+v, want its help with Kafka's default", c.Candidates)
	}
	c = Complete("produce orders ack", 18, testNames)
	if len(c.Candidates) != 1 || !strings.Contains(c.Candidates[0].Note, "Kafka's default all") {
		t.Errorf("acks's note: %+v, want the producer config's help with Kafka's default", c.Candidates)
	}
	c = Complete("config topic orders segment.rec", 31, testNames)
	if len(c.Candidates) != 1 || !strings.Contains(c.Candidates[0].Note, "playground's own") {
		t.Errorf("segment.records's note: %+v, want it marked as the playground's own", c.Candidates)
	}
}

func TestCompleteMidLineAndApply(t *testing.T) {
	line := "produce o count=3"
	c := Complete(line, len("produce o"), testNames)
	if got := texts(c); !slices.Equal(got, []string{"orders", "other"}) {
		t.Fatalf("mid-line candidates %q", got)
	}
	got, cursor := c.Apply(line, "orders")
	if got != "produce orders count=3" || cursor != len("produce orders") {
		t.Errorf("applied mid-line: %q at %d", got, cursor)
	}
	c = Complete("produce orders co", 17, testNames)
	if got, cursor := c.Apply("produce orders co", c.Prefix); got != "produce orders count=" || cursor != len(got) {
		t.Errorf("a name= gets no space after it: %q at %d", got, cursor)
	}
	c = Complete("poll billing c", 14, testNames)
	if got, _ := c.Apply("poll billing c", "c1"); got != "poll billing c1 " {
		t.Errorf("a whole word gets a space after it: %q", got)
	}
	// A cursor out of the line, or inside a character, is brought back.
	for _, cursor := range []int{-5, 100} {
		c := Complete("pro", cursor, testNames)
		if c.Cursor < 0 || c.Cursor > 3 {
			t.Errorf("cursor %d read as %d", cursor, c.Cursor)
		}
	}
	if c := Complete("produce orders key=é", len("produce orders key=é")-1, testNames); c.Cursor != len("produce orders key=") {
		t.Errorf("a cursor inside é read as %d", c.Cursor)
	}
}

// genNames draws a session's names: valid names, as the engine holds them.
func genNames(t *rapid.T) Names {
	name := rapid.StringMatching(`[a-z0-9._-]{1,6}`)
	n := Names{
		Topics:     rapid.SliceOfNDistinct(name, 0, 4, rapid.ID[string]).Draw(t, "topics"),
		Partitions: map[string]int{},
		Groups:     rapid.SliceOfNDistinct(name, 0, 3, rapid.ID[string]).Draw(t, "groups"),
		Members:    map[string][]string{},
		Producers:  rapid.SliceOfNDistinct(name, 0, 2, rapid.ID[string]).Draw(t, "producers"),
		Consumers:  map[string][]string{},
	}
	for _, topic := range n.Topics {
		n.Partitions[topic] = rapid.IntRange(1, 5).Draw(t, "partitions")
	}
	for _, g := range n.Groups {
		n.Members[g] = rapid.SliceOfNDistinct(name, 0, 3, rapid.ID[string]).Draw(t, "members")
		if len(n.Members[g]) > 0 && rapid.Bool().Draw(t, "consumer") {
			n.Consumers[g] = n.Members[g][:1]
		}
	}
	for id := 1; id <= rapid.IntRange(1, 5).Draw(t, "brokers"); id++ {
		n.Brokers = append(n.Brokers, id)
	}
	return n
}

// Completion never panics, whatever the line, the cursor and the names,
// and what it offers applies within the line.
func TestCompleteNeverPanics(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		line := rapid.OneOf(rapid.String(), rapid.Custom(genLine), rapid.StringMatching(`[a-z =/,"#.-]{0,30}`)).Draw(t, "line")
		cursor := rapid.IntRange(-3, len(line)+3).Draw(t, "cursor")
		c := Complete(line, cursor, genNames(t))
		if c.From < 0 || c.From > c.Cursor || c.Cursor > len(line) {
			t.Fatalf("span %d..%d out of %q", c.From, c.Cursor, line)
		}
		for _, cand := range c.Candidates {
			got, at := c.Apply(line, cand.Text)
			if at < 0 || at > len(got) || !strings.HasPrefix(got, line[:c.From]) {
				t.Fatalf("%q applied to %q: %q at %d", cand.Text, line, got, at)
			}
		}
		if !strings.HasPrefix(c.Prefix, "") || (len(c.Candidates) > 0 && !strings.HasPrefix(c.Candidates[0].Text, c.Prefix)) {
			t.Fatalf("prefix %q of %+v", c.Prefix, c.Candidates)
		}
	})
}

// Every candidate, applied to a prefix of a valid line, gives a line that
// parses or that more words make valid: completion offers nothing the
// language would refuse there.
func TestCompletionAppliedIsAPrefixOfAValidLine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		line := genLine(t)
		if _, ok, err := ParseLine(line, 1); err != nil || !ok {
			t.Skip("the grammar's cross-argument rules refuse it") // rapid draws another
		}
		cut := rapid.IntRange(0, len(line)).Draw(t, "cut")
		prefix := line[:cut]
		c := Complete(prefix, cut, genNames(t))
		for _, cand := range c.Candidates {
			got, _ := c.Apply(prefix, cand.Text)
			if !extendsToValidLine(got) {
				t.Fatalf("%q completed with %q gives %q, which no words make valid", prefix, cand.Text, got)
			}
		}
	})
}

// extendsToValidLine reports whether line parses once its last word is
// finished (a name= given a value, a topic/ a partition, a list its next
// item) and the command is given what it still needs: the positionals it
// lacks, and up to two more arguments or flags.
func extendsToValidLine(line string) bool {
	spec, ok := specByName[strings.Fields(line + " x")[0]]
	if !ok {
		return false
	}
	var args []argSpec
	args = append(args, spec.named...)
	if spec.configs != nil {
		args = append(args, spec.configs(nil)...) // the topic configs for config
		args = append(args, configArgsForGroup()...)
	}
	var tails []string
	switch {
	case strings.HasSuffix(line, "="):
		name := line[strings.LastIndexAny(line, " \t")+1 : len(line)-1]
		a, _ := findSpec(args, name)
		tails = []string{sampleValue(a)}
		if a.kind == kindChoice {
			tails = a.choices
		}
	case strings.HasSuffix(line, "/"):
		tails = []string{"0"}
	default:
		tails = []string{""}
	}
	var extras, required []string
	for _, a := range args {
		switch {
		case a.required:
			required = append(required, " "+a.name+"="+sampleValue(a))
		case a.kind == kindChoice:
			for _, v := range a.choices {
				extras = append(extras, " "+a.name+"="+v)
			}
		default:
			extras = append(extras, " "+a.name+"="+sampleValue(a))
		}
	}
	for _, f := range spec.flags {
		extras = append(extras, " "+f)
	}
	parses := func(s string) bool {
		_, ok, err := ParseLine(s, 1)
		return ok && err == nil
	}
	for _, tail := range tails {
		base := line + tail
		for _, r := range required {
			// A required argument the line has already is given twice;
			// the parser says so, and the bases below try without.
			if !strings.Contains(line, strings.TrimSpace(r[:strings.IndexByte(r, '=')+1])) {
				base += r
			}
		}
		var bases []string
		for from := 0; from <= len(spec.positional); from++ {
			b := base
			for _, ps := range spec.positional[from:] {
				b += " " + sampleValue(ps)
			}
			bases = append(bases, b)
		}
		for _, b := range bases {
			if parses(b) {
				return true
			}
			for _, e1 := range extras {
				if parses(b + e1) {
					return true
				}
			}
		}
		for _, b := range bases {
			for _, e1 := range extras {
				for _, e2 := range extras {
					if parses(b + e1 + e2) {
						return true
					}
				}
			}
		}
	}
	return false
}

// Completion offers what a valid line goes on with: cut anywhere in the
// name of its command, of a flag or of a name=value argument, the word it
// holds there is among the candidates.
func TestCompletionOffersWhatAValidLineHolds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		line := genLine(t)
		if _, ok, err := ParseLine(line, 1); err != nil || !ok {
			t.Skip("the grammar's cross-argument rules refuse it")
		}
		toks, _, err := tokenize(nil, line, 1)
		if err != nil {
			t.Fatal(err)
		}
		spec := specByName[toks[0].value]
		i := rapid.IntRange(0, len(toks)-1).Draw(t, "word")
		tok := toks[i]
		var want string
		switch {
		case i == 0:
			want = tok.value
		case tok.named:
			if a, ok := findSpec(topicConfigs, tok.name); ok && a.aliasOf != "" {
				t.Skip("an alias, which links keep but completion does not offer")
			}
			if a, ok := findSpec(groupConfigs, tok.name); ok && a.aliasOf != "" {
				t.Skip("an alias, which links keep but completion does not offer")
			}
			if spec.name == CmdCommit && tok.name == "epoch" {
				t.Skip("commit's epoch=, offered only for a consumer-protocol member the session holds")
			}
			want = tok.name + "="
		case !tok.quoted && spec.isFlagWord(tok.value) && isFlagAt(toks, i):
			want = tok.value
		default:
			t.Skip("a positional's value, which comes from the session")
		}
		start := byteIndexOfCol(line, tok.col)
		cut := start + rapid.IntRange(0, len(want)-1).Draw(t, "typed")
		c := Complete(line[:cut], cut, Names{})
		if !slices.Contains(texts(c), want) {
			t.Fatalf("%q cut at %d: candidates %q, want %q among them", line, cut, texts(c), want)
		}
	})
}

// isFlagAt reports whether the parser reads the i-th word of a line as a
// flag, not a positional.
func isFlagAt(toks []token, i int) bool {
	p, ok := readPlace(toks[:i+1])
	return ok && len(p.flags) > 0 && slices.Contains(p.flags, toks[i].value) && !slices.Contains(p.positional, toks[i].value)
}

// byteIndexOfCol is the byte offset of a column (from 1, in characters).
func byteIndexOfCol(s string, col int) int {
	n := 1
	for i := range s {
		if n == col {
			return i
		}
		n++
	}
	return len(s)
}
