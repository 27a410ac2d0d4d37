package app

import (
	"errors"
	"html"
	"net/url"
	"slices"
	"strings"
	"testing"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// commandLineHost renders a page and, beside it, a command line on the
// page's session, as the page's timeline does: the test holds the command
// line it drives.
type commandLineHost struct {
	app.Compo
	page *Playground
	line *CommandLine
	// shifted draws something before the command line, which go-app
	// then draws anew.
	shifted bool
}

func (h *commandLineHost) Render() app.UI {
	if h.page.session == nil {
		return app.Div().Body(h.page)
	}
	l := commandLineOf(h.page.commandLineSession(), h.page.session.Position(), h.page.view.commandExample())
	if h.line == nil {
		h.line, _ = l.(*CommandLine)
	}
	return app.Div().Body(h.page, app.If(h.shifted, app.Span()), l)
}

// mountCommandLine opens script in a page and returns its command line.
func mountCommandLine(t *testing.T, script string) (*commandLineHost, app.ClientDispatcher) {
	t.Helper()
	useBrowser(t)
	h := &commandLineHost{page: newTestPlayground()}
	d := app.NewClientTester(h)
	t.Cleanup(d.Close)
	u, err := url.Parse("https://plog.test/#" + mustLink(t, script))
	if err != nil {
		t.Fatal(err)
	}
	d.Nav(u)
	d.Consume()
	h.Update()
	d.Consume()
	if h.line == nil {
		t.Fatal("no command line")
	}
	return h, d
}

// typeLine puts text in the box with the caret at its end, as typing does.
func (h *commandLineHost) typeLine(text string) {
	h.line.text, h.line.cursor = text, len(text)
}

// press sends a key to the command line, then lets the page act and the
// command line follow it.
func (h *commandLineHost) press(d app.ClientDispatcher, key string) bool {
	used := h.line.key(d.Context(), key, false)
	h.line.Update() // as a browser event's handler does
	d.Consume()
	h.Update()
	d.Consume()
	d.Consume() // the update's OnUpdate runs after the frame that rendered it
	return used
}

func TestCommandLineRunsALineAsOneStep(t *testing.T) {
	h, d := mountCommandLine(t, "topic orders partitions=2\n")
	s := h.page.session
	h.typeLine("produce orders key=acct-1 value=v")
	h.press(d, "Enter")
	if got := s.Lines(); len(got) != 2 || got[1] != "produce orders key=acct-1 value=v" || s.Position() != 2 {
		t.Fatalf("after Enter the script is %q at %d, want the line as step 2", got, s.Position())
	}
	if h.line.text != "" {
		t.Errorf("the box holds %q after its line applied, want it empty", h.line.text)
	}
	// One step: undo takes it back.
	d.Context().NewActionWithValue(historyAction, historyMove{Kind: "undo"})
	d.Consume()
	if s.Position() != 1 {
		t.Errorf("undo after the command line's step: position %d, want 1", s.Position())
	}
}

func TestCommandLineShowsTheLanguagesErrorAndKeepsTheLine(t *testing.T) {
	h, d := mountCommandLine(t, "topic orders partitions=2\n")
	s := h.page.session
	for _, line := range []string{"produce nosuch value=v", "produce orders count=x", "frobnicate"} {
		// The message the language gives for the line, beside the control.
		want := scenario.NewSession()
		if _, err := want.Apply("topic orders partitions=2"); err != nil {
			t.Fatal(err)
		}
		_, err := want.Apply(line)
		var serr *scenario.Error
		if !errors.As(err, &serr) {
			t.Fatalf("%s: the language takes it (%v)", line, err)
		}
		h.typeLine(line)
		h.press(d, "Enter")
		var alert ControlAlert
		d.Context().GetState(controlAlertState, &alert)
		if alert.Control != commandLineControl || alert.Message != serr.Msg {
			t.Errorf("%s: alert %+v, want %q beside the command line", line, alert, serr.Msg)
		}
		if s.Len() != 1 || s.Position() != 1 {
			t.Errorf("%s: the script changed: %q at %d", line, s.Lines(), s.Position())
		}
		if h.line.text != line {
			t.Errorf("%s: the box holds %q, want the line kept to fix", line, h.line.text)
		}
		if page := app.HTMLString(h.line); !strings.Contains(page, html.EscapeString(serr.Msg)) || len(tagsWith(page, "role", "alert")) != 1 {
			t.Errorf("%s: the command line does not show its error:\n%s", line, page)
		}
	}
	// A line fixed after a refusal applies, and empties the box.
	h.typeLine("produce orders value=v")
	h.press(d, "Enter")
	if s.Len() != 2 || h.line.text != "" {
		t.Errorf("the fixed line: script %q, box %q", s.Lines(), h.line.text)
	}
}

func TestCommandLineCompletesWithTab(t *testing.T) {
	h, d := mountCommandLine(t, "topic orders partitions=2\ntopic other\n")
	h.typeLine("produce ord")
	if !h.press(d, "Tab") || h.line.text != "produce orders " || h.line.cursor != len("produce orders ") {
		t.Fatalf("one candidate: box %q, caret %d", h.line.text, h.line.cursor)
	}
	h.typeLine("produce orders retention")
	if h.press(d, "Tab"); h.line.open || h.line.text != "produce orders retention" {
		t.Errorf("produce takes no configs: box %q, list open %v", h.line.text, h.line.open)
	}
	h.typeLine("config topic orders retention")
	h.press(d, "Tab")
	if h.line.text != "config topic orders retention." || !h.line.open {
		t.Fatalf("two configs: box %q (want their shared prefix), list open %v", h.line.text, h.line.open)
	}
	page := app.HTMLString(h.line)
	if got := tagsWith(page, "data-completion", "retention.ms="); len(got) != 1 || !strings.Contains(page, "Kafka&#39;s default 7d") {
		t.Fatalf("the list does not offer retention.ms= with Kafka's default:\n%s", page)
	}
	if len(tagsWith(page, "role", "combobox", "aria-expanded", "true", "aria-controls", completionList)) != 1 {
		t.Errorf("the box does not say its list is open:\n%s", page)
	}
	// Tab and the arrows cycle; Enter picks the highlighted one.
	h.press(d, "Tab")
	h.press(d, "ArrowDown")
	h.press(d, "ArrowUp")
	h.press(d, "Tab")
	page = app.HTMLString(h.line)
	if len(tagsWith(page, "aria-activedescendant", completionID(1))) != 1 || len(tagsWith(page, "id", completionID(1), "aria-selected", "true")) != 1 {
		t.Errorf("the second candidate is not highlighted:\n%s", page)
	}
	want := h.line.completion.Candidates[1].Text
	h.press(d, "Enter")
	if h.line.text != "config topic orders "+want || h.line.open {
		t.Errorf("Enter on %s: box %q, list open %v", want, h.line.text, h.line.open)
	}
	if h.page.session.Len() != 2 {
		t.Errorf("picking a candidate ran the line: %q", h.page.session.Lines())
	}
	// Escape closes the list and leaves the box as it was.
	h.typeLine("produce o")
	h.press(d, "Tab")
	if !h.line.open || !h.press(d, "Escape") || h.line.open || h.line.text != "produce o" {
		t.Errorf("Escape: box %q, list open %v", h.line.text, h.line.open)
	}
	// A click picks too.
	h.press(d, "Tab")
	h.line.pick(d.Context(), slices.IndexFunc(h.line.completion.Candidates, func(c scenario.Candidate) bool { return c.Text == "other" }))
	if h.line.text != "produce other " {
		t.Errorf("picked other: box %q", h.line.text)
	}
	// Tab on an empty box moves the focus, as everywhere.
	h.typeLine("")
	if h.press(d, "Tab") {
		t.Error("Tab on an empty box was kept from moving the focus")
	}
}

func TestCommandLineWalksItsHistory(t *testing.T) {
	h, d := mountCommandLine(t, "topic orders\n")
	for _, line := range []string{"produce orders value=a", "produce nosuch value=b", "advance 1s"} {
		h.typeLine(line)
		h.press(d, "Enter")
	}
	h.typeLine("poll")
	var seen []string
	for range 4 {
		h.press(d, "ArrowUp")
		seen = append(seen, h.line.text)
	}
	if want := []string{"advance 1s", "produce nosuch value=b", "produce orders value=a", "produce orders value=a"}; !slices.Equal(seen, want) {
		t.Errorf("↑ walks %q, want %q (a refused line is kept too)", seen, want)
	}
	for range 3 {
		h.press(d, "ArrowDown")
	}
	if h.line.text != "poll" {
		t.Errorf("↓ past the newest line gives %q, want the line being typed back", h.line.text)
	}
	// A command line drawn anew keeps the page's history.
	old := h.line
	h.shifted, h.line = true, nil
	h.Update()
	d.Consume()
	d.Consume()
	if h.line == nil || h.line == old {
		t.Fatal("the command line was not drawn anew")
	}
	h.press(d, "ArrowUp")
	if h.line.text != "advance 1s" {
		t.Errorf("↑ in a command line drawn anew gives %q, want the last line entered", h.line.text)
	}
}

func TestCommandLineOnThePageAndNotOnAReadOnlyOne(t *testing.T) {
	p, _ := mountAt(t, mustLink(t, "topic orders\n"))
	page := app.HTMLString(p)
	if len(tagsWith(page, "data-command-line", "true", "id", commandLineInput, "aria-autocomplete", "list")) != 1 ||
		len(tagsWith(page, "for", commandLineInput)) != 1 || !strings.Contains(page, "Tab completes · ↑ history") {
		t.Errorf("the page has no labelled command line with its hint:\n%s", page)
	}
	p, _ = mountAt(t, mustLink(t, "topic orders\n")+"&readonly=1")
	if page := app.HTMLString(p); len(tagsWith(page, "data-command-line", "true")) != 0 {
		t.Errorf("a read-only page shows a command line")
	}
}

func TestCaretOffsetsCountUTF16(t *testing.T) {
	s := "key=é😀x"
	for _, tc := range []struct{ units, bytes int }{{0, 0}, {4, 4}, {5, 6}, {7, 10}, {8, 11}, {20, 11}} {
		if got := byteOffset(s, tc.units); got != tc.bytes {
			t.Errorf("byteOffset(%d) = %d, want %d", tc.units, got, tc.bytes)
		}
		if tc.units <= 8 {
			if got := utf16Offset(s, tc.bytes); got != tc.units {
				t.Errorf("utf16Offset(%d) = %d, want %d", tc.bytes, got, tc.units)
			}
		}
	}
}
