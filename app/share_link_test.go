package app

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// useBrowser gives a test a fresh in-memory browser, and puts the old one
// back after it.
func useBrowser(t *testing.T) *MemoryBrowser {
	t.Helper()
	old := currentBrowser()
	b := NewMemoryBrowser()
	SetBrowser(b)
	t.Cleanup(func() { SetBrowser(old) })
	return b
}

// settle renders, then steps the page's clock past every delay it set (the
// debounced URL update, the removal animation) and renders again.
func settle(t *testing.T, p *Playground, d app.ClientDispatcher) {
	t.Helper()
	d.Consume()
	clockOf(t, p).Step(d, max(urlDebounce, removalAnimation))
}

const threeSteps = "topic orders partitions=2\nproduce orders key=a value=1\nproduce orders key=b value=2\n"

func TestURLKeepsHistoryPositionAndOptions(t *testing.T) {
	useBrowser(t)
	p, d := mountAt(t, mustLink(t, threeSteps)+"&embed=1")
	d.Context().NewActionWithValue(historyAction, historyMove{Kind: "seek", Step: 1})
	settle(t, p, d)

	fragment := d.Context().Page().URL().Fragment
	f, err := scenario.ParseFragment(fragment)
	if err != nil {
		t.Fatalf("the URL's fragment %q does not parse: %v", fragment, err)
	}
	if f.At != 1 || !f.Embed || f.ReadOnly {
		t.Errorf("fragment %q: at=%d embed=%v readonly=%v, want at=1 embed, not read-only", fragment, f.At, f.Embed, f.ReadOnly)
	}
	script, err := scenario.DecodeLink(f.Link)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Join(p.session.ScriptLines(p.session.Len()), "\n") + "\n"; script != want {
		t.Errorf("the link holds:\n%s\nwant the whole history, steps ahead included:\n%s", script, want)
	}

	// Opening that URL gives the same state and the same history.
	q, _ := mountAt(t, fragment)
	if q.session.Position() != 1 || q.session.Len() != 3 || q.err != "" {
		t.Fatalf("reopened at step %d of %d (alert %q), want 1 of 3", q.session.Position(), q.session.Len(), q.err)
	}
	if q.session.Script() != p.session.Script() {
		t.Errorf("reopened state from\n%s\nwant\n%s", q.session.Script(), p.session.Script())
	}
	if err := q.session.Redo(); err != nil {
		t.Errorf("the later steps are not there to redo: %v", err)
	}
	if !q.share.options.Embed {
		t.Error("embed=1 was lost on the way")
	}
}

func TestURLAtTheEndHasNoPosition(t *testing.T) {
	useBrowser(t)
	p, d := mountAt(t, mustLink(t, threeSteps))
	Apply(d.Context(), "produce orders key=c value=3")
	settle(t, p, d)
	fragment := d.Context().Page().URL().Fragment
	if strings.Contains(fragment, "&") {
		t.Errorf("fragment %q: at the end of the history the link needs no parameter", fragment)
	}
}

func TestLinkPastTheEndOpensAtTheLastStep(t *testing.T) {
	useBrowser(t)
	p, _ := mountAt(t, mustLink(t, threeSteps)+"&at=9")
	if p.session.Position() != 3 || !strings.Contains(p.err, "step 9") {
		t.Errorf("position %d, alert %q: want the last step and an alert naming step 9", p.session.Position(), p.err)
	}
}

func TestBadParametersStillOpenTheScenario(t *testing.T) {
	useBrowser(t)
	p, _ := mountAt(t, mustLink(t, threeSteps)+"&at=<b>x</b>")
	if p.session.Len() != 3 || !strings.Contains(p.err, "parameters were ignored") {
		t.Errorf("%d steps, alert %q: want the scenario and an alert about the parameters", p.session.Len(), p.err)
	}
}

func TestHostileFragmentsLeaveAWorkingPage(t *testing.T) {
	useBrowser(t)
	for _, fragment := range []string{
		"v1.",
		"v1.***",
		"v1." + strings.Repeat("A", 1000),
		mustLink(t, threeSteps)[:20],
		"v2.abc",
		"&&&",
		"at=",
		"embed=yes",
		strings.Repeat("x=1&", 100),
		"<script>alert(1)</script>",
	} {
		p, d := mountAt(t, fragment)
		if p.err == "" || !p.ready || p.session == nil {
			t.Errorf("fragment %q: alert %q, ready %v: want an alert and a ready page", fragment, p.err, p.ready)
			continue
		}
		Apply(d.Context(), "topic after partitions=1")
		d.Consume()
		if p.session.Len() == 0 {
			t.Errorf("fragment %q: a command after it did not apply (alert %q)", fragment, p.err)
		}
	}
}

