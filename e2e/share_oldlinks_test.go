package e2e

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"plog/core/scenario"
)

// oldLinks lists the link corpora a page must keep opening: the engine's
// golden links (core/scenario/testdata/links.txt, each after a load-link
// directive) and the page's fragments with parameters
// (testdata/share_links.txt, one a line).
func oldLinks(t *testing.T) []string {
	t.Helper()
	var links []string
	engine, err := os.ReadFile("../core/scenario/testdata/links.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(engine), "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "load-link" && i+1 < len(lines) {
			links = append(links, strings.TrimSpace(lines[i+1]))
		}
	}
	page, err := os.Open("testdata/share_links.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer page.Close()
	s := bufio.NewScanner(page)
	s.Buffer(nil, scenario.MaxLinkChars)
	for s.Scan() {
		if l := strings.TrimSpace(s.Text()); l != "" && !strings.HasPrefix(l, "#") {
			links = append(links, l)
		}
	}
	if len(links) < 8 {
		t.Fatalf("found %d links in the corpora: the files changed shape", len(links))
	}
	return links
}

// membersOnPage reads each member's data-assigned, by "group/member".
func membersOnPage(t *testing.T, b *browser) map[string]string {
	t.Helper()
	return eval[map[string]string](t, b, `Object.fromEntries(Array.from(document.querySelectorAll("[data-group] [data-member]")).map(el =>
		[el.closest("[data-group]").dataset.group + "/" + el.dataset.member, el.dataset.assigned || ""]))`)
}

// A link printed in a course today must open the same in years: each link
// of the corpora opens to the state and position the engine gives natively.
func TestOldLinksOpenToTheSameState(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL)
	for _, link := range oldLinks(t) {
		f, err := scenario.ParseFragment(link)
		if err != nil {
			t.Fatalf("%.40s…: %v", link, err)
		}
		script, err := scenario.DecodeLink(f.Link)
		if err != nil {
			t.Fatalf("%.40s…: %v", link, err)
		}
		cmds, err := scenario.Parse(script)
		if err != nil {
			t.Fatal(err)
		}
		// The rules line (rules 1, for a link made before rules were
		// numbered) is the scenario's, not a step: at= does not count it.
		var rules, steps []scenario.Command
		for _, c := range cmds {
			if c.Name == scenario.CmdRules {
				rules = append(rules, c)
			} else {
				steps = append(steps, c)
			}
		}
		at := len(steps)
		if f.At >= 0 {
			at = f.At
		}
		applied := scenario.Format(rules) + scenario.Format(steps[:at])

		b.reopen(t, srv.URL+"#"+link)
		name := fmt.Sprintf("%.24s… at %d", link, at)
		if alert := b.text(t, "main > [role=alert]"); alert != "" {
			t.Errorf("%s: alert %q", name, alert)
		}
		if got, want := b.position(t), fmt.Sprintf("%d/%d", at, len(steps)); got != want {
			t.Errorf("%s: timeline at %s, want %s", name, got, want)
		}
		sameLanes(t, name, lanesOnPage(t, b), lanesOfScript(t, applied))
		if got, want := membersOnPage(t, b), assignments(t, applied); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: members on the page %v, want (natively) %v", name, got, want)
		}
		if got := b.attr(t, "main", "data-embed"); got != fmt.Sprint(f.Embed) {
			t.Errorf("%s: main[data-embed=%s], want %v", name, got, f.Embed)
		}
	}
	b.noErrors(t)
}

// sameLanes fails the test unless the lanes a page shows are the native
// ones: the same partitions, log start offsets and high watermarks, and each
// record drawn (a lane draws its newest records only) with its key.
func sameLanes(t *testing.T, name string, got, want []lane) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d lanes on the page, want %d", name, len(got), len(want))
		return
	}
	for i, g := range got {
		w := want[i]
		if g.Topic != w.Topic || g.Partition != w.Partition || g.LogStart != w.LogStart || g.HighWater != w.HighWater {
			t.Errorf("%s: lane %s/%s from %s to %s, want %s/%s from %s to %s", name,
				g.Topic, g.Partition, g.LogStart, g.HighWater, w.Topic, w.Partition, w.LogStart, w.HighWater)
		}
		if len(g.Records) == 0 && len(w.Records) > 0 {
			t.Errorf("%s: lane %s/%s draws no records, want some of %d", name, g.Topic, g.Partition, len(w.Records))
		}
		for offset, key := range g.Records {
			if wantKey, ok := w.Records[offset]; !ok || wantKey != key {
				t.Errorf("%s: %s/%s offset %s has key %q, want %q (present natively: %v)", name, g.Topic, g.Partition, offset, key, wantKey, ok)
			}
		}
	}
}
