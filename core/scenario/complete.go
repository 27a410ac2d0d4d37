package scenario

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"plog/core"
)

// This file completes a line of the language as a terminal does: given the
// text and the cursor, what the word before the cursor may become. It reads
// the grammar's own table (schema.go): the commands, their positionals,
// flags, name=value arguments and configs, and for each argument where its
// values come from (argSpec.names). It is pure: the session's names come in
// as Names.

// nameSet is where completion finds the values of an argument.
type nameSet int

const (
	noNames             nameSet = iota // a name the learner makes up
	topicNames                         // the topics
	groupNames                         // the consumer groups
	memberNames                        // the members of the group named first
	configTargetNames                  // config topic|group NAME: the topics or the groups
	producerNames                      // the running producers
	workloadNames                      // stop's first word: running producers and the groups of running consumers
	workloadMemberNames                // stop GROUP's member: the running consumers of that group
	brokerIDs                          // the brokers' ids
	partitionNumbers                   // the partitions of the topic named first
	shareGroupNames                    // the share groups (apply_share.go)
	shareMemberNames                   // the members of the share group named first
	anyGroupNames                      // the consumer groups and the share groups
	anyMemberNames                     // the members of the consumer or share group named first
)

// Names are what a session holds by name, for completion.
type Names struct {
	Topics     []string
	Partitions map[string]int // each topic's partition count
	Groups     []string
	Members    map[string][]string // each group's members, by name (client.id)
	Brokers    []int               // the brokers' ids
	Producers  []string            // the running producer workloads
	Consumers  map[string][]string // the running consumer workloads: members by group
	// Epochs holds the member epoch of each member of a consumer-protocol
	// group (KIP-848), by group and member: only their commits carry
	// epoch= (core.CommitWithEpoch).
	Epochs map[string]map[string]int
	// ShareGroups are the share groups, ShareMembers each one's members
	// by name (client.id).
	ShareGroups  []string
	ShareMembers map[string][]string
}

// NamesOf reads the names a session holds at its position.
func NamesOf(s *Session) Names {
	l := s.Log()
	n := Names{Topics: l.TopicNames(), Partitions: map[string]int{}, Groups: l.GroupNames(),
		Members: map[string][]string{}, Consumers: map[string][]string{}, Epochs: map[string]map[string]int{}}
	for _, t := range n.Topics {
		n.Partitions[t], _ = l.Partitions(t)
	}
	for _, g := range n.Groups {
		v, err := l.Group(g)
		if err != nil {
			continue
		}
		for _, m := range v.Members {
			n.Members[g] = append(n.Members[g], m.ID)
			if v.Protocol == core.ProtocolConsumer {
				if n.Epochs[g] == nil {
					n.Epochs[g] = map[string]int{}
				}
				n.Epochs[g][m.ID] = m.Epoch
			}
		}
	}
	n.ShareGroups, n.ShareMembers = l.ShareGroupNames(), map[string][]string{}
	for _, g := range n.ShareGroups {
		v, _ := l.ShareGroup(g)
		for _, m := range v.Members {
			n.ShareMembers[g] = append(n.ShareMembers[g], m.Name)
		}
	}
	for _, b := range l.Brokers() {
		n.Brokers = append(n.Brokers, b.ID)
	}
	for _, w := range s.Workloads() {
		if w.Producer {
			n.Producers = append(n.Producers, w.Name)
		} else {
			n.Consumers[w.Group] = append(n.Consumers[w.Group], w.Member)
		}
	}
	return n
}

// Candidate is one thing the word before the cursor may become.
type Candidate struct {
	// Text replaces the word: a command, a name=value argument's name
	// with its '=' ("key="), a flag, a value, a topic with its '/'.
	Text string
	// Note says what it is: a command's usage, a config's help and
	// defaults; "" when the text says enough.
	Note string

	// rule is set for an argument or value that a rule between
	// arguments may refuse on this line (a tombstone after value=):
	// Complete offers it only where the line can still be made valid.
	rule bool
}

