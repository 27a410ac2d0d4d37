package lesson

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"plog/core/scenario"
)

// A lesson is fair when its goal can be met and says what it means: its
// solution solves it and its start and wrong attempts do not (Verify),
// every topic, group, member and producer its check names exists at some
// step of its solution (a typo in a name would leave a goal nobody can
// meet, and a learner reading "group dash has no member"), and every
// value its else: and solved: sentences quote is there whenever the
// sentence shows (else "dash is still  behind on :").

// nameKind is what a check's argument names, read from the placeholder
// its usage writes for it: the placeholder's last word (GROUP,
// OTHER-GROUP, TOPIC, TOPIC/PARTITION, MEMBER, PRODUCER).
type nameKind int

const (
	notAName nameKind = iota
	topicName
	groupName // a consumer group's or a share group's
	memberName
	producerName
	anyMemberName // a member of any group, or a producer (an event's Member)
)

// nameKinds says what the placeholders' last words name.
var nameKinds = map[string]nameKind{
	"TOPIC": topicName, "TOPIC/PARTITION": topicName,
	"GROUP": groupName, "MEMBER": memberName, "PRODUCER": producerName,
}

// kindOf is what a usage's placeholder names.
func kindOf(placeholder string) nameKind {
	placeholder = strings.TrimSuffix(placeholder, "...")
	word := placeholder[strings.LastIndexByte(placeholder, '-')+1:]
	return nameKinds[word]
}

// positionalKinds are what each positional argument of a check names, as
// its usage writes them; the last goes on for a repeated last positional.
func (s *checkSpec) positionalKinds() []nameKind {
	var kinds []nameKind
	for _, word := range strings.Fields(s.usage)[1:] {
		if strings.HasPrefix(word, "[") {
			continue
		}
		kinds = append(kinds, kindOf(word))
	}
	return kinds
}

// namedKinds are what each name=value argument names, as its usage
// writes it ([topic=TOPIC]); a list (not=GROUP,...) names what must not
// be, so it needs no such name.
func (s *checkSpec) namedKinds() map[string]nameKind {
	kinds := map[string]nameKind{}
	for _, word := range strings.Fields(s.usage)[1:] {
		name, value, ok := strings.Cut(strings.Trim(word, "[]"), "=")
		if ok && !strings.Contains(value, ",") {
			kinds[name] = kindOf(strings.Split(value, " ")[0])
		}
	}
	return kinds
}

// names are the names a scenario has had.
type names struct {
	topics, groups, producers, workloads, brokers map[string]bool
	members                                       map[string]map[string]bool // by group
}

func newNames() names {
	return names{topics: map[string]bool{}, groups: map[string]bool{}, producers: map[string]bool{},
		workloads: map[string]bool{}, brokers: map[string]bool{}, members: map[string]map[string]bool{}}
}

// seen adds the names the session's state has now.
func (n *names) seen(s *scenario.Session) {
	log := s.Log()
	for _, t := range log.TopicNames() {
		n.topics[t] = true
	}
	member := func(g, m string) {
		if n.members[g] == nil {
			n.members[g] = map[string]bool{}
		}
		n.members[g][m] = true
	}
	for _, g := range log.GroupNames() {
		n.groups[g] = true
		if v, err := log.Group(g); err == nil {
			for _, m := range v.Members {
				member(g, m.ID)
			}
		}
	}
	for _, g := range log.ShareGroupNames() {
		n.groups[g] = true
		if v, err := log.ShareGroup(g); err == nil {
			for _, m := range v.Members {
				member(g, m.Name)
			}
		}
	}
	for _, p := range log.Producers() {
		n.producers[p.Name] = true
	}
	for _, w := range s.Workloads() {
		n.workloads[w.Name] = true
		if w.Member != "" {
			n.workloads[w.Member] = true
		}
	}
	for _, b := range log.Brokers() {
		n.brokers[strconv.Itoa(b.ID)] = true
	}
}

// hasMember reports whether any group had a member of the name.
func (n *names) hasMember(name string) bool {
	for _, ms := range n.members {
		if ms[name] {
			return true
		}
	}
	return false
}

// hasThing reports whether the thing a control belongs to was seen.
func (n *names) hasThing(scope ControlScope, thing string) bool {
	switch scope {
	case MemberScope:
		return n.hasMember(thing)
	case GroupScope:
		return n.groups[thing]
	case TopicScope:
		return n.topics[thing]
	case ProducerScope:
		return n.producers[thing]
	case WorkloadScope:
		return n.workloads[thing]
	case BrokerScope:
		return n.brokers[thing]
	}
	return true
}