func TestReadOnlyStepsButDoesNotEdit(t *testing.T) {
	useBrowser(t)
	p, d := mountAt(t, mustLink(t, threeSteps)+"&at=1&readonly=1&embed=1")
	ApplyFrom(d.Context(), "produce", "produce orders key=z value=9")
	d.Consume()
	if p.session.Len() != 3 {
		t.Errorf("a read-only page applied an edit: %d steps", p.session.Len())
	}
	d.Context().NewActionWithValue(historyAction, historyMove{Control: embedControl, Kind: "redo"})
	d.Consume()
	if p.session.Position() != 2 {
		t.Errorf("stepping a read-only page: at %d, want 2", p.session.Position())
	}
	page := app.HTMLString(p)
	if len(tagsWith(page, "data-readonly", "true")) != 1 || len(tagsWith(page, "id", "open-full")) != 1 {
		t.Errorf("want main[data-readonly=true] and the button to the full playground in:\n%s", page)
	}
	full := tagsWith(page, "id", "open-full")[0]
	if strings.Contains(full, "embed=1") || strings.Contains(full, "readonly=1") {
		t.Errorf("the full playground link keeps the embed options: %s", full)
	}
}

func TestAutosaveReopensTheLastWorkspace(t *testing.T) {
	b := useBrowser(t)
	p, d := mountAt(t, mustLink(t, threeSteps))
	Apply(d.Context(), "produce orders key=c value=3")
	settle(t, p, d)
	fragment := d.Context().Page().URL().Fragment
	if !strings.Contains(b.Item(workspaceKey), fragment) {
		t.Fatalf("storage holds %q, want the workspace %q", b.Item(workspaceKey), fragment)
	}

	// A page opened with no link reopens it.
	p = newTestPlayground()
	d2 := app.NewClientTester(p)
	defer d2.Close()
	if p.session.Len() != 4 || !strings.Contains(p.share.notice, "Welcome back") {
		t.Fatalf("reopened %d steps with notice %q, want the 4 saved", p.session.Len(), p.share.notice)
	}
	if len(p.share.recent) != 1 || p.share.recent[0].Title != "orders" || p.share.recent[0].Steps != 4 {
		t.Errorf("recent list %+v, want one entry for orders with 4 steps", p.share.recent)
	}

	// A new scenario leaves the old one in the list.
	d2.Context().NewActionWithValue(openAction, openRequest{})
	d2.Consume()
	Apply(d2.Context(), "topic payments")
	settle(t, p, d2)
	if len(p.share.recent) != 2 || p.share.recent[0].Title != "payments" {
		t.Errorf("recent list %+v, want payments then orders", p.share.recent)
	}
	d2.Context().NewActionWithValue(openAction, openRequest{ID: p.share.recent[1].ID, Fragment: p.share.recent[1].Fragment})
	settle(t, p, d2)
	if p.session.Len() != 4 || len(p.share.recent) != 2 {
		t.Errorf("opening the recent orders gives %d steps and %d entries", p.session.Len(), len(p.share.recent))
	}
}

// A link or a lesson opened in the same tab is a workspace of its own: what
// the learner does there is never saved over the workspace left behind,
// not even a change made a moment before, not yet saved.
func TestNavigationOpensAWorkspaceOfItsOwn(t *testing.T) {
	useBrowser(t)
	p, d := mountAt(t, "")
	Apply(d.Context(), "topic mine")
	d.Consume()
	Apply(d.Context(), "produce mine key=k")
	d.Consume() // the URL update is still waiting
	if p.session.Len() != 2 {
		t.Fatalf("the learner built %q (%s)", p.session.Lines(), p.err)
	}
	mine := p.share.workspace
	for _, fragment := range []string{mustLink(t, threeSteps), "lesson=key-order"} {
		u, _ := url.Parse("https://plog.test/#" + fragment)
		d.Nav(u)
		d.Consume()
		Apply(d.Context(), "advance 1s")
		settle(t, p, d)
		if p.share.workspace == mine {
			t.Fatalf("%s opened in the workspace left behind", fragment)
		}
	}
	if len(p.share.recent) != 3 {
		t.Fatalf("recent list %+v, want the lesson, the link and the learner's own", p.share.recent)
	}
	own := p.share.recent[2]
	if own.ID != mine || own.Steps != 2 || own.Title != "mine" {
		t.Errorf("the learner's workspace is now %+v", own)
	}
	if !strings.HasPrefix(p.share.recent[0].Title, "lesson key-order: ") {
		t.Errorf("the lesson's workspace is called %q", p.share.recent[0].Title)
	}

	// A new scenario from the Scenarios panel, right after a change: the
	// change is saved in the workspace it was made in.
	Apply(d.Context(), "advance 2s")
	d.Consume()
	lessonSteps := p.session.Len()
	d.Context().NewActionWithValue(openAction, openRequest{})
	settle(t, p, d)
	if got := p.share.recent[0]; got.Steps != lessonSteps || !strings.HasPrefix(got.Title, "lesson key-order: ") {
		t.Errorf("the lesson's workspace was saved as %+v, want its %d steps", got, lessonSteps)
	}
}

