package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// storedRecent is the recent list as storage holds it.
func storedRecent(t *testing.T, b *MemoryBrowser) []recentScenario {
	t.Helper()
	var recent []recentScenario
	if err := json.Unmarshal([]byte(b.Item(recentKey)), &recent); err != nil {
		t.Fatalf("the recent list stored is %q: %v", b.Item(recentKey), err)
	}
	return recent
}

// recentSteps lists a recent list as "id:steps".
func recentSteps(recent []recentScenario) string {
	var s []string
	for _, r := range recent {
		s = append(s, fmt.Sprintf("%s:%d", r.ID, r.Steps))
	}
	return strings.Join(s, " ")
}

// pageWithATopic is a page on a browser of its own, opened with no link,
// where the learner made a topic, saved.
func pageWithATopic(t *testing.T) (*MemoryBrowser, *Playground, app.ClientDispatcher) {
	t.Helper()
	b := useBrowser(t)
	p, d := mountAt(t, "")
	Apply(d.Context(), "topic mine")
	settle(t, p, d)
	return b, p, d
}

// A second tab opened on the bare site while the first has the workspace
// saved last open shows that scenario, but saves what it does under an id
// of its own, and says so; both tabs' steps stay in Recent, whichever
// saves last.
func TestSecondTabSavesUnderAnIdOfItsOwn(t *testing.T) {
	first := useBrowser(t)
	a, da := mountAt(t, mustLink(t, threeSteps))
	Apply(da.Context(), "produce orders key=c value=3")
	settle(t, a, da)
	mine := a.share.workspace
	if !first.Holds(mine) {
		t.Fatalf("the first tab does not hold its workspace %s", mine)
	}

	second := first.NewTab()
	second.HeldElsewhere = map[string]bool{mine: true}
	SetBrowser(second)
	b := newTestPlayground()
	db := app.NewClientTester(b)
	defer db.Close()
	if b.session.Len() != 4 || b.share.workspace == mine || b.share.notice != openElsewhere {
		t.Fatalf("the second tab opened %d steps as %s (the first's is %s), notice %q: want the saved 4 steps under an id of its own, and why",
			b.session.Len(), b.share.workspace, mine, b.share.notice)
	}
	Apply(db.Context(), "topic theirs")
	settle(t, b, db)
	theirs := b.share.workspace

	// The first tab saves last: the second's entry stays.
	SetBrowser(first)
	Apply(da.Context(), "produce orders key=d value=4")
	settle(t, a, da)
	if got, want := recentSteps(storedRecent(t, first)), mine+":5 "+theirs+":5"; got != want {
		t.Errorf("Recent holds %s, want %s", got, want)
	}
	if !strings.Contains(first.Item(workspaceKey), mine) || !strings.Contains(first.TabItem(tabWorkspaceKey), mine) {
		t.Errorf("the first tab's save is not its own: workspace %q, tab %q", first.Item(workspaceKey), first.TabItem(tabWorkspaceKey))
	}
	if !strings.Contains(second.TabItem(tabWorkspaceKey), theirs) {
		t.Errorf("the second tab keeps %q as its workspace, want %s", second.TabItem(tabWorkspaceKey), theirs)
	}
}

// A reloaded tab reopens its own workspace under its id, not the one
// another tab saved last; a tab's id, let go by the page that held it,
// is held by the reloaded page.
func TestReloadedTabKeepsItsWorkspace(t *testing.T) {
	b, p, _ := pageWithATopic(t)
	mine := p.share.workspace
	// Another tab saves last.
	if err := b.SaveItem(workspaceKey, `{"id":"other","fragment":"`+mustLink(t, threeSteps)+`"}`); err != nil {
		t.Fatal(err)
	}

	reloaded := b.NextTab()
	SetBrowser(reloaded)
	p = newTestPlayground()
	d := app.NewClientTester(p)
	defer d.Close()
	if p.share.workspace != mine || p.session.Len() != 1 || p.share.notice != welcomeBack || !reloaded.Holds(mine) {
		t.Errorf("the reloaded tab opened %d steps as %s (holds it: %v), notice %q; want its own, %s",
			p.session.Len(), p.share.workspace, reloaded.Holds(mine), p.share.notice, mine)
	}
}