// Completion is what Complete found for a line.
type Completion struct {
	// From is the byte offset in the line where the word being completed
	// starts; it ends at the cursor.
	From int
	// Cursor is the cursor Complete read, in bytes, within the line.
	Cursor     int
	Candidates []Candidate // sorted by text
	// Prefix is the longest text every candidate starts with: what Tab
	// fills in when there are several.
	Prefix string
}

// Apply returns the line with the word being completed replaced by text,
// and the cursor after it. A whole word (not a name= waiting for its value,
// a topic/ for its partition, a list's item followed by ',') gets a space
// after it, unless one follows already, as a terminal's completion does.
func (c Completion) Apply(line, text string) (string, int) {
	if c.From < 0 || c.From > c.Cursor || c.Cursor > len(line) {
		return line, min(max(c.Cursor, 0), len(line))
	}
	rest := line[c.Cursor:]
	if text != "" && !strings.HasSuffix(text, "=") && !strings.HasSuffix(text, "/") && !strings.HasSuffix(text, ",") &&
		!strings.HasPrefix(rest, " ") {
		text += " "
	}
	return line[:c.From] + text + rest, c.From + len(text)
}

// Complete lists what the word before the cursor (a byte offset into line)
// may become, given the session's names. Inside quotes, in a comment, after
// words the parser would refuse, or where any text is right (a key, a
// duration), it finds nothing. It never panics.
func Complete(line string, cursor int, names Names) Completion {
	cursor = min(max(cursor, 0), len(line))
	for cursor > 0 && cursor < len(line) && !utf8.RuneStart(line[cursor]) {
		cursor--
	}
	c := Completion{From: cursor, Cursor: cursor}
	before := line[:cursor]
	if len(line) > MaxLineBytes || !utf8.ValidString(before) {
		return c
	}
	c.From = strings.LastIndexAny(before, " \t") + 1
	word := before[c.From:]
	if strings.ContainsAny(word, `"#`) {
		return c
	}
	done, ok := completedTokens(before[:c.From])
	if !ok {
		return c
	}
	var all []Candidate
	if len(done) == 0 {
		for _, s := range commandSpecs {
			all = append(all, Candidate{Text: s.name, Note: s.usage})
		}
	} else {
		at, ok := readPlace(done)
		if !ok {
			return c
		}
		var from int
		all, from = at.candidates(word, names)
		c.From += from
		word = word[from:]
	}
	for _, cand := range all {
		if !strings.HasPrefix(cand.Text, word) || cand.Text == "" {
			continue
		}
		if cand.rule && !canBeValid(line[:c.From]+cand.Text) {
			continue
		}
		cand.rule = false
		c.Candidates = append(c.Candidates, cand)
	}
	sort.SliceStable(c.Candidates, func(i, j int) bool { return c.Candidates[i].Text < c.Candidates[j].Text })
	c.Candidates = slices.CompactFunc(c.Candidates, func(a, b Candidate) bool { return a.Text == b.Text })
	c.Prefix = commonPrefix(c.Candidates)
	return c
}

// completedTokens reads the words before the one being completed; ok is
// false where the parser would stop there (an unclosed quote, a comment).
func completedTokens(text string) ([]token, bool) {
	toks, endCol, err := tokenize(nil, text, 1)
	if err != nil {
		return nil, false
	}
	// tokenize stops at a comment: its end is then before the text's.
	return toks, endCol == utf8.RuneCountInString(strings.TrimRight(text, " \t"))+1
}

// place is where in a command the word being completed stands: what the
// words before it have given.
type place struct {
	spec       *commandSpec
	positional []string
	flags      []string
	named      []string // names of the name=value arguments and configs given
}

// readPlace reads the words before the one being completed as build
// (parse.go) does: a bare word fills the next positional, or is a flag.
func readPlace(toks []token) (place, bool) {
	head := toks[0]
	spec, ok := specByName[head.value]
	if !ok || head.named || head.quoted {
		return place{}, false
	}
	p := place{spec: spec}
	for _, t := range toks[1:] {
		switch {
		case t.named:
			p.named = append(p.named, t.name)
		case p.positionalFree() && (!isFlag(spec, t) || !spec.positional[len(p.positional)].optional):
			p.positional = append(p.positional, t.value)
		case isFlag(spec, t):
			p.flags = append(p.flags, t.value)
		default:
			return place{}, false // the parser refuses the line here
		}
	}
	return p, true
}