// Steps kept aside that a later command at an earlier step puts aside in
// turn go to the recent list, whole, as a scenario of their own.
func TestStepsPutAsideTwiceAreKeptInRecent(t *testing.T) {
	useBrowser(t)
	p, d := mountAt(t, mustLink(t, threeSteps))
	for _, step := range []int{2, 1} {
		d.Context().NewActionWithValue(historyAction, historyMove{Kind: "seek", Step: step})
		d.Consume()
		Apply(d.Context(), "advance 1s")
		d.Consume()
	}
	settle(t, p, d)
	var aside *recentScenario
	for i, r := range p.share.recent {
		if strings.HasSuffix(r.Title, "(steps put aside)") {
			aside = &p.share.recent[i]
		}
	}
	if aside == nil || aside.Steps != 3 || !strings.Contains(p.share.notice, "not lost") {
		t.Fatalf("recent %+v, notice %q: want the three steps first made, kept", p.share.recent, p.share.notice)
	}
	s, _, problem := loadFragment(aside.Fragment)
	if problem != "" || strings.Join(s.Lines(), "\n")+"\n" != threeSteps {
		t.Errorf("the kept scenario opens as %q (%s)", s.Lines(), problem)
	}
}

// The recent list is bounded; the page says which scenario it lets go.
func TestRecentSaysWhenItDropsTheOldest(t *testing.T) {
	var recent []recentScenario
	for i := range maxRecent {
		recent = append(recent, recentScenario{ID: fmt.Sprint(i), Title: fmt.Sprintf("t%d", i), Steps: 61, Saved: 1})
	}
	kept, dropped := withRecent(recent, recentScenario{ID: "new", Title: "new", Steps: 1})
	if len(kept) != maxRecent || kept[0].ID != "new" || len(dropped) != 1 || dropped[0].Title != fmt.Sprintf("t%d", maxRecent-1) {
		t.Fatalf("kept %d (first %s), dropped %+v", len(kept), kept[0].ID, dropped)
	}
	if note := droppedNotice(dropped); !strings.Contains(note, fmt.Sprintf("“t%d” (61 steps", maxRecent-1)) || !strings.Contains(note, "no longer listed") {
		t.Errorf("notice %q", note)
	}
	if _, dropped := withRecent(recent, recentScenario{ID: "3", Title: "again", Steps: 2}); len(dropped) != 0 {
		t.Errorf("saving a listed workspace again dropped %+v", dropped)
	}
}

func TestEmbeddedPagesDoNotAutosave(t *testing.T) {
	b := useBrowser(t)
	p, d := mountAt(t, mustLink(t, threeSteps)+"&embed=1")
	Apply(d.Context(), "produce orders key=c value=3")
	settle(t, p, d)
	if got := b.Item(workspaceKey); got != "" {
		t.Errorf("an embedded page saved %q", got)
	}
}

func TestFullStorageIsToldOnce(t *testing.T) {
	b := useBrowser(t)
	b.SaveError = errors.New("the browser's storage for this site is full")
	p, d := mountAt(t, mustLink(t, threeSteps))
	Apply(d.Context(), "produce orders key=c value=3")
	settle(t, p, d)
	if !strings.Contains(p.share.notice, "full") {
		t.Fatalf("notice %q, want it to say storage is full", p.share.notice)
	}
	p.share.notice = "" // the learner read it
	Apply(d.Context(), "produce orders key=d value=4")
	settle(t, p, d)
	if p.share.notice != "" || p.err != "" {
		t.Errorf("told again: notice %q, alert %q", p.share.notice, p.err)
	}
	if p.session.Len() != 5 {
		t.Errorf("the page stopped working: %d steps", p.session.Len())
	}
}

