package app

import (
	"fmt"
	"strings"
	"time"

	"plog/core/lesson"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A hint that names a control points at it (core/lesson/controls.go): the
// control's label in the hint is a button, and pressing it, or revealing
// the hint, opens the tab or the inspector that holds the control,
// presses the toggle that shows its form, and highlights it; the button
// also scrolls it into view. A control the page does not show now (the
// member has not joined yet) is said beside the hints, never a silent
// nothing.

// controlPlace is where the page draws a control a hint points at.
type controlPlace struct {
	tab     string // the dock's tab that holds it; "" for none
	inspect string // the inspector that holds it (selectGroup, selectTopic); "" for none
	opener  string // the toggle that shows it, pressed when not expanded (CSS, %[1]s its thing as in css); "" for none
	css     string // the control (CSS), %[1]s its thing as a CSS string's text
	text    string // the button's text among those css finds, "" for the first
}

// controlPlaces says where each control of package lesson is drawn. A
// test checks that every control of the lesson package has a place.
var controlPlaces = map[string]controlPlace{
	"produce":           {tab: dockProduce, css: "#produce-send"},
	"produce-key":       {tab: dockProduce, css: "#produce-key"},
	"produce-value":     {tab: dockProduce, css: "#produce-value"},
	"produce-partition": {tab: dockProduce, css: "#produce-partition"},
	"produce-tombstone": {tab: dockProduce, css: "#produce-tombstone"},
	"produce-acks":      {tab: dockProduce, opener: "#produce-options:not([open]) > summary", css: "#produce-acks"},
	"produce-producer":  {tab: dockProduce, css: "#produce-producer"},
	"produce-count":     {tab: dockProduce, opener: "#produce-options:not([open]) > summary", css: "#produce-count"},
	"join":              {opener: `button[data-action="new-group"][aria-expanded="false"]`, css: `.group-new form[data-control="group-join"]`},
	"join-member":       {opener: `article[data-group="%[1]s"] button[data-action="join-member"][aria-expanded="false"]`, css: `article[data-group="%[1]s"] form.member-join`},
	"new-share-group":   {opener: `button[data-action="new-share-group"][aria-expanded="false"]`, css: `form[data-control="share-join"]`},
	"new-topic":         {tab: dockTopics, css: "#topic-name"},
	"topic-config":      {inspect: selectTopic, css: "#dock-inspector #config-name"},
	"start-producer":    {tab: dockTime, css: "#producer-name"},
	"advance-1s":        {tab: dockTime, css: "#advance-1s"},
	"advance-1m":        {tab: dockTime, css: "#advance-1m"},
	"advance":           {tab: dockTime, css: "form:has(#advance-go)"},
	"poll":              {css: `button[aria-label="Poll %[1]s"]`},
	"poll-max":          {css: `input[aria-label="Most records %[1]s polls at once"]`},
	"commit":            {css: `button[aria-label="Commit %[1]s"]`},
	"leave":             {css: `button[aria-label="Leave %[1]s"]`},
	"crash":             {css: `button[aria-label="Crash %[1]s"]`},
	"come-back":         {css: `li.member[data-member="%[1]s"] button`, text: "Come back as %[1]s"},
	"release":           {css: `button[aria-label="Release %[1]s's last poll"]`},
	"reject":            {css: `button[aria-label="Reject %[1]s's last poll"]`},
	"reset-offsets":     {inspect: selectGroup, css: `#dock-inspector form[data-control="%[1]s/reset"] :is(select, input)`},
	"lag-alert-time":    {inspect: selectGroup, css: `#dock-inspector input[name="lag.alert.ms"]`},
	"lag-alert-records": {inspect: selectGroup, css: `#dock-inspector input[name="lag.alert.records"]`},
	"session-timeout":   {inspect: selectGroup, css: `#dock-inspector input[name="session.timeout.ms"]`},
	"add-partitions":    {inspect: selectTopic, css: `#dock-inspector form:has(#partitions-go-%[1]s)`},
	"run-cleaner":       {inspect: selectTopic, css: "#dock-inspector #compact-go"},
	"stop":              {tab: dockTime, css: `[data-workload="%[1]s"] button[aria-label="Stop %[1]s"]`},
	"crash-broker":      {css: `li.broker[data-broker="%[1]s"] [data-broker-action="crash"]`},
	"restart-broker":    {css: `li.broker[data-broker="%[1]s"] [data-broker-action="restart"]`},
	"lose-answer":       {opener: `[data-producer-column] [data-producer="%[1]s"] details.producer-faults:not([open]) > summary`, css: `[data-producer-column] [data-producer="%[1]s"] button`, text: "Lose the next answer"},
	"lose-request":      {opener: `[data-producer-column] [data-producer="%[1]s"] details.producer-faults:not([open]) > summary`, css: `[data-producer-column] [data-producer="%[1]s"] button`, text: "Lose the next request"},
	"init":              {css: `[data-producer-column] [data-producer="%[1]s"] button`, text: "Init"},
	"begin":             {css: `[data-producer-column] [data-producer="%[1]s"] button`, text: "Begin"},
	"send-offsets":      {css: `[data-producer-column] [data-producer="%[1]s"] button`, text: "Send offsets"},
	"offsets-group":     {css: `[data-producer-column] [data-producer="%[1]s"] select[name="group"]`},
	"txn-commit":        {css: `[data-producer-column] [data-producer="%[1]s"] button`, text: "Commit"},
	"abort":             {css: `[data-producer-column] [data-producer="%[1]s"] button`, text: "Abort"},
}

// pointAction asks the page to point at a control (value: pointRequest).
const pointAction = "plog/point"

// pointRequest points at a control; Scroll brings it into view (a press
// of the hint's button), else it is highlighted where it is (a hint just
// revealed, which the learner is reading).
type pointRequest struct {
	Control lesson.ControlRef
	Label   string // the hint's words for it
	Scroll  bool
}

// pointTries bounds how many times the page looks for a control it has
// just asked to show (a tab drawn, a form opened), pointRetry apart.
const (
	pointTries = 10
	pointRetry = 50 * time.Millisecond
	// pointedFor is how long the highlight stays.
	pointedFor = 4 * time.Second
)

// cssText writes a thing's name for the inside of a CSS string.
func cssText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ").Replace(s)
}