// A scenario picked in Recent that another tab has open opens here as a
// copy, saved under an id of its own.
func TestRecentEntryOpenInAnotherTabOpensAsACopy(t *testing.T) {
	b := useBrowser(t)
	p, d := mountAt(t, "")
	b.HeldElsewhere = map[string]bool{"theirs": true}
	fragment := mustLink(t, threeSteps)
	d.Context().NewActionWithValue(openAction, openRequest{ID: "theirs", Fragment: fragment})
	settle(t, p, d)
	if p.share.workspace == "theirs" || p.session.Len() != 3 || p.share.notice != openElsewhere {
		t.Fatalf("opened %d steps as %s, notice %q", p.session.Len(), p.share.workspace, p.share.notice)
	}
	Apply(d.Context(), "advance 1s")
	settle(t, p, d)
	if got := recentSteps(storedRecent(t, b)); got != p.share.workspace+":4" {
		t.Errorf("Recent holds %s, want the copy's 4 steps under %s", got, p.share.workspace)
	}
	if b.Holds("theirs") {
		t.Error("the page holds the other tab's workspace")
	}
}

// The page lets go of a workspace it leaves, so another tab may take it.
func TestLeavingAWorkspaceLetsItGo(t *testing.T) {
	b, p, d := pageWithATopic(t)
	mine := p.share.workspace
	d.Context().NewActionWithValue(openAction, openRequest{})
	settle(t, p, d)
	if b.Holds(mine) || !b.Holds(p.share.workspace) {
		t.Errorf("after a new scenario the page holds %s: %v, and the new %s: %v", mine, b.Holds(mine), p.share.workspace, b.Holds(p.share.workspace))
	}
}

// storedForms are values a saved workspace or recent list may hold that
// the page cannot read.
func storedForms(t *testing.T) map[string]string {
	t.Helper()
	link := mustLink(t, threeSteps)
	whole := `{"id":"w1","fragment":"` + link + `"}`
	return map[string]string{
		"cut short":         whole[:len(whole)/2],
		"of other types":    `{"id":7,"fragment":["` + link + `"]}`,
		"a 2 MB array":      "[" + strings.Repeat("1,", 1<<20-2) + "1]",
		"a bare link":       link,
		"of another shape":  `{"version":0,"script":"topic orders"}`,
		"a fragment broken": `{"id":"w1","fragment":"v1.!!!"}`,
		"a string":          `"` + link + `"`,
	}
}

// A saved workspace the page cannot read: the page opens empty, says so
// beside a button to download it, and keeps the value as it was under a
// key of its own, so the next save writes over nothing the learner had.
func TestUnreadableWorkspaceIsSaidAndKept(t *testing.T) {
	for name, raw := range storedForms(t) {
		t.Run(name, func(t *testing.T) {
			b := useBrowser(t)
			if err := b.SaveItem(workspaceKey, raw); err != nil {
				t.Fatal(err)
			}
			p, d := mountAt(t, "")
			if len(p.share.stored.unreadable) != 1 || p.share.stored.unreadable[0].Aside != workspaceKey+asideSuffix {
				t.Fatalf("the page found %+v", p.share.stored.unreadable)
			}
			page := app.HTMLString(p)
			notice := tagsWith(page, "data-unreadable", workspaceKey, "data-kept-at", workspaceKey+asideSuffix)
			if len(notice) != 1 || !strings.Contains(page, "The scenario you were working on could not be opened") {
				t.Fatalf("no notice of the unreadable workspace in:\n%s", page)
			}
			Apply(d.Context(), "topic after")
			settle(t, p, d)
			if b.Item(workspaceKey+asideSuffix) != raw {
				t.Errorf("the value set aside is %d bytes, want the %d stored", len(b.Item(workspaceKey+asideSuffix)), len(raw))
			}
			if !strings.Contains(b.Item(workspaceKey), p.share.workspace) {
				t.Errorf("the page did not save its workspace: %q", b.Item(workspaceKey))
			}
			p.downloadUnreadable(workspaceKey)
			if got := b.Downloads(); len(got) != 1 || got[0].Text != raw || got[0].Name != "plog-workspace-unreadable.txt" {
				t.Errorf("downloaded %d files, want the value as it was", len(got))
			}
		})
	}
}