// has reports whether a name of a kind was seen; group is the group a
// member name is of.
func (n *names) has(kind nameKind, name, group string) bool {
	switch kind {
	case topicName:
		topic, _, _ := strings.Cut(name, "/")
		return n.topics[topic]
	case groupName:
		return n.groups[name]
	case memberName:
		return n.members[group][name]
	case producerName:
		return n.producers[name]
	case anyMemberName:
		return n.hasMember(name) || n.producers[name]
	}
	return true
}

// Fairness checks that the lesson is fair beyond its trials (Verify):
// every name its check refers to exists at some step of its solution, and
// the values its sentences quote are there at every step of the start,
// each wrong attempt and the solution where the sentence shows. Each
// problem is an error at the lesson file's line; none for a fair lesson.
// A lesson without a solution has only the second looked at.
func (l Lesson) Fairness() []error {
	var errs []error
	if l.lines.solution > 0 {
		errs = append(errs, l.unknownNames()...)
	}
	scripts := []struct {
		name, script string
	}{{"start", ""}}
	for i, w := range l.WrongAttempts {
		name := "wrong attempt"
		if len(l.WrongAttempts) > 1 {
			name = fmt.Sprintf("wrong attempt %d", i+1)
		}
		scripts = append(scripts, struct{ name, script string }{name, w})
	}
	if l.Solution != "" {
		scripts = append(scripts, struct{ name, script string }{"solution", l.Solution})
	}
	reported := map[string]bool{}
	checked := 0
	for _, sc := range scripts {
		l.everyStep(sc.script, func(step string, s *scenario.Session) {
			if checked++; checked > maxFairSteps {
				return
			}
			_, _, x := l.goal(s)
			if x == nil {
				return
			}
			for _, u := range x.unfilled {
				key := fmt.Sprintf("%d %s", u.line, u.placeholder)
				if reported[key] {
					continue
				}
				reported[key] = true
				where := "at the start"
				if step != "" {
					where = fmt.Sprintf("in the %s, after %q", sc.name, step)
				}
				why := ""
				if u.why != "" {
					why = " (" + u.why + ")"
				}
				errs = append(errs, &scenario.Error{Line: u.line, Col: u.col, Msg: fmt.Sprintf(
					"%s quotes {%s}, which has no value %s%s: the learner would read a gap there (quote it inside [ ] to leave it out when it has none)",
					u.sentence, u.placeholder, where, why)})
			}
		})
	}
	if checked > maxFairSteps {
		errs = append(errs, fmt.Errorf("the start, wrong attempts and solution have %d steps; the check of the sentences looks at %d: make the scripts shorter", checked, maxFairSteps))
	}
	return errs
}

// placedControl is a control the lesson names, and what names it.
type placedControl struct {
	ref   ControlRef
	where string // "the hint", "the else: sentence" or "the solved: sentence"
}

// controlRefs are the controls the lesson's hints and sentences name, in
// the order the file writes them.
func (l Lesson) controlRefs() []placedControl {
	var out []placedControl
	for _, ref := range l.solvedControls {
		out = append(out, placedControl{ref, "the solved: sentence"})
	}
	for _, g := range l.checks {
		for _, ref := range g.controls {
			out = append(out, placedControl{ref, "the else: sentence"})
		}
	}
	for _, hint := range l.HintDocs {
		for _, in := range hint {
			if in.Kind == InlineControl {
				out = append(out, placedControl{in.Control, "the hint"})
			}
		}
	}
	return out
}

// maxFairSteps bounds the steps at which Fairness checks the goal: each
// check of a goal may replay the script, and the page's editor runs it.
const maxFairSteps = 300