// positionalFree reports whether the next bare word fills a positional.
func (p place) positionalFree() bool {
	return len(p.positional) < len(p.spec.positional) && len(p.flags) == 0
}

// candidates lists what word may become at this place, and how far into
// word the part they replace starts (after a name's '=', a list's last
// ',').
func (p place) candidates(word string, names Names) ([]Candidate, int) {
	if name, _, isNamed := strings.Cut(word, "="); isNamed {
		spec, ok := p.namedSpec(name)
		if !ok {
			return nil, 0
		}
		from := len(name) + 1
		values, skip := p.values(spec, word[from:], names)
		return values, from + skip
	}
	var out []Candidate
	if p.positionalFree() {
		// A required positional comes next: only its values fit. An
		// optional one (stop's member) may also be left out.
		next := p.spec.positional[len(p.positional)]
		values, skip := p.values(next, word, names)
		if !next.optional || skip > 0 {
			return values, skip
		}
		out = values
	}
	for _, f := range p.spec.flags {
		if !slices.Contains(p.flags, f) {
			out = append(out, Candidate{Text: f, rule: true})
		}
	}
	for _, a := range p.spec.named {
		if !slices.Contains(p.named, a.name) && p.offers(a, names) {
			note := a.note
			if note == "" {
				note = argumentNote(a.name)
			}
			out = append(out, Candidate{Text: a.name + "=", Note: note, rule: true})
		}
	}
	out = append(out, p.configCandidates()...)
	return out, 0
}

// offers reports whether the line may take a name=value argument here:
// commit's epoch= only for a member of a consumer-protocol group, the one
// whose commit carries its member epoch; a classic member's commit, or a
// partition's, has none.
func (p place) offers(a argSpec, names Names) bool {
	if p.spec.name != CmdCommit || a.name != "epoch" {
		return true
	}
	_, ok := p.memberEpoch(names)
	return ok
}

// memberEpoch is the member epoch of the member a commit line names, when
// it is a member of a consumer-protocol group.
func (p place) memberEpoch(names Names) (int, bool) {
	if len(p.positional) < 2 {
		return 0, false
	}
	epoch, ok := names.Epochs[p.positional[0]][p.positional[1]]
	return epoch, ok
}

// namedSpec finds the name=value argument or config called name.
func (p place) namedSpec(name string) (argSpec, bool) {
	if a, ok := findSpec(p.spec.named, name); ok {
		return a, true
	}
	if p.spec.configs != nil {
		return findSpec(p.spec.configs(p.positional), name)
	}
	return argSpec{}, false
}

// configCandidates lists the configs the command takes that the line has
// not set yet (under either of a config's names), by their names, each with
// its help and defaults from the registry.
func (p place) configCandidates() []Candidate {
	if p.spec.configs == nil {
		return nil
	}
	specs := p.spec.configs(p.positional)
	set := map[string]bool{}
	for _, n := range p.named {
		if a, ok := findSpec(specs, n); ok {
			set[a.config()] = true
		}
	}
	target := core.OnTopic
	if len(p.positional) > 0 && p.spec.name == CmdConfig && p.positional[0] == "group" {
		target = core.OnGroup
	}
	if p.spec.name == CmdProducerConfig {
		target = core.OnProduce
	}
	defs := core.Configs(target)
	if target == core.OnGroup {
		defs = append(defs, core.ShareConfigs(core.OnShareGroup)...) // a share group's configs (apply_share.go)
	}
	var out []Candidate
	for _, d := range defs {
		if !set[d.Name] {
			out = append(out, Candidate{Text: d.Name + "=", Note: configNote(d)})
		}
	}
	return out
}

// argumentNote is the help of a name=value argument that is a config of
// the registry (a producer's acks, the cluster's replica.lag.time.max.ms),
// "" for the others.
func argumentNote(name string) string {
	for _, target := range []core.ConfigTarget{core.OnProduce, core.OnCluster} {
		if d, ok := core.LookupConfig(target, name); ok {
			return configNote(d)
		}
	}
	return ""
}