// selector is the control's CSS selector for a thing.
func (c controlPlace) selector(thing string) string { return forThing(c.css, thing) }

// forThing fills a selector's %[1]s with a thing's name.
func forThing(css, thing string) string {
	if !strings.Contains(css, "%[1]s") {
		return css
	}
	return fmt.Sprintf(css, cssText(thing))
}

// find is the control on the page, shown (not inside a hidden panel);
// undefined when there is none.
func (c controlPlace) find(thing string) app.Value {
	list := app.Window().Get("document").Call("querySelectorAll", c.selector(thing))
	want := ""
	if c.text != "" {
		want = strings.ReplaceAll(c.text, "%[1]s", thing)
	}
	for i := range list.Length() {
		el := list.Index(i)
		if want != "" && strings.TrimSpace(el.Get("textContent").String()) != want {
			continue
		}
		if el.Call("getClientRects").Length() > 0 {
			return el
		}
	}
	return app.Undefined()
}

// thingBoxes are where a thing of each scope is drawn, for a control
// that shows on it only when it applies; %[1]s is the thing.
var thingBoxes = map[lesson.ControlScope]string{
	lesson.MemberScope:   `li.member[data-member="%[1]s"], li.share-member[data-share-member="%[1]s"]`,
	lesson.BrokerScope:   `li.broker[data-broker="%[1]s"]`,
	lesson.ProducerScope: `[data-producer-column] [data-producer="%[1]s"]`,
}

// thingBox is where the control's thing is drawn, shown; undefined when
// it is not, or the control belongs to none.
func thingBox(ref lesson.ControlRef) app.Value {
	thing := ref.Thing
	css, ok := thingBoxes[ref.Scope()]
	if !ok || thing == "" {
		return app.Undefined()
	}
	list := app.Window().Get("document").Call("querySelectorAll", fmt.Sprintf(css, cssText(thing)))
	for _, el := range jsList(list) {
		if el.Call("getClientRects").Length() > 0 {
			return el
		}
	}
	return app.Undefined()
}

// missing says why a control is not on the page now.
func missing(label string, ref lesson.ControlRef) string {
	if ref.Thing == "" {
		return label + " is not on the page now."
	}
	what := strings.ToLower(ref.Scope().String())
	if ref.Scope() == lesson.WorkloadScope {
		what = "running workload"
	}
	return fmt.Sprintf("%s is not on the page now: there is no %s %s at this step (not yet, or no longer).", label, what, ref.Thing)
}

