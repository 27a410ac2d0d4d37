package app

import (
	"encoding/json"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Each tab works in a workspace of its own. Two tabs saving under one id
// would each write their scenario over the other's, and the steps of the
// tab that saved first would be in no storage at all once it closed. So
// the page saves only under an id it holds (Browser.HoldWorkspace: a lock
// the browser lets go when the tab closes, reloads or crashes, described
// in web/static/workspaces.js). An id the page makes is its own at once;
// an id it finds (its tab's before a reload, the workspace saved last, an
// entry of Recent) it holds once the browser says no other tab does, and
// if one does, the page keeps the scenario it opened as a copy under a new
// id, and says so. The tab remembers its id in the tab's own storage
// (sessionStorage), which a reload keeps and another tab does not see.

// tabWorkspaceKey is where a tab keeps its workspace (JSON
// savedWorkspace), in the tab's own storage.
const tabWorkspaceKey = "plog.tab"

// loadTabWorkspace reads the workspace this tab had before a reload; the
// zero value when it had none. The page itself writes it, in this tab
// only: one it cannot read is taken for none.
func loadTabWorkspace(b Browser) savedWorkspace {
	raw, err := b.LoadTabItem(tabWorkspaceKey)
	if err != nil || raw == "" {
		return savedWorkspace{}
	}
	var w savedWorkspace
	if json.Unmarshal([]byte(raw), &w) != nil {
		return savedWorkspace{}
	}
	return w
}

// newWorkspace makes the page's workspace a new one. Its id is new, held
// by no other tab, so the page saves under it at once; it holds it all the
// same, so that another tab that meets it in Recent knows it is open here.
func (p *Playground) newWorkspace(ctx app.Context) {
	p.takeWorkspace(ctx, newWorkspaceID(), true)
}

// reopenWorkspace makes an existing workspace the page's, to save under
// its id once the page holds it.
func (p *Playground) reopenWorkspace(ctx app.Context, id string) {
	p.takeWorkspace(ctx, id, false)
}

func (p *Playground) takeWorkspace(ctx app.Context, id string, fresh bool) {
	b := currentBrowser()
	if old := p.share.workspace; old != "" && old != id {
		b.LetGoWorkspace(old)
	}
	p.share.workspace, p.share.held = id, fresh
	ctx.Async(func() {
		held := b.HoldWorkspace(id)
		// The answer comes in a promise's callback, at the end of the task
		// that resolved it: a render there would lengthen that task.
		atATurn(ctx, func(ctx app.Context) { p.workspaceHeld(ctx, id, held) })
	})
}

// workspaceHeld hears whether the page holds a workspace it asked for.
// Held, the page saves under its id, first what waited. Held by another
// tab, the scenario opened here becomes a workspace of its own.
func (p *Playground) workspaceHeld(ctx app.Context, id string, held bool) {
	if id != p.share.workspace {
		if held {
			currentBrowser().LetGoWorkspace(id) // the page has moved on
		}
		return
	}
	if p.share.held {
		return // a new id: the page saves under it already
	}
	if !held {
		if p.share.notice == welcomeBack || p.share.notice == "" {
			p.share.notice = openElsewhere
		}
		p.newWorkspace(ctx)
	}
	p.share.held = true
	if p.share.saveWaits && p.session != nil {
		if fragment, err := p.currentFragment(); err == nil {
			p.autosave(fragment)
		}
	}
}

// openElsewhere is the notice of a page whose workspace another tab has
// open.
const openElsewhere = "This scenario is open in another tab too. So that neither tab saves over the other, what you do here is saved as a scenario of its own: Scenarios → Recent lists both."