func TestNoStorageIsToldAtStart(t *testing.T) {
	b := useBrowser(t)
	b.Problem = "the browser gives this page no storage here"
	p, _ := mountAt(t, mustLink(t, threeSteps))
	if !strings.Contains(p.share.notice, "Autosave is off") {
		t.Errorf("notice %q, want it to say autosave is off", p.share.notice)
	}
	page := app.HTMLString(p)
	if len(tagsWith(page, "role", "status", "class", "notice")) != 1 {
		t.Errorf("want the notice as role=status in:\n%s", page)
	}
}

func TestParentHearsReadyAndSteps(t *testing.T) {
	b := useBrowser(t)
	_, d := mountAt(t, mustLink(t, threeSteps))
	Apply(d.Context(), "produce orders key=c value=3")
	d.Consume()
	d.Context().NewActionWithValue(historyAction, historyMove{Kind: "undo"})
	d.Consume()
	var got []string
	for _, m := range b.Posted() {
		if m["source"] != "plog" {
			t.Errorf("message without source plog: %v", m)
		}
		got = append(got, m["type"].(string)+":"+itoa(m["step"])+"/"+itoa(m["steps"]))
	}
	// Mounted on the bare address, which shows the starter on a first
	// visit (starter.go), then navigated to a link, as a pasted link is.
	starter, _, msg := loadFragment(starterFragment())
	if msg != "" {
		t.Fatal(msg)
	}
	n := starter.Len()
	want := fmt.Sprintf("ready:%d/%d step:3/3 step:4/4 step:3/4", n, n)
	if strings.Join(got, " ") != want {
		t.Errorf("messages %v, want %s", got, want)
	}
}

func itoa(v any) string {
	n, _ := v.(int)
	return strconv.Itoa(n)
}

func TestShareDialogOffersAFileForALongLink(t *testing.T) {
	b := useBrowser(t)
	// Keys that do not compress: hex digests.
	lines := []string{"topic t partitions=1"}
	for i := range 400 {
		sum := sha256.Sum256([]byte(strconv.Itoa(i)))
		lines = append(lines, "produce t key="+hex.EncodeToString(sum[:]))
	}
	d := &ShareDialog{Lines: lines, Position: len(lines), Base: "https://plog.test/"}
	tester := app.NewClientTester(d)
	defer tester.Close()
	page := app.HTMLString(d)
	if len(tagsWith(page, "data-too-long", "true")) != 1 || !strings.Contains(page, "above 8 KB") {
		t.Fatalf("want the dialog to say the link is too long:\n%s", page)
	}

	tester.Context().Dispatch(func(ctx app.Context) { d.download(ctx, app.Event{}) })
	tester.Consume()
	files := b.Downloads()
	if len(files) != 1 || files[0].Name != "scenario.plog" || !strings.Contains(files[0].Text, lines[400]) {
		t.Fatalf("downloads %v, want scenario.plog with the script", files)
	}
	// The browser cannot tell the page that the file arrived: the dialog
	// says it started, and what may block it.
	if d.statusFor != downloadButton || !strings.Contains(d.status, "has started") || !strings.Contains(d.status, "may block downloads") {
		t.Errorf("download status %q", d.status)
	}

	// No clipboard: the link is selected for copying by hand.
	tester.Context().Dispatch(func(ctx app.Context) { d.copy(shareLinkField, "x")(ctx, app.Event{}) })
	tester.Consume()
	if sel := b.Selected(); len(sel) != 1 || sel[0] != shareLinkField {
		t.Errorf("selected %v, want the link field", sel)
	}
	if d.statusFor != shareLinkField || !strings.Contains(d.status, "the text is selected") {
		t.Errorf("the dialog does not say how to copy by hand: status %q", d.status)
	}
}

func TestShareDialogCopiesAShortLinkAndAnEmbedSnippet(t *testing.T) {
	b := useBrowser(t)
	b.Clipboard = true
	lines := strings.Split(strings.TrimSpace(threeSteps), "\n")
	d := &ShareDialog{Lines: lines, Position: 1, Base: "https://plog.test/"}
	tester := app.NewClientTester(d)
	defer tester.Close()
	page := app.HTMLString(d)
	if len(tagsWith(page, "data-too-long", "false")) != 1 {
		t.Errorf("a short link is called too long:\n%s", page)
	}
	link := "https://plog.test/#" + mustLink(t, threeSteps) + "&at=1"
	tester.Context().Dispatch(func(ctx app.Context) { d.copy(shareLinkField, link)(ctx, app.Event{}) })
	tester.Consume()
	if c := b.Copied(); len(c) != 1 || c[0] != link {
		t.Errorf("copied %v, want %s", c, link)
	}
	if !strings.Contains(page, "&amp;at=1&amp;embed=1") {
		t.Errorf("want an iframe snippet with at=1&embed=1 in:\n%s", page)
	}
}