// handlePoint shows what holds the control, then points at it once it is
// drawn.
func (p *Playground) handlePoint(ctx app.Context, a app.Action) {
	r, ok := a.Value.(pointRequest)
	if !ok {
		return
	}
	place, ok := controlPlaces[r.Control.Name]
	if !ok {
		return
	}
	switch {
	case place.tab != "":
		p.showTab(place.tab)
	case place.inspect == selectGroup:
		p.handleSelect(ctx, app.Action{Value: selection{Kind: selectGroup, Group: r.Control.Thing}})
	case place.inspect == selectTopic:
		p.handleSelect(ctx, app.Action{Value: selection{Kind: selectTopic, Topic: r.Control.Thing}})
	}
	p.lesson.pointMissing = ""
	p.pointSeq++
	seq := p.pointSeq
	ctx.Defer(func(ctx app.Context) { p.pointAt(ctx, place, r, seq, pointTries) })
}

// pointAt highlights the control, pressing its opener first; it looks
// again a moment later while the page draws what was asked, and says
// what is missing when it never comes.
func (p *Playground) pointAt(ctx app.Context, place controlPlace, r pointRequest, seq, tries int) {
	if seq != p.pointSeq {
		return // the learner pointed at another since
	}
	doc := app.Window().Get("document")
	if place.opener != "" {
		if op := doc.Call("querySelector", forThing(place.opener, r.Control.Thing)); op.Truthy() {
			op.Call("click")
		}
	}
	el := place.find(r.Control.Thing)
	if !el.Truthy() {
		if tries > 0 {
			ctx.After(pointRetry, func(ctx app.Context) { p.pointAt(ctx, place, r, seq, tries-1) })
			return
		}
		p.lesson.pointMissing, p.lesson.pointMissingRef = missing(r.Label, r.Control), r.Control.String()
		if box := thingBox(r.Control); box.Truthy() {
			// The control shows on its thing when it applies (restart on a
			// broker that is down): point at the thing.
			p.lesson.pointMissing = fmt.Sprintf("%s is not there now: it shows on %s %s when it applies.", r.Label, strings.ToLower(r.Control.Scope().String()), r.Control.Thing)
			highlight(ctx, box, r.Scroll, seq, p)
		}
		ctx.Defer(func(app.Context) {
			if el := doc.Call("querySelector", ".point-missing"); el.Truthy() {
				el.Call("scrollIntoView", map[string]any{"block": "nearest"})
			}
			pointDone(seq)
		})
		return
	}
	highlight(ctx, el, r.Scroll, seq, p)
	pointDone(seq)
}

// highlight marks an element pointed at for a moment, opening the folds
// around it, and scrolls it into view when asked.
func highlight(ctx app.Context, el app.Value, scroll bool, seq int, p *Playground) {
	for _, old := range jsList(app.Window().Get("document").Call("querySelectorAll", "[data-pointed]")) {
		old.Call("removeAttribute", "data-pointed")
	}
	for d := el.Call("closest", "details:not([open])"); d.Truthy(); d = d.Call("closest", "details:not([open])") {
		d.Set("open", true)
	}
	el.Call("setAttribute", "data-pointed", "")
	if scroll {
		el.Call("scrollIntoView", map[string]any{"block": "center", "inline": "nearest"})
	}
	// A box pointed at takes the focus, so that the learner types into
	// it at once: a walk pressed → Value and typed into nothing.
	switch el.Get("tagName").String() {
	case "INPUT", "SELECT", "TEXTAREA":
		el.Call("focus", map[string]any{"preventScroll": true})
	}
	ctx.After(pointedFor, func(app.Context) {
		if seq == p.pointSeq {
			el.Call("removeAttribute", "data-pointed")
		}
	})
}

// pointDone notes on the document that pointing seq has ended, found or
// said missing: the browser tests wait for it.
func pointDone(seq int) {
	app.Window().Get("document").Get("documentElement").Call("setAttribute", "data-point-done", seq)
}

// jsList is a NodeList's elements.
func jsList(list app.Value) []app.Value {
	out := make([]app.Value, list.Length())
	for i := range out {
		out[i] = list.Index(i)
	}
	return out
}

// controlButton draws a hint's control: its label, which points at it.
func controlButton(x lesson.Inline) app.UI {
	ref := x.Control
	where := x.Text
	if ref.Thing != "" {
		where += " of " + ref.Thing
	}
	return app.Button().Type("button").Class("control-ref").
		DataSet("control-ref", ref.String()).
		Title("Show me where: "+where).
		OnClick(func(ctx app.Context, e app.Event) {
			ctx.NewActionWithValue(pointAction, pointRequest{Control: ref, Label: x.Text, Scroll: true})
		}, ref.Name, ref.Thing, x.Text).
		Body(app.Span().Class("control-ref-mark").Aria("hidden", true).Text("➜"), app.Text(x.Text))
}
