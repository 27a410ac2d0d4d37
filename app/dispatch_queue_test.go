package app

import (
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// countingCompo counts what is dispatched to it, in order.
type countingCompo struct {
	app.Compo
	seen []int
}

func (c *countingCompo) Render() app.UI { return app.Div() }

// A handler may dispatch more than go-app's channel holds (4,096): a state
// set once is a dispatch for each component observing it, and a storm of
// clicks queues many handlers. The release's Dispatch then waited for the
// engine's goroutine, the very one dispatching, and the page's program
// exited on a deadlock (third_party/go-app/PLOG.md). Every dispatch runs,
// in the order made.
func TestDispatchesBeyondTheChannelRunInOrder(t *testing.T) {
	const n = 10_000
	c := &countingCompo{}
	d := app.NewClientTester(c)
	defer d.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.Context().Dispatch(func(ctx app.Context) {
			for i := range n {
				ctx.Dispatch(func(app.Context) { c.seen = append(c.seen, i) })
			}
		})
		d.Consume()
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute): // a hang, not a slow machine: the work takes milliseconds
		t.Fatal("dispatching more than the channel holds waits for good")
	}
	if len(c.seen) != n {
		t.Fatalf("%d dispatches ran, want %d", len(c.seen), n)
	}
	for i, v := range c.seen {
		if v != i {
			t.Fatalf("dispatch %d ran as the %dth", v, i)
		}
	}
}
