package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// inTurns draws a long list a part at a time in the browser: a render
// draws at most a number of items more than the last render did, and
// while some wait, the next part is drawn at the browser's next turn, so
// that it paints and answers in between. go-app mounts an element in a
// tenth of a millisecond or more on a 2-core machine, and a scenario of
// 10,000 partitions and 200 members drew 2,500 of them in one task of
// most of a second. Natively (the site generator, the tests) there is no
// browser to wait for, and every item is drawn at once.
//
// A list's component calls start at each render, mount from OnMount,
// keepDrawing from OnUpdate, and again after its own controls change what
// it draws.
type inTurns struct {
	// drawn is how many items the last render drew, and wanted how many
	// it would have drawn but for the turns; drawing says that a later
	// turn of the browser draws more.
	drawn, wanted int
	drawing       bool
	// own is the list's context, whose source is the list itself: a
	// control's is the control's, which a render that draws more may
	// replace, and go-app drops what is dispatched for a source gone.
	own app.Context
}

// start begins a render that may draw per items more than the last: the
// function it returns says, of want more items the render would draw,
// how many it draws.
func (d *inTurns) start(per int) func(want int) int {
	left := d.drawn + per
	d.drawn, d.wanted = 0, 0
	return func(want int) int {
		d.wanted += want
		n := want
		if app.IsClient {
			n = min(want, max(0, left))
			left -= n
		}
		d.drawn += n
		return n
	}
}

// mount takes the list's own context and draws on.
func (d *inTurns) mount(ctx app.Context) {
	d.own = ctx
	d.keepDrawing(ctx)
}

// keepDrawing draws more at the browser's next turn while some wait.
func (d *inTurns) keepDrawing(app.Context) {
	if d.drawn >= d.wanted || d.drawing || d.own == nil {
		return
	}
	d.drawing = true
	atATurn(d.own, func(ctx app.Context) {
		d.drawing = false
		ctx.Defer(d.keepDrawing)
	})
}

// again draws on after a control of the list changed what it draws.
func (d *inTurns) again() {
	if d.own != nil {
		d.own.Defer(d.keepDrawing)
	}
}

// turnGate lets one piece of later work render at a turn of the browser's.
// go-app renders what was dispatched on its own frame timer, a Go timer
// that fires in whatever task the browser runs the wasm in: lanes, members
// and a hidden panel each waiting on a turn of their own met in one frame,
// a task of half a second.
var turnGate = make(chan struct{}, 1)

// turnRendered is how long the gate waits for fn's render before it lets
// the next work in: longer than go-app's frame (1/60 s), and a bound, as
// go-app drops what is dispatched to a component gone meanwhile.
const turnRendered = 100 * time.Millisecond

// atATurn runs fn on ctx's component at a later turn of the browser's,
// alone in its task: once other work at a turn has rendered, after a task
// of the browser's own, and the component updates.
func atATurn(ctx app.Context, fn func(app.Context)) {
	if !app.IsClient { // no browser (the tests): no turn to wait for
		ctx.Dispatch(fn)
		return
	}
	ctx.Async(func() {
		turnGate <- struct{}{}
		defer func() { <-turnGate }()
		currentBrowser().NextTurn()
		if !ctx.Src().Mounted() {
			return // gone meanwhile (another link drew the page anew): go-app would drop fn
		}
		rendered := make(chan struct{})
		ctx.Dispatch(func(ctx app.Context) {
			fn(ctx)
			ctx.Defer(func(app.Context) { close(rendered) })
		})
		select {
		case <-rendered:
		case <-time.After(turnRendered):
		}
	})
}
