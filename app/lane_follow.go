package app

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// A lane that follows the newest records keeps them in view: its records
// scroll sideways inside the lane, and a lane's newest record, the one
// just produced or a tombstone just written, sat past the right edge while
// the oldest showed. After each render of a lane whose window follows the
// newest, the records scroll to their end, unless the learner scrolled
// them back: the end the lane scrolled to last is kept on the element, and
// a lane scrolled short of it is left where the learner put it.

// OnMount scrolls a new lane to its newest record.
func (l *PartitionLane) OnMount(ctx app.Context) { l.followNewest(ctx) }

// OnUpdate scrolls the lane on as records arrive.
func (l *PartitionLane) OnUpdate(ctx app.Context) { l.followNewest(ctx) }

// followEnd is the element property that holds the scroll width the lane
// last scrolled to the end of.
const followEnd = "plogFollowEnd"

func (l *PartitionLane) followNewest(ctx app.Context) {
	if l.Partition.After != 0 || !app.IsClient {
		return // the learner moved the window back, or no browser
	}
	ctx.Defer(func(app.Context) {
		root := l.JSValue()
		if root == nil || !root.Truthy() {
			return
		}
		records := root.Call("querySelector", ".records")
		if !records.Truthy() {
			return
		}
		// At the end it was scrolled to last, or never scrolled: follow.
		last := records.Get(followEnd)
		atEnd := !last.Truthy() ||
			records.Get("scrollLeft").Float()+records.Get("clientWidth").Float() >= last.Float()-2
		if !atEnd {
			return
		}
		width := records.Get("scrollWidth").Float()
		records.Set("scrollLeft", width)
		records.Set(followEnd, width)
	})
}
