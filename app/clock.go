package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A clock runs the page's delays: the URL's debounce (urlDebounce), the
// removal animation (removalAnimation) and play's ticks (playTick). In the
// page it is go-app's own timer; the component tests step a fake one
// (clock_test.go), so they wait out no real delay.
type clock interface {
	// After calls fn on the UI goroutine once d has passed, and the
	// component updates, as app.Context.After does.
	After(ctx app.Context, d time.Duration, fn func(app.Context))
}

// goAppClock is the page's clock: real time, through go-app, and fn at a
// turn of the browser's of its own (atATurn). In wasm a Go timer that
// falls due while a task runs fires in that same task: the hidden panels,
// due 100 ms after a render of half a second, were drawn in the render's
// own task, a task of 800 ms where the browser neither painted nor
// answered.
type goAppClock struct{}

func (goAppClock) After(ctx app.Context, d time.Duration, fn func(app.Context)) {
	ctx.Async(func() {
		time.Sleep(d)
		atATurn(ctx, fn) // in_turns.go
	})
}

// after runs fn once d has passed on the Playground's clock: go-app's own
// unless a test gave it another.
func (p *Playground) after(ctx app.Context, d time.Duration, fn func(app.Context)) {
	var c clock = goAppClock{}
	if p.clock != nil {
		c = p.clock
	}
	c.After(ctx, d, fn)
}
