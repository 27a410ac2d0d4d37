package app

import (
	"html"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// checkedBox reports whether the page's checkbox named name is ticked: go-app
// writes a false boolean attribute as checked="false".
func checkedBox(t *testing.T, page, name string) bool {
	t.Helper()
	tags := tagsWith(page, "name", name)
	if len(tags) != 1 {
		t.Fatalf("want one input named %s, got %q", name, tags)
	}
	return strings.Contains(tags[0], " checked") && !strings.Contains(tags[0], `checked="false"`)
}

// selectedOption is the option a select named name shows as chosen.
func selectedOption(t *testing.T, page, name string) string {
	t.Helper()
	start := strings.Index(page, `name="`+name+`"`)
	if start < 0 {
		t.Fatalf("no select named %s", name)
	}
	end := strings.Index(page[start:], "</select>")
	for _, tag := range htmlTag.FindAllString(page[start:start+end], -1) {
		if strings.HasPrefix(tag, "<option") && strings.Contains(tag, " selected") && !strings.Contains(tag, `selected="false"`) {
			_, v, _ := strings.Cut(tag, `value="`)
			v, _, _ = strings.Cut(v, `"`)
			return v
		}
	}
	return ""
}

// A new group's config form shows its rules' defaults: Kafka's under rules
// 3 (auto-commit on, auto.offset.reset=latest), the old ones for a link made
// under rules 2; and its checkbox writes Kafka's name.
func TestGroupConfigFormShowsTheRulesDefaults(t *testing.T) {
	for _, tt := range []struct {
		rules, reset string
		autoCommit   bool
	}{
		{"", "latest", true},
		{"rules 2\n", "earliest", false},
	} {
		p, d := mountAt(t, mustLink(t, tt.rules+"topic t\njoin g c1 topics=t\n"))
		page := inspect(t, p, d, selection{Kind: selectGroup, Group: "g"})
		if got := checkedBox(t, page, "enable.auto.commit"); got != tt.autoCommit {
			t.Errorf("%q: auto-commit ticked %v, want %v", tt.rules, got, tt.autoCommit)
		}
		if got := selectedOption(t, page, "auto.offset.reset"); got != tt.reset {
			t.Errorf("%q: auto.offset.reset shows %q, want %q", tt.rules, got, tt.reset)
		}
		f := &GroupConfigForm{Group: "g", Config: p.view.Groups[0].Config}
		if line := f.autoCommitLine(false); line != "config group g enable.auto.commit=false" {
			t.Errorf("the checkbox writes %q", line)
		}
		d.Close()
	}
}

// The configs of the playground's own carry a visible mark, and Kafka's
// none; a default that rules 3 changed says what it was before.
func TestPlaygroundOnlyConfigsAreMarked(t *testing.T) {
	topic := &TopicForm{}
	d := app.NewClientTester(topic)
	defer d.Close()
	page := html.UnescapeString(app.HTMLString(topic))
	if len(tagsWith(page, "data-playground-only", "segment.records")) != 1 || !strings.Contains(page, ">playground only<") {
		t.Errorf("the topic form does not mark segment.records as the playground's own:\n%s", page)
	}
	config := &TopicConfigForm{Topics: []TopicSnapshot{{Name: "views"}}, name: "segment.records"}
	d2 := app.NewClientTester(config)
	defer d2.Close()
	page = html.UnescapeString(app.HTMLString(config))
	if !strings.Contains(page, ">segment.records (playground only)<") || len(tagsWith(page, "data-playground-only", "segment.records")) != 1 {
		t.Errorf("the topic config form does not mark segment.records:\n%s", page)
	}
	if strings.Contains(page, ">retention.ms (playground only)<") {
		t.Error("retention.ms, Kafka's own, is marked as the playground's")
	}
	group := &GroupConfigForm{Group: "g"}
	d3 := app.NewClientTester(group)
	defer d3.Close()
	page = html.UnescapeString(app.HTMLString(group))
	for _, name := range []string{"delivery", "lag.alert.ms", "lag.alert.records", "rebalance.ms"} {
		if len(tagsWith(page, "data-playground-only", name)) != 1 {
			t.Errorf("the group config form does not mark %s as the playground's own", name)
		}
	}
	for _, name := range []string{"session.timeout.ms", "auto.offset.reset", "auto.commit.interval.ms"} {
		if len(tagsWith(page, "data-playground-only", name)) != 0 {
			t.Errorf("%s, Kafka's own, is marked as the playground's", name)
		}
	}
	if want := "Kafka's default is latest. Under rules 1 and 2 (links made before rules 3) it was earliest."; !strings.Contains(page, want) {
		t.Errorf("auto.offset.reset's help does not say %q:\n%s", want, page)
	}
}

// The compact button says it is the playground's shortcut for running the
// log cleaner now.
func TestCompactButtonIsTheCleanerShortcut(t *testing.T) {
	c := &CleanupControls{Topics: []TopicSnapshot{{Name: "users"}}}
	d := app.NewClientTester(c)
	defer d.Close()
	page := html.UnescapeString(app.HTMLString(c))
	button := tagsWith(page, "id", "compact-go", "data-shortcut", "cleaner")
	if len(button) != 1 || !strings.Contains(page, ">Run the cleaner now<") || !strings.Contains(button[0], "A playground shortcut: Kafka's log cleaner runs by itself") {
		t.Errorf("the compact button is not labelled as the cleaner shortcut: %q\n%s", button, page)
	}
	if len(tagsWith(page, "data-shortcut-note", "cleaner")) != 1 || !strings.Contains(page, ">playground shortcut<") ||
		len(tagsWith(page, "data-difference-link", "cleaner")) != 1 {
		t.Errorf("no visible note that compact is a playground shortcut:\n%s", page)
	}
	if line, _ := c.CompactLine(); line != "compact users" {
		t.Errorf("the button writes %q", line)
	}
}
