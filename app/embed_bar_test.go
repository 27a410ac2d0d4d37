package app

import (
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// "Open in the full playground" opens a new tab where the browser lets the
// page, and otherwise offers the link, selected, to copy.
func TestEmbedBarOpensATabOrOffersTheLink(t *testing.T) {
	const full = "https://plog.test/#v1.abc&at=2"
	b := useBrowser(t)
	bar := &EmbedBar{FullURL: full}
	d := app.NewClientTester(bar)
	defer d.Close()

	b.Popups = true
	bar.openFull(d.Context(), app.Event{})
	bar.Update()
	d.Consume()
	if got := b.Opened(); !slices.Equal(got, []string{full}) {
		t.Errorf("opened %v, want the full playground's URL", got)
	}
	if page := app.HTMLString(bar); strings.Contains(page, fullLinkField) {
		t.Errorf("the link is offered to copy though the tab opened:\n%s", page)
	}

	b.Popups = false
	bar.openFull(d.Context(), app.Event{})
	bar.Update()
	d.Consume()
	page := app.HTMLString(bar)
	field := tagsWith(page, "id", fullLinkField)
	if len(field) != 1 || !strings.Contains(field[0], `value="`+full+`"`) {
		t.Fatalf("no field offering %s to copy:\n%s", full, page)
	}
	if !strings.Contains(page, "This frame may not open a tab") {
		t.Error("the bar does not say why it offers the link")
	}
	if !slices.Contains(b.Selected(), fullLinkField) {
		t.Errorf("the offered link is not selected for copying: %v", b.Selected())
	}
	bar.closeCopy(d.Context(), app.Event{})
	bar.Update()
	d.Consume()
	if strings.Contains(app.HTMLString(bar), fullLinkField) {
		t.Error("closing the offer leaves it")
	}
}