func TestFilesOpenPickedOrDropped(t *testing.T) {
	b := useBrowser(t)
	p, d := mountAt(t, mustLink(t, threeSteps))
	b.Drop(OpenedFile{Name: "course.plog", Text: plogFile([]string{"topic audit partitions=3", "produce audit key=k value=v"}, 1, 0)}, nil)
	settle(t, p, d)
	if p.session.Len() != 2 || p.err != "" || p.view.Topics[0].Name != "audit" {
		t.Fatalf("after the drop: %d steps, alert %q", p.session.Len(), p.err)
	}
	if !strings.Contains(d.Context().Page().URL().Fragment, mustLink(t, "topic audit partitions=3\nproduce audit key=k value=v\n")) {
		t.Error("the URL does not hold the opened file's scenario")
	}

	d.Context().NewActionWithValue(fileAction, fileOpened{File: OpenedFile{Name: "bad.plog", Text: "topic x\nfrobnicate\n"}})
	d.Consume()
	if p.session.Len() != 1 || !strings.Contains(p.err, "bad.plog stopped early") {
		t.Errorf("a file failing at line 2: %d steps, alert %q; want the first line and an alert", p.session.Len(), p.err)
	}

	d.Context().NewActionWithValue(fileAction, fileOpened{Err: errors.New("too big")})
	d.Consume()
	if p.session.Len() != 1 || !strings.Contains(p.err, "too big") {
		t.Errorf("an unreadable file: %d steps, alert %q", p.session.Len(), p.err)
	}
}

// TestPlogFileRunsWithPlogsim pins the file the page downloads to the one
// cmd/plogsim's tests run: the page writes exactly what plogsim reads.
func TestPlogFileRunsWithPlogsim(t *testing.T) {
	lines := []string{"seed 42", "topic orders partitions=3", "produce orders key=acct-1 value=created count=3", "produce orders value=\"no key\" count=2"}
	got := plogFile(lines, 3, 0)
	const goldenFile = "../cmd/plogsim/testdata/downloaded.plog"
	if want := golden(t, goldenFile, []byte(got)); got != string(want) {
		t.Errorf("the page writes:\n%s\n%s holds (go test ./app/ -rewrite rewrites it):\n%s", got, goldenFile, want)
	}
}

// Play on a read-only page redoes the steps ahead, a tick each, and stops
// at the end of the script, adding none.
func TestReadOnlyPlayWalksTheSteps(t *testing.T) {
	useBrowser(t)
	p, d := mountAt(t, mustLink(t, threeSteps)+"&at=1&readonly=1&embed=1")
	clock := clockOf(t, p)
	d.Context().NewActionWithValue(playAction, playRequest{Start: true})
	d.Consume()
	clock.Step(d, playTick-time.Millisecond)
	if p.session.Position() != 1 {
		t.Fatalf("at step %d before the first tick, want 1", p.session.Position())
	}
	clock.Step(d, time.Millisecond)
	if p.session.Position() != 2 || !p.playing {
		t.Fatalf("after one tick: at step %d, playing %v; want step 2, still playing", p.session.Position(), p.playing)
	}
	clock.Step(d, 2*playTick)
	if p.session.Position() != 3 || p.session.Len() != 3 || p.playing || clock.Pending() != 0 {
		t.Errorf("after three ticks: at step %d of %d, playing %v, %d ticks pending; want 3 of 3, stopped",
			p.session.Position(), p.session.Len(), p.playing, clock.Pending())
	}
}

// Play on an editable page advances the virtual clock a tick at a time, by
// the speed, once no step is ahead; stopping it schedules no more.
func TestPlayAdvancesEveryTickUntilStopped(t *testing.T) {
	useBrowser(t)
	p, d := mountAt(t, mustLink(t, threeSteps))
	clock := clockOf(t, p)
	d.Context().NewActionWithValue(playAction, playRequest{Start: true, Speed: 5})
	d.Consume()
	clock.Step(d, 3*playTick)
	lines := p.session.Lines()
	if got := strings.Join(lines[3:], "; "); got != "advance 5s; advance 5s; advance 5s" {
		t.Errorf("three ticks at speed 5 added %q", got)
	}
	d.Context().NewActionWithValue(playAction, playRequest{Stop: true})
	d.Consume()
	clock.Step(d, 3*playTick)
	if p.session.Len() != 6 || p.playing {
		t.Errorf("after stop: %d steps, playing %v; want the 6 steps, stopped", p.session.Len(), p.playing)
	}
}
