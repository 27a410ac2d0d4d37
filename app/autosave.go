package app

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"time"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Autosave: the page keeps the learner's workspace in the browser's local
// storage, so that a page opened with no link reopens where they were, and a
// list of recent scenarios to go back to. An embedded page (embed=1) neither
// saves nor restores: it belongs to its course page, not to the learner's
// workspace. Storage is a convenience: when it is unavailable or full the
// page says so once and goes on, the URL still holds the scenario.
const (
	workspaceKey = "plog.workspace" // JSON savedWorkspace
	recentKey    = "plog.recent"    // JSON []recentScenario, newest first
)

const (
	// maxRecent is how many scenarios the recent list keeps. Past it the
	// oldest goes, and the page says which.
	maxRecent = 12
	// maxRecentFragment is the largest fragment kept in the recent list:
	// a few huge scenarios would fill the browser's few megabytes.
	maxRecentFragment = 64 << 10
)

// savedWorkspace is the workspace the page reopens when opened with no link.
type savedWorkspace struct {
	ID       string `json:"id"`
	Fragment string `json:"fragment"`
}

// recentScenario is one entry of the recent list.
type recentScenario struct {
	ID       string `json:"id"`
	Fragment string `json:"fragment"`
	Title    string `json:"title"`
	Steps    int    `json:"steps"`
	Saved    int64  `json:"saved"` // Unix milliseconds
}

// The go-app actions of sharing and files.
const (
	openAction = "plog/open" // value: openRequest
	fileAction = "plog/file" // value: fileOpened
)

// openRequest asks the page to open a scenario from the recent list, or an
// empty one.
type openRequest struct {
	ID       string // the recent entry; "" for a new scenario
	Fragment string
}

// fileOpened is a file the learner picked or dropped, or why it could not
// be read.
type fileOpened struct {
	File OpenedFile
	Err  error
}

// startingFragment is the fragment the page opens with: the URL's (on a
// lesson's page with none, the lesson); when the URL has none, the
// workspace this tab had (a reload), or else the workspace saved last.
// Whether the page may save under that workspace's id is
// autosave_tab.go's matter.
func (p *Playground) startingFragment(ctx app.Context) string {
	u := currentURL(ctx)
	fragment := addressFragment(u) // lesson_page.go
	root := siteRoot(u)
	p.share.base = root.String()
	b := currentBrowser()
	p.share.recent = p.loadRecent(b)
	tab := loadTabWorkspace(b)
	var w savedWorkspace
	switch {
	case fragment != "":
		if tab.ID != "" && tab.Fragment == fragment {
			p.reopenWorkspace(ctx, tab.ID) // this tab's, reloaded
		} else {
			p.newWorkspace(ctx)
		}
		return fragment
	case tab.ID != "":
		w = tab
	default:
		w = p.loadSavedWorkspace(b)
	}
	if w.ID == "" {
		// A first visit: nothing to reopen, so the page shows a small
		// system at work (starter.go).
		p.newWorkspace(ctx)
		return starterFragment()
	}
	p.reopenWorkspace(ctx, w.ID)
	if w.Fragment == "" {
		return "" // an empty scenario the learner started
	}
	p.share.notice = welcomeBack
	u.Fragment = w.Fragment
	ctx.Page().ReplaceURL(&u)
	return w.Fragment
}

// welcomeBack is the notice of a page that reopens the saved workspace.
const welcomeBack = "Welcome back: this is the scenario you were working on. Scenarios lists the others, and starts a new one."

// currentURL is a copy of the page's URL. go-app has none when the
// browser's address does not parse; web/static/link-guard.js sees to it
// that it does, and this keeps the page alive if it ever does not.
func currentURL(ctx app.Context) url.URL {
	if u := ctx.Page().URL(); u != nil {
		return *u
	}
	return url.URL{}
}

// newWorkspaceID makes an id no other tab makes: the time, and random
// digits for two tabs that start in the same millisecond.
func newWorkspaceID() string {
	return strconv.FormatInt(time.Now().UnixNano(), 36) + "-" + strconv.FormatUint(rand.Uint64()>>16, 36)
}

// startSharing runs once the page is ready: it listens for the actions of
// the share menu and for files dropped on the page, says once when storage
// is unavailable, and tells the embedding page it is ready.
func (p *Playground) startSharing(ctx app.Context) {
	ctx.Handle(openAction, p.handleOpen)
	ctx.Handle(fileAction, p.handleFile)
	ctx.Handle(recentAction, p.handleRecent)
	b := currentBrowser()
	p.share.stopDrop = b.OnFileDrop(func(f OpenedFile, err error) {
		ctx.Dispatch(func(ctx app.Context) { p.openFile(ctx, f, err) })
	})
	if problem := b.StorageProblem(); problem != "" && !p.share.options.Embed {
		p.storageTrouble("Autosave is off: " + problem)
	}
	p.postToParent(messageReady)
}