// configNote is a config's line of help with its defaults.
func configNote(d core.ConfigDef) string {
	switch {
	case d.Scope == core.ScopePlayground:
		return d.Help + " (the playground's own; default " + d.DefaultValue() + ")"
	case d.Default != "":
		return d.Help + " (Kafka's default " + d.KafkaDefault + "; the playground's " + d.Default + ")"
	}
	return d.Help + " (Kafka's default " + d.KafkaDefault + ")"
}

// values lists the values an argument may take that start where text
// does, and how far into text the part they replace starts (after the last
// ',' of a list, or the '/' of a topic/partition).
func (p place) values(a argSpec, text string, names Names) ([]Candidate, int) {
	if p.spec.name == CmdCommit && a.name == "epoch" {
		// The member's epoch now: the one its commit is taken with.
		if epoch, ok := p.memberEpoch(names); ok {
			return words([]string{strconv.Itoa(epoch)}), 0
		}
		return nil, 0
	}
	switch a.kind {
	case kindChoice:
		return ruled(words(a.choices)), 0
	case kindBool:
		return ruled(words([]string{"true", "false"})), 0
	case kindWordList:
		items, from := listItems(a.choices, text)
		return ruled(items), from
	case kindNameList:
		return listItems(p.names(a.names, names), text)
	case kindTopicPartition, kindNameOrPartition, kindMemberOrPartition:
		if topic, _, ok := strings.Cut(text, "/"); ok {
			return partitions(topic, names), len(topic) + 1
		}
		var out []Candidate
		if a.kind != kindTopicPartition {
			out = words(p.names(a.names, names))
		}
		if a.kind != kindNameOrPartition {
			for _, t := range names.Topics {
				out = append(out, Candidate{Text: t + "/"})
			}
		}
		return out, 0
	}
	return words(p.names(a.names, names)), 0
}

// names lists the values of a name set at this place.
func (p place) names(set nameSet, n Names) []string {
	first := ""
	if len(p.positional) > 0 {
		first = p.positional[0]
	}
	switch set {
	case topicNames:
		return n.Topics
	case groupNames:
		return n.Groups
	case memberNames:
		return n.Members[first]
	case configTargetNames:
		if first == "group" {
			return slices.Concat(n.Groups, n.ShareGroups)
		}
		return n.Topics
	case shareGroupNames:
		return n.ShareGroups
	case shareMemberNames:
		return n.ShareMembers[first]
	case anyGroupNames:
		return slices.Concat(n.Groups, n.ShareGroups)
	case anyMemberNames:
		return slices.Concat(n.Members[first], n.ShareMembers[first])
	case producerNames:
		return n.Producers
	case workloadNames:
		out := slices.Clone(n.Producers)
		for g := range n.Consumers {
			out = append(out, g)
		}
		return out
	case workloadMemberNames:
		return n.Consumers[first]
	case brokerIDs:
		out := make([]string, len(n.Brokers))
		for i, id := range n.Brokers {
			out[i] = strconv.Itoa(id)
		}
		return out
	case partitionNumbers:
		return partitionList(n.Partitions[first])
	}
	return nil
}

// partitions lists topic's partitions as topic/partition words' partition
// parts.
func partitions(topic string, n Names) []Candidate {
	return words(partitionList(n.Partitions[topic]))
}

func partitionList(count int) []string {
	out := make([]string, 0, count)
	for i := range count {
		out = append(out, strconv.Itoa(i))
	}
	return out
}

// listItems lists the items of a comma-separated list that text's earlier
// items do not hold yet, for its last item.
func listItems(items []string, text string) ([]Candidate, int) {
	from := strings.LastIndexByte(text, ',') + 1
	given := strings.Split(text[:max(from-1, 0)], ",")
	var out []Candidate
	for _, it := range items {
		if from == 0 || !slices.Contains(given, it) {
			out = append(out, Candidate{Text: it})
		}
	}
	return out, from
}

