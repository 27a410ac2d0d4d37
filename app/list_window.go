package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A link can ask for lists far longer than a page can draw: a thousand
// partitions, hundreds of topics, groups or members. go-app queues a
// message for every component it mounts in a channel of 4,096 that only
// the UI goroutine drains, from that same goroutine, so a page that mounts
// a few thousand components at once stops for good ("all goroutines are
// asleep"). Every list that grows with the scenario therefore draws a
// window of it, says how much it left out, and moves through the rest a
// page at a time.

// listWindow is the part of a list of total items the page draws: size
// items from start.
type listWindow struct {
	start, size, total int
}

// windowAt is the window of size items of a list of total that starts at
// start, moved to fit in the list.
func windowAt(start, size, total int) listWindow {
	start = min(start, total-size)
	return listWindow{start: max(start, 0), size: size, total: total}
}

// end is the index after the window's last item.
func (w listWindow) end() int { return min(w.start+w.size, w.total) }

// partial says whether the window leaves items out.
func (w listWindow) partial() bool { return w.total > w.size }

// followNew moves a window of size items from start so that it shows the
// first of names that known does not hold: what the learner just created
// is drawn, wherever the window was. known is what the list held at the
// last render (nil the first time: nothing is new then); followNew returns
// the start and what the list holds now.
func followNew(start, size int, names []string, known map[string]bool) (int, map[string]bool) {
	changed := known == nil || len(known) != len(names)
	for i, name := range names {
		if known != nil && !known[name] {
			if w := windowAt(start, size, len(names)); i < w.start || i >= w.end() {
				start = i
			}
			changed = true
			break
		}
	}
	if changed {
		known = make(map[string]bool, len(names))
		for _, name := range names {
			known[name] = true
		}
	}
	return start, known
}

// windowNav says which items of a list are drawn and how many are not, with
// buttons to the previous and next page and a box to go to any item by its
// number; nothing when the whole list is drawn. id names the list: the
// buttons are #ID-previous and #ID-next, the box #ID-from, and the nav
// [data-window=ID] carries data-start and data-total. noun is the plural of
// what the list holds, and first the number its first item goes by: 1 for
// a list counted from one, 0 for partitions, which Kafka numbers from 0 (a
// learner read "partitions 1–24" over lanes t/0 to t/23).
func windowNav(id, noun string, first int, w listWindow, move func(ctx app.Context, start int)) app.UI {
	if !w.partial() {
		return nil
	}
	button := func(which, text string, to int, enabled bool) app.UI {
		// The list and the target are the handler's scope: go-app keeps a
		// button's old handler, which may move another list, unless its
		// scope differs.
		return app.Button().Type("button").ID(id+"-"+which).Class("window-move").
			Disabled(!enabled).Text(text).
			OnClick(func(ctx app.Context, e app.Event) { move(ctx, to) }, id, to)
	}
	return app.Div().Class("window-nav").DataSet("window", id).
		DataSet("start", w.start).DataSet("total", w.total).
		Body(
			app.Span().Class("window-count").Attr("role", "status").Text(fmt.Sprintf(
				"Showing %s %d–%d of %d: %d more %s are not drawn.",
				noun, w.start+first, w.end()-1+first, w.total, w.total-(w.end()-w.start), noun)),
			button("previous", "previous "+strconv.Itoa(w.size), w.start-w.size, w.start > 0),
			button("next", "next "+strconv.Itoa(w.size), w.start+w.size, w.end() < w.total),
			app.Label().Class("window-from").Body(
				app.Text("from number "),
				app.Input().Type("text").ID(id+"-from").Attr("inputmode", "numeric").Size(6).
					Value(w.start+first).
					OnChange(func(ctx app.Context, e app.Event) {
						// A number out of the list moves to its end; anything
						// else is left as it was.
						if n, err := strconv.Atoi(strings.TrimSpace(ctx.JSSrc().Get("value").String())); err == nil {
							move(ctx, n-first)
						}
					}, id),
			),
		)
}