// A value too large to copy aside stays where it is, and the page saves
// no workspace over it until the learner has downloaded it.
func TestUnreadableValueTooLargeToCopyStays(t *testing.T) {
	b := useBrowser(t)
	huge := "[" + strings.Repeat("0,", maxAsideBytes/2) + "0]"
	if err := b.SaveItem(workspaceKey, huge); err != nil {
		t.Fatal(err)
	}
	p, d := mountAt(t, "")
	Apply(d.Context(), "topic after")
	settle(t, p, d)
	if b.Item(workspaceKey) != huge || b.Item(workspaceKey+asideSuffix) != "" {
		t.Fatalf("the huge value was moved or written over: %d bytes left, %d aside", len(b.Item(workspaceKey)), len(b.Item(workspaceKey+asideSuffix)))
	}
	page := app.HTMLString(p)
	if !strings.Contains(page, "too large to copy") || len(tagsWith(page, "data-download-unreadable", workspaceKey)) != 1 {
		t.Fatalf("the notice does not say it stays, or offers no download:\n%s", page)
	}
	if len(storedRecent(t, b)) != 1 {
		t.Error("the recent list was not saved")
	}
	p.downloadUnreadable(workspaceKey)
	Apply(d.Context(), "topic again")
	settle(t, p, d)
	if got := b.Downloads(); len(got) != 1 || got[0].Text != huge {
		t.Fatalf("downloaded %d files", len(got))
	}
	if !strings.Contains(b.Item(workspaceKey), p.share.workspace) {
		t.Errorf("once downloaded, the page still does not save its workspace: %.80q", b.Item(workspaceKey))
	}
}

// A key beside already holding another unreadable value is not written
// over either: the new one stays where it is.
func TestUnreadableValueNeverWritesOverAnother(t *testing.T) {
	b := useBrowser(t)
	b.SaveItem(workspaceKey+asideSuffix, "older")
	b.SaveItem(workspaceKey, "newer{")
	p, d := mountAt(t, "")
	Apply(d.Context(), "topic after")
	settle(t, p, d)
	if b.Item(workspaceKey+asideSuffix) != "older" || b.Item(workspaceKey) != "newer{" {
		t.Errorf("kept %q and %q, want both as they were", b.Item(workspaceKey+asideSuffix), b.Item(workspaceKey))
	}
}

// A recent list the page cannot read whole: the entries it can read stay
// in Recent, and the list as stored is kept aside.
func TestUnreadableRecentListIsSaidAndKept(t *testing.T) {
	link := mustLink(t, threeSteps)
	good := func(id string) string {
		return `{"id":"` + id + `","fragment":"` + link + `","title":"orders","steps":3,"saved":1}`
	}
	var thirteen []string
	for i := range maxRecent + 1 {
		thirteen = append(thirteen, good(fmt.Sprint("r", i)))
	}
	forms := storedForms(t)
	forms["one entry of other types"] = "[" + good("r0") + `,{"id":"r1","fragment":5},` + good("r2") + "]"
	forms["longer than the page keeps"] = "[" + strings.Join(thirteen, ",") + "]"
	readable := map[string]int{"one entry of other types": 2, "longer than the page keeps": maxRecent}
	for name, raw := range forms {
		t.Run(name, func(t *testing.T) {
			b := useBrowser(t)
			b.SaveItem(recentKey, raw)
			p, d := mountAt(t, "")
			if len(p.share.stored.unreadable) != 1 || p.share.stored.unreadable[0].Key != recentKey {
				t.Fatalf("the page found %+v", p.share.stored.unreadable)
			}
			if len(p.share.recent) != readable[name] {
				t.Errorf("Recent lists %d, want the %d readable", len(p.share.recent), readable[name])
			}
			if page := app.HTMLString(p); !strings.Contains(page, fmt.Sprintf("Scenarios → Recent shows the %s it could read", countOf(readable[name], "scenario"))) {
				t.Errorf("the notice does not say what Recent kept:\n%s", page)
			}
			Apply(d.Context(), "topic after")
			settle(t, p, d)
			if b.Item(recentKey+asideSuffix) != raw {
				t.Errorf("the list set aside is %d bytes, want the %d stored", len(b.Item(recentKey+asideSuffix)), len(raw))
			}
			if got := storedRecent(t, b); len(got) != min(readable[name]+1, maxRecent) || got[0].ID != p.share.workspace {
				t.Errorf("Recent saved as %s", recentSteps(got))
			}
		})
	}
}

// The lists the page writes read back whole.
func TestRecentListReadsBackWhole(t *testing.T) {
	var recent []recentScenario
	for i := range maxRecent {
		recent = append(recent, recentScenario{ID: fmt.Sprint(i), Fragment: "v1.x", Title: "t", Steps: i, Saved: 1})
	}
	raw, _ := json.Marshal(recent)
	got, whole := parseRecent(string(raw))
	if !whole || len(got) != maxRecent {
		t.Errorf("read %d entries, whole: %v", len(got), whole)
	}
	if _, whole := parseRecent("[]"); !whole {
		t.Error("an empty list is not whole")
	}
	if _, whole := parseRecent("[] []"); whole {
		t.Error("a list followed by another reads whole")
	}
}
