package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The embed controls write their choices into the snippet's URL, in the
// order a link carries them, and a loop that does not fit the scenario is
// said and left out rather than written.
func TestShareDialogEmbedChoicesWriteTheSnippet(t *testing.T) {
	useBrowser(t)
	lines := strings.Split(strings.TrimSpace(threeSteps), "\n")
	d := &ShareDialog{Lines: lines, Position: len(lines), Base: "https://plog.test/",
		Options: linkOptions{Play: true, Theme: "light"}} // the page's own options are not the frame's
	tester := app.NewClientTester(d)
	defer tester.Close()
	src := func() string {
		page := app.HTMLString(d)
		const open = `<iframe src=\"`
		start := strings.Index(page, open)
		if start < 0 {
			t.Fatalf("no snippet in:\n%s", page)
		}
		rest := page[start+len(open):]
		return rest[:strings.Index(rest, `\"`)]
	}
	link := "https://plog.test/#" + mustLink(t, threeSteps)
	if got := src(); got != link+"&amp;embed=1" {
		t.Errorf("by default the snippet embeds %q, want the scenario with embed=1 alone", got)
	}

	choose := func(change func(c *embedChoice)) {
		change(&d.embed)
		d.Update() // as the control's event handler does
		tester.Consume()
	}
	choose(func(c *embedChoice) {
		*c = embedChoice{readOnly: true, play: true, loop: true, loopFrom: "1", loopTo: "3", theme: "dark"}
	})
	if got, want := src(), link+"&amp;embed=1&amp;readonly=1&amp;play=1&amp;loop=1-3&amp;theme=dark"; got != want {
		t.Errorf("the snippet embeds %q, want %q", got, want)
	}

	choose(func(c *embedChoice) { c.loopTo = "7" })
	page := app.HTMLString(d)
	if strings.Contains(src(), "loop=") {
		t.Errorf("a loop past the scenario's 3 steps is written: %q", src())
	}
	if !strings.Contains(page, `id="embed-loop-status"`) || !strings.Contains(page, "leaves the loop out") || !strings.Contains(page, "steps 0 to 3") {
		t.Errorf("the dialog does not say why the loop is left out:\n%s", page)
	}
}