// stopSharing stops listening for dropped files.
func (p *Playground) stopSharing() {
	if p.share.stopDrop != nil {
		p.share.stopDrop()
	}
}

// storageTrouble says, once per page, that the browser keeps nothing.
func (p *Playground) storageTrouble(why string) {
	if p.share.warned {
		return
	}
	p.share.warned = true
	p.share.notice = why + ". The page works on, and its link still holds your scenario."
}

// autosave keeps the workspace and the recent list in storage. It runs
// after the URL is written, so it saves what the URL says. It saves only
// under an id the page holds (autosave_tab.go): until the page knows that
// no other tab has its workspace open, the save waits. The recent list is
// read again first, for the entries other tabs saved since.
func (p *Playground) autosave(fragment string) {
	if p.share.options.Embed {
		return
	}
	b := currentBrowser()
	if b.StorageProblem() != "" {
		return
	}
	if !p.share.held {
		p.share.saveWaits = true
		return
	}
	p.share.saveWaits = false
	w, _ := json.Marshal(savedWorkspace{ID: p.share.workspace, Fragment: fragment})
	if err := b.SaveTabItem(tabWorkspaceKey, string(w)); err != nil {
		p.storageTrouble(fmt.Sprintf("Autosave stopped: %v", err))
		return
	}
	if !p.share.stored.keep[workspaceKey] {
		if err := b.SaveItem(workspaceKey, string(w)); err != nil {
			p.storageTrouble(fmt.Sprintf("Autosave stopped: %v", err))
			return
		}
	}
	p.share.unsaved = false
	recent := p.share.recent
	if !p.share.stored.keep[recentKey] {
		recent = p.storedRecent(b) // autosave_recent.go
	}
	var dropped []recentScenario
	p.share.recent, dropped = withRecent(recent, p.recentEntry(fragment))
	if len(dropped) > 0 {
		p.share.notice = droppedNotice(dropped)
	}
	if p.share.stored.keep[recentKey] {
		return // the list stored is one the page cannot read, left where it is (autosave_unreadable.go)
	}
	r, _ := json.Marshal(p.share.recent)
	if err := b.SaveItem(recentKey, string(r)); err != nil {
		p.storageTrouble(fmt.Sprintf("Autosave stopped: %v", err))
		return
	}
	p.share.asides = nil
}

// recentEntry describes the current workspace for the recent list.
func (p *Playground) recentEntry(fragment string) recentScenario {
	lines := p.session.Lines()
	title := scenarioTitle(lines)
	if name := p.lesson.name(); name != "" {
		title = "lesson " + name + ": " + title
	}
	return recentScenario{
		ID:       p.share.workspace,
		Fragment: fragment,
		Title:    title,
		Steps:    len(lines),
		Saved:    time.Now().UnixMilli(),
	}
}

// withRecent puts an entry at the head of the recent list, in place of the
// entry of the same workspace, and returns the entries it dropped to keep
// the list to maxRecent, the oldest. Empty scenarios and huge ones stay out.
func withRecent(recent []recentScenario, e recentScenario) (kept, dropped []recentScenario) {
	kept = make([]recentScenario, 0, maxRecent)
	if e.Steps > 0 && len(e.Fragment) <= maxRecentFragment {
		kept = append(kept, e)
	}
	for _, r := range recent {
		switch {
		case r.ID == e.ID:
		case len(kept) < maxRecent:
			kept = append(kept, r)
		default:
			dropped = append(dropped, r)
		}
	}
	return kept, dropped
}

// droppedNotice says which scenarios the recent list let go.
func droppedNotice(dropped []recentScenario) string {
	names := make([]string, len(dropped))
	for i, d := range dropped {
		names[i] = fmt.Sprintf("“%s” (%s, saved %s)", d.Title, countOf(d.Steps, "step"), time.UnixMilli(d.Saved).Format("2 Jan 15:04"))
	}
	return fmt.Sprintf("Scenarios → Recent keeps the %d latest scenarios: the oldest, %s, is no longer listed.", maxRecent, strings.Join(names, ", "))
}

