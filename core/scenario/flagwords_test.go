package scenario

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// nameTemplates holds one valid line per command that takes a name as a
// positional, with NAME where a name goes. TestFlagWordNamesRoundTrip checks
// that the table covers every such command of the grammar.
var nameTemplates = map[string][]string{
	"topic":      {"topic NAME partitions=2"},
	"answer":     {"answer NAME NAME"},
	"produce":    {"produce NAME key=k value=v", "produce NAME key=k tombstone"},
	"partitions": {"partitions NAME count=2"},
	"config":     {"config topic NAME retention.ms=1h", "config group NAME session.timeout.ms=45s"},
	"truncate":   {"truncate NAME/0 before=1"},
	"compact":    {"compact NAME"},
	"join":       {"join NAME NAME topics=NAME"},
	"leave":      {"leave NAME NAME"},
	"crash":      {"crash NAME NAME"},
	"poll":       {"poll NAME NAME max=2"},
	"commit":     {"commit NAME NAME", "commit NAME NAME/0 offset=1"},
	"reset":      {"reset NAME to-earliest", "reset NAME to-latest topic=NAME", "reset NAME to-offset=3 topic=NAME/0"},
	"producer":   {"producer NAME NAME rate=2/s"},
	"consumer":   {"consumer NAME NAME rate=2/s", "consumer NAME NAME rate=2/s commit"},
	"stop":       {"stop NAME", "stop NAME NAME"},
	// The named producers' (apply_producers.go).
	"producer-config": {"producer-config NAME acks=all", "producer-config NAME transactional.id=NAME"},
	"wire":            {"wire NAME lose-request"},
	"txn":             {"txn NAME init", "txn NAME send-offsets group=NAME"},
	"delete-group":    {"delete-group NAME"},
}

// flagWordScripts writes every template with every flag word in every name
// position, quoted so that it reads as the name.
func flagWordScripts() []string {
	var scripts []string
	for _, name := range CommandNames() {
		for _, tmpl := range nameTemplates[name] {
			for _, w := range FlagWords() {
				words := strings.Fields(tmpl)
				for i, word := range words {
					name, value, named := strings.Cut(word, "=")
					switch {
					case named && strings.Contains(value, "NAME"):
						words[i] = name + "=" + strconv.Quote(strings.ReplaceAll(value, "NAME", w))
					case strings.Contains(word, "NAME"):
						words[i] = strconv.Quote(strings.ReplaceAll(word, "NAME", w))
					}
				}
				scripts = append(scripts, strings.Join(words, " "))
			}
		}
	}
	return scripts
}

// A name spelled like a flag word (a topic called tombstone, a group called
// to-earliest, a member called commit) is written back quoted, so its
// canonical text reads back as the same command: in every command, in every
// name position.
func TestFlagWordNamesRoundTrip(t *testing.T) {
	for _, spec := range commandSpecs {
		takesName := false
		for _, ps := range spec.positional {
			switch ps.kind {
			case kindName, kindTopicPartition, kindMemberOrPartition, kindNameOrPartition:
				takesName = true
			}
		}
		if takesName && len(nameTemplates[spec.name]) == 0 {
			t.Errorf("%s takes a name but has no template here", spec.name)
		}
	}
	if len(FlagWords()) < 4 {
		t.Fatalf("FlagWords() = %v: the grammar has tombstone, commit, to-earliest and to-latest", FlagWords())
	}
	for _, script := range flagWordScripts() {
		cmds, err := Parse(script)
		if err != nil {
			t.Errorf("%s: %v", script, err)
			continue
		}
		for i := 0; cmds[0].Positional(i) != ""; i++ {
			p := cmds[0].Positional(i)
			if cmds[0].positionalSpec(i).kind == kindChoice {
				continue // a word of the command's own (config topic, txn NAME init, acknowledge G M accept)
			}
			if base, _, _ := strings.Cut(p, "/"); !slices.Contains(FlagWords(), base) && base != "topic" && base != "group" {
				t.Errorf("%s: positional %d reads as %q", script, i, p)
			}
		}
		if !checkCanonical(t, script) {
			t.Errorf("%s does not parse", script)
		}
	}
	// The link of such a script opens to the same script.
	link, err := EncodeLink("topic \"tombstone\"\nproduce \"tombstone\" key=k value=v\n")
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeLink(link)
	if err != nil || got != latestRulesLine+"topic tombstone\nproduce \"tombstone\" key=k value=v\n" {
		t.Fatalf("DecodeLink = %q, %v", got, err)
	}
}

// Lines written before Format quoted such names (produce tombstone key=k,
// in links and saved workspaces) read as the names they meant.
func TestUnquotedFlagWordNamesStillRead(t *testing.T) {
	for _, script := range flagWordScripts() {
		cmds, err := Parse(script)
		if err != nil {
			t.Fatalf("%s: %v", script, err)
		}
		// The line as Format wrote it before: positionals quoted only
		// where they would not read as one word.
		var b strings.Builder
		b.WriteString(cmds[0].Name)
		for _, a := range cmds[0].Args {
			b.WriteByte(' ')
			switch {
			case a.Flag:
				b.WriteString(a.Name)
			case a.Name == "":
				b.WriteString(quoteIfNeeded(a.Value, true))
			default:
				b.WriteString(a.Name + "=" + quoteIfNeeded(a.Value, false))
			}
		}
		old, err := Parse(b.String())
		if err != nil || !old[0].Equal(cmds[0]) {
			t.Errorf("%s reads as %v, %v; want %s", b.String(), old, err, cmds[0])
		}
	}
}