// ruled marks candidates that a rule between arguments may refuse.
func ruled(cands []Candidate) []Candidate {
	for i := range cands {
		cands[i].rule = true
	}
	return cands
}

// canBeValid reports whether a line, its last word finished with a sample
// value, parses once given the positionals and required arguments it lacks
// and at most two more of its command's arguments or flags (with each value
// of an enumeration, a sample value of the others): the rules
// between arguments (schema.go's checks) are code, so completion asks the
// parser itself. A rule no two more words satisfy (a tombstone after
// value=, a second reset mode) refuses the candidate.
func canBeValid(text string) bool {
	toks, _, err := tokenize(nil, text, 1)
	if err != nil || len(toks) == 0 {
		return false
	}
	p, ok := readPlace(toks)
	if !ok {
		return false
	}
	lasts := []string{""}
	if last := toks[len(toks)-1]; last.named && last.value == "" {
		a, _ := p.namedSpec(last.name)
		lasts = []string{sampleValue(a)}
		if a.kind == kindChoice {
			lasts = a.choices
		}
	} else if strings.HasSuffix(text, "/") {
		lasts = []string{"0"}
	}
	var rest string
	for _, ps := range p.spec.positional[min(len(p.positional), len(p.spec.positional)):] {
		if !ps.optional {
			rest += " " + sampleValue(ps)
		}
	}
	var extras []string
	for _, a := range p.spec.named {
		switch {
		case slices.Contains(p.named, a.name):
		case a.required:
			rest += " " + a.name + "=" + sampleValue(a)
		case a.kind == kindChoice:
			// A rule may hang on which one (keyspace= needs keys=uniform
			// or zipf): each is tried.
			for _, v := range a.choices {
				extras = append(extras, " "+a.name+"="+v)
			}
		default:
			extras = append(extras, " "+a.name+"="+sampleValue(a))
		}
	}
	for _, f := range p.spec.flags {
		if !slices.Contains(p.flags, f) {
			extras = append(extras, " "+f)
		}
	}
	if p.spec.configs != nil {
		for _, a := range p.spec.configs(p.positional) {
			if !slices.Contains(p.named, a.name) {
				extras = append(extras, " "+a.name+"="+sampleValue(a))
				break
			}
		}
	}
	parses := func(s string) bool {
		_, ok, err := ParseLine(s, 1)
		return ok && err == nil
	}
	for _, last := range lasts {
		line := text + last + rest
		if parses(line) {
			return true
		}
		for i, e1 := range extras {
			if parses(line + e1) {
				return true
			}
			for _, e2 := range extras[i+1:] {
				if parses(line + e1 + e2) {
					return true
				}
			}
		}
	}
	return false
}

// sampleValue is a value of the argument's kind that the parser takes.
func sampleValue(a argSpec) string {
	switch a.kind {
	case kindCount:
		return strconv.FormatInt(a.min, 10)
	case kindSigned, kindDecimal:
		return "1"
	case kindDuration, kindMs:
		return "1s"
	case kindBytes:
		return "1KB"
	case kindTopicPartition:
		return "n/0"
	case kindText, kindKeyList:
		return "v"
	case kindKeyPattern:
		return "k-" + KeyNumber
	case kindRate:
		return "1/s"
	case kindChoice, kindWordList:
		if len(a.choices) > 0 {
			return a.choices[0]
		}
	case kindBool:
		return "true"
	}
	return "n"
}

// words makes candidates of plain words.
func words(ws []string) []Candidate {
	out := make([]Candidate, len(ws))
	for i, w := range ws {
		out[i] = Candidate{Text: w}
	}
	return out
}

// commonPrefix is the longest text that every candidate starts with, cut
// at a whole character.
func commonPrefix(cands []Candidate) string {
	if len(cands) == 0 {
		return ""
	}
	prefix := cands[0].Text
	for _, c := range cands[1:] {
		n := 0
		for n < len(prefix) && n < len(c.Text) && prefix[n] == c.Text[n] {
			n++
		}
		prefix = prefix[:n]
	}
	for len(prefix) > 0 && !utf8.ValidString(prefix) {
		prefix = prefix[:len(prefix)-1]
	}
	return prefix
}
