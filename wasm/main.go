// Command wasm is plog's page in the browser: `make wasm` builds it with
// GOOS=js GOARCH=wasm into bin/app.wasm, which the site generator (serve.go,
// its -wasm flag) copies into the site. It installs the browser bridges (clipboard,
// storage, the embedding window, downloads, files: browser_wasm.go), registers
// the page's routes and hands control to go-app. Natively it does nothing, so
// `go vet ./...` and native builds still compile it.
package main

import (
	plog "plog/app"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

func main() {
	plog.Mark(plog.MarkMain)
	plog.SetBrowser(newBrowser())
	plog.Routes()
	app.RunWhenOnBrowser()
}
