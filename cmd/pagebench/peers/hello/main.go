// Command hello is the go-app peer cmd/pagebench measures plog's page
// beside: the smallest page go-app v9 makes, built from plog's own copy of
// go-app (third_party/go-app), so that what plog's page costs more than it
// is plog's. Built for the browser, it is the page; run natively, it writes
// its static site into the directory it is given (pagebench adds the wasm,
// slimmed as plog's is, and the toolchain's wasm_exec.js).
//
// Its main says data-ready="true" once mounted in the browser, as plog's
// does once interactive, which is what pagebench waits for.
package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

type hello struct {
	app.Compo
	ready bool
}

func (h *hello) OnMount(ctx app.Context) {
	if app.IsClient {
		ctx.Dispatch(func(app.Context) { h.ready = true })
	}
}

func (h *hello) Render() app.UI {
	return app.Main().DataSet("ready", h.ready).Body(
		app.H1().Text("Hello, world"),
	)
}

func main() {
	app.Route("/", &hello{})
	app.RunWhenOnBrowser() // in the browser, it never returns
	generate()
}
