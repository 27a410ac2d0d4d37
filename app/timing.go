package app

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// The page's start leaves marks on the browser's performance timeline, for
// pagebench (cmd/pagebench) to split the time from the wasm's last byte to
// ready: plog-main when the wasm's main begins (the Go runtime has started
// and every package's init has run), plog-mounted when the playground's
// first render is done and its link applied. Natively, and in a browser
// without the Performance API, a mark is nothing.
const (
	MarkMain    = "plog-main"
	markMounted = "plog-mounted"
)

// Mark leaves a mark on the performance timeline.
func Mark(name string) {
	if perf := app.Window().Get("performance"); perf.Truthy() && perf.Get("mark").Truthy() {
		perf.Call("mark", name)
	}
}