// keepSuperseded keeps in the recent list, as a workspace of its own, the
// scenario a command let go when it put other steps aside in place of
// those kept aside before (scenario.Session.Superseded): no step a learner
// made is lost. The next autosave writes it to storage.
func (p *Playground) keepSuperseded(lines []string) {
	if lines == nil || p.share.options.Embed {
		return
	}
	fragment, err := fragmentOf(lines, len(lines), p.rules(), linkOptions{Lesson: p.lesson.name()})
	if err != nil {
		return
	}
	e := recentScenario{
		ID:       newWorkspaceID() + "-aside",
		Fragment: fragment,
		Title:    scenarioTitle(lines) + " (steps put aside)",
		Steps:    len(lines),
		Saved:    time.Now().UnixMilli(),
	}
	var dropped []recentScenario
	p.share.asides = append(p.share.asides, e)
	p.share.recent, dropped = withRecent(p.share.recent, e)
	p.share.notice = fmt.Sprintf("The steps kept aside before are not lost: the scenario they made (%s) is in Scenarios → Recent as “%s”.",
		countOf(len(lines), "step"), e.Title)
	if len(dropped) > 0 {
		p.share.notice += " " + droppedNotice(dropped)
	}
}

// leaveWorkspace saves the workspace the page is about to leave, if its
// last change is not saved yet (the save waits for the URL, a moment after
// a change), and cancels that pending save: it would write the next
// scenario under this workspace's id. A workspace the page does not hold
// yet (the browser has not said whether another tab has it open) is saved
// as a workspace of its own, rather than not at all.
func (p *Playground) leaveWorkspace() {
	p.urlUpdates++
	if p.share.unsaved && p.session != nil {
		if old, err := p.currentFragment(); err == nil {
			if !p.share.held {
				currentBrowser().LetGoWorkspace(p.share.workspace)
				p.share.workspace, p.share.held = newWorkspaceID(), true
			}
			p.autosave(old)
		}
	}
	p.share.saveWaits = false
}

// enterWorkspace makes a scenario the page opens by navigation (a link
// pasted into the address bar, a lesson picked from the list, back and
// forward) a workspace of its own, so that what the learner does there is
// never saved over the workspace left behind. That one is saved first if
// its last change is not yet: the URL, written a moment after a change,
// already says the new scenario. A fragment that is a recent workspace's
// reopens that workspace.
func (p *Playground) enterWorkspace(ctx app.Context, fragment string) {
	if p.share.notice == welcomeBack {
		p.share.notice = "" // it speaks of the workspace left behind
	}
	p.leaveWorkspace()
	for _, r := range p.share.recent {
		if r.Fragment == fragment {
			p.reopenWorkspace(ctx, r.ID)
			return
		}
	}
	p.newWorkspace(ctx)
}

// scenarioTitle names a scenario by its topics, or its first line.
func scenarioTitle(lines []string) string {
	var topics []string
	for _, l := range lines {
		if name, ok := strings.CutPrefix(l, scenario.CmdTopic+" "); ok {
			name, _, _ = strings.Cut(name, " ")
			topics = append(topics, name)
		}
	}
	switch {
	case len(topics) > 3:
		return strings.Join(topics[:3], ", ") + fmt.Sprintf(" and %d more", len(topics)-3)
	case len(topics) > 0:
		return strings.Join(topics, ", ")
	case len(lines) > 0:
		return lines[0]
	}
	return "empty"
}

// handleOpen opens a scenario of the recent list, or a new empty one. The
// workspace left behind stays in the list.
func (p *Playground) handleOpen(ctx app.Context, a app.Action) {
	req, ok := a.Value.(openRequest)
	if !ok || req.ID != "" && req.ID == p.share.workspace {
		return // it is open, and newer than its entry may be
	}
	p.share.notice = ""
	p.leaveWorkspace()
	if req.ID == "" {
		p.newWorkspace(ctx)
	} else {
		p.reopenWorkspace(ctx, req.ID)
	}
	p.applyLink(req.Fragment)
	p.writeURL(ctx)
	showFromTheTop(ctx)
}

// writeURL writes the state into the URL now, without waiting for the
// debounce: after opening a scenario, the address bar says so at once.
func (p *Playground) writeURL(ctx app.Context) {
	p.urlUpdates++
	p.postStep()
	p.updateURL(ctx)
}

// updateURL writes the state into the URL fragment, replacing the history
// entry, and saves it.
func (p *Playground) updateURL(ctx app.Context) {
	if p.session == nil {
		return
	}
	link, err := p.currentFragment()
	if err != nil {
		p.err = "This scenario no longer fits in a link: " + err.Error()
		return
	}
	p.link = link // the fragment now says what the page shows: no reload on OnNav
	u := currentURL(ctx)
	u.Fragment = link
	ctx.Page().ReplaceURL(&u)
	p.autosave(link)
}
