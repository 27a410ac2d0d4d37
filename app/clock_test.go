package app

import (
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// fakeClock is a clock that moves only when a test steps it, so that a
// test sees the page before and after each delay without waiting it out.
// Everything runs on the test's goroutine, which is the client tester's UI
// goroutine.
type fakeClock struct {
	now    time.Duration
	timers []fakeTimer // pending, in the order they were set
}

type fakeTimer struct {
	due time.Duration
	ctx app.Context
	fn  func(app.Context)
}

func (c *fakeClock) After(ctx app.Context, d time.Duration, fn func(app.Context)) {
	c.timers = append(c.timers, fakeTimer{due: c.now + d, ctx: ctx, fn: fn})
}

// Step moves the clock on by d. Each timer due by then fires in the order
// of its due time (then of its setting), as go-app's would: its function
// dispatched to the UI goroutine and the page rendered, before the next.
// A timer that a firing one sets fires too if it falls due within d.
func (c *fakeClock) Step(d app.ClientDispatcher, by time.Duration) {
	end := c.now + by
	for {
		next := -1
		for i, t := range c.timers {
			if t.due <= end && (next < 0 || t.due < c.timers[next].due) {
				next = i
			}
		}
		if next < 0 {
			break
		}
		t := c.timers[next]
		c.timers = append(c.timers[:next], c.timers[next+1:]...)
		c.now = t.due
		t.ctx.Dispatch(t.fn)
		d.Consume()
	}
	c.now = end
}

// Pending is how many timers have yet to fire.
func (c *fakeClock) Pending() int { return len(c.timers) }

// clockOf is the fake clock a test page runs on.
func clockOf(t testing.TB, p *Playground) *fakeClock {
	t.Helper()
	c, ok := p.clock.(*fakeClock)
	if !ok {
		t.Fatal("the page does not run on a fake clock")
	}
	return c
}

// newTestPlayground is a page on a fake clock, for the client tester.
func newTestPlayground() *Playground { return &Playground{clock: &fakeClock{}} }