// unknownNames are the names the check refers to that no step of the
// solution has.
func (l Lesson) unknownNames() []error {
	seen := newNames()
	l.everyStep(l.Solution, func(_ string, s *scenario.Session) { seen.seen(s) })
	var errs []error
	// A hint, an else: or the solved: sentence points at a control of a
	// thing the learner sees at some step of the solution; a thing it
	// quotes, {member}, is the value's.
	for _, c := range l.controlRefs() {
		ref := c.ref
		if ref.Thing == "" || strings.Contains(ref.Thing, "{") || seen.hasThing(ref.Scope(), ref.Thing) {
			continue
		}
		errs = append(errs, &scenario.Error{Line: ref.line, Col: ref.col, Msg: fmt.Sprintf(
			"%s points at %s of %s %s, which no step of the solution has: a typo?", c.where, ref.Name, strings.ToLower(ref.Scope().String()), ref.Thing)})
	}
	// Each check of a line is looked at in its line: where its words are.
	look := func(c *check, line *goalLine) {
		kinds := c.spec.positionalKinds()
		group := ""
		for i, arg := range c.args {
			kind := kinds[min(i, len(kinds)-1)]
			if kind == groupName && group == "" {
				group = arg
			}
			if kind == notAName || strings.Contains(arg, "{") || seen.has(kind, arg, group) {
				continue
			}
			errs = append(errs, &scenario.Error{Line: line.line, Col: colOf(line.text, c.spec.name, arg), Msg: fmt.Sprintf(
				"%s names %s %s, which no step of the solution has: a typo?", c.spec.name, kindWord(kind), arg)})
		}
		named := c.spec.namedKinds()
		for name, arg := range c.named {
			if kind := named[name]; kind != notAName && !strings.Contains(arg, "{") && !seen.has(kind, arg, group) {
				errs = append(errs, &scenario.Error{Line: line.line, Col: colOf(line.text, c.spec.name, name+"="), Msg: fmt.Sprintf(
					"%s names %s %s, which no step of the solution has: a typo?", c.spec.name, kindWord(kind), arg)})
			}
		}
		if cmp, ok := c.parsed.(*comparison); ok {
			for _, t := range []term{cmp.left, cmp.right} {
				if t.fn == nil {
					continue
				}
				group := ""
				for i, a := range t.args {
					var kind nameKind
					name := a.text
					if a.field != nil {
						// events(member-left,group=billing): a field
						// that names a group, topic or member names it
						// as an argument would.
						kind, name = map[string]nameKind{"group": groupName, "topic": topicName, "member": anyMemberName}[a.field.name], a.want.word
					} else {
						kind = [...]nameKind{topicArg: topicName, partitionArg: topicName, topicOrPartArg: topicName, recordArg: topicName,
							groupArg: groupName, producerArg: producerName, optionalTopicPart: topicName, eventKindArg: notAName, optionalNameArg: notAName, nameArg: notAName,
							memberArg: memberName}[t.fn.args[i]]
						if kind == topicName {
							name = a.topic
						}
					}
					if kind == groupName {
						group = name
					}
					if !strings.Contains(name, "{") && (kind != memberName || !strings.Contains(group, "{")) && !seen.has(kind, name, group) {
						errs = append(errs, &scenario.Error{Line: line.line, Col: colOf(line.text, c.spec.name, t.text), Msg: fmt.Sprintf(
							"%s names %s %s, which no step of the solution has: a typo?", t.text, kindWord(kind), name)})
					}
				}
			}
		}
	}
	for i := range l.checks {
		for _, c := range l.checks[i].terms {
			look(c, &l.checks[i])
		}
	}
	return errs
}

// colOf is the column of an argument of a check in its line as written:
// the first place it comes after the check's name (the line may say
// other checks, combined with and or or).
func colOf(text, check, arg string) int {
	from := 0
	for {
		at := strings.Index(text[from:], check+" ")
		if at < 0 {
			return 1
		}
		from += at + len(check)
		if i := strings.Index(text[from:], arg); i >= 0 {
			// The check a line says twice (a or b) is found twice; the
			// argument's first place after either is the one meant.
			return utf8.RuneCountInString(text[:from+i]) + 1
		}
	}
}

// kindWord is a kind of name as a message says it.
func kindWord(k nameKind) string {
	return [...]string{notAName: "", topicName: "topic", groupName: "group", memberName: "member", producerName: "producer", anyMemberName: "member"}[k]
}

// everyStep replays the lesson's start and then a script's commands,
// calling f after the start and after each command (with its line). A
// command that does not apply ends the replay: Verify reports it.
func (l Lesson) everyStep(script string, f func(step string, s *scenario.Session)) {
	s, err := l.Start()
	if err != nil {
		return
	}
	f("", s)
	cmds, err := scenario.Parse(script)
	if err != nil {
		return
	}
	if len(cmds) > 0 && cmds[0].Name == scenario.CmdSeed {
		_, cmds = withoutRules(cmds)
		start, _ := scenario.Parse(l.Script)
		_, start = withoutRules(start)
		cmds = cmds[min(len(start), len(cmds)):]
	}
	for _, c := range slices.Clip(cmds) {
		if _, err := s.ApplyCommand(c); err != nil {
			return
		}
		f(c.String(), s)
	}
}
