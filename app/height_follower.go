package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// heightFollower keeps a CSS property of the page the height of an
// element: on a phone the docked timeline and the lesson's sheet cover
// the screen's foot, and the page's layout and scrolling make room for
// them by these properties (web/static/plog.css, lessons.css).
type heightFollower struct {
	observer app.Value
	callback app.Func
}

// followHeight starts following el's height into the property; the zero
// follower, where the browser has no ResizeObserver (or natively).
func followHeight(el app.Value, property string) heightFollower {
	observer := app.Window().Get("ResizeObserver")
	if !observer.Truthy() || !el.Truthy() {
		return heightFollower{}
	}
	style := app.Window().Get("document").Get("documentElement").Get("style")
	var f heightFollower
	f.callback = app.FuncOf(func(app.Value, []app.Value) any {
		style.Call("setProperty", property, fmt.Sprintf("%dpx", el.Get("offsetHeight").Int()))
		return nil
	})
	f.observer = observer.New(f.callback)
	f.observer.Call("observe", el)
	return f
}

// stop ends the following.
func (f heightFollower) stop() {
	if f.observer != nil {
		f.observer.Call("disconnect")
		f.callback.Release()
	}
}
