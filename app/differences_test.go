package app

import (
	"html"
	"strings"
	"testing"

	"plog/core"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// "How plog differs from Kafka" lists every entry of core.Differences with
// its words, under the Kafka version plog follows.
func TestDifferencesListsEveryEntry(t *testing.T) {
	d := &Differences{}
	c := app.NewClientTester(d)
	defer c.Close()
	page := html.UnescapeString(app.HTMLString(d))
	if !strings.Contains(page, "How plog differs from Kafka") || !strings.Contains(page, "plog follows Apache Kafka "+core.KafkaVersion+",") {
		t.Errorf("the list does not say what it is or the version:\n%s", page)
	}
	for _, e := range core.Differences() {
		for _, want := range []string{`id="` + differenceID(e.Name) + `"`, e.Title, e.Kafka, e.Plog, e.Why} {
			if !strings.Contains(page, want) {
				t.Errorf("entry %s: the list lacks %q", e.Name, want)
			}
		}
	}
}

// Each help topic and config form where plog departs from Kafka carries a
// "differs from Kafka" link to its entry, and only those.
func TestDiffersLinksBesideTheHelp(t *testing.T) {
	for topic, name := range differsOf {
		if _, ok := core.LookupDifference(name); !ok {
			t.Errorf("help %s links to %s, which is no entry", topic, name)
		}
		if _, ok := helpTopics[topic]; !ok {
			t.Errorf("differsOf names help %s, which does not exist", topic)
		}
		h := &Help{Topic: topic, open: true}
		c := app.NewClientTester(h)
		if page := app.HTMLString(h); !strings.Contains(page, `data-difference-link="`+name+`"`) {
			t.Errorf("the help of %s has no link to %s:\n%s", topic, name, page)
		}
		c.Close()
	}
	h := &Help{Topic: "offset", open: true}
	c := app.NewClientTester(h)
	if page := app.HTMLString(h); strings.Contains(page, "data-difference-link") {
		t.Errorf("the help of offset, where plog follows Kafka, links to a difference:\n%s", page)
	}
	c.Close()
	for config, want := range map[string]bool{"segment.records": true, "retention.ms": true, "min.insync.replicas": false} {
		f := &TopicConfigForm{Topics: []TopicSnapshot{{Name: "t"}}, name: config}
		c := app.NewClientTester(f)
		got := strings.Contains(app.HTMLString(f), `data-difference-link="`+config+`"`)
		c.Close()
		if got != want {
			t.Errorf("the config form for %s links to its difference: %v, want %v", config, got, want)
		}
	}
	g := &GroupConfigForm{Group: "g", Config: core.DefaultGroupConfigUnder(core.RulesV3)} // rebalance.ms is rules 1 to 3's
	c = app.NewClientTester(g)
	defer c.Close()
	if page := app.HTMLString(g); !strings.Contains(page, `data-difference-link="rebalance.ms"`) {
		t.Errorf("the group config form has no link beside rebalance.ms:\n%s", page)
	}
}

// In the browser the folded list draws no entry, which a learner could not
// see, until something unfolds it: then every entry is there to read.
func TestDifferencesDrawTheirEntriesOnceUnfolded(t *testing.T) {
	drawFoldedBodies = false
	defer func() { drawFoldedBodies = !app.IsClient }()
	d := &Differences{}
	c := app.NewClientTester(d)
	defer c.Close()
	page := html.UnescapeString(app.HTMLString(d))
	if !strings.Contains(page, "How plog differs from Kafka") {
		t.Errorf("the folded list lost its summary:\n%s", page)
	}
	if strings.Contains(page, `class="difference"`) {
		t.Errorf("the folded list drew its entries:\n%s", page)
	}
	c.Context().NewActionWithValue(differencesAction, "segment.records")
	c.Consume()
	page = html.UnescapeString(app.HTMLString(d))
	for _, e := range core.Differences() {
		if !strings.Contains(page, `id="`+differenceID(e.Name)+`"`) || !strings.Contains(page, e.Why) {
			t.Errorf("entry %s is not drawn once the list unfolds", e.Name)
		}
	}
}
