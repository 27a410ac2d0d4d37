// Package app holds plog's page: go-app components that render a read-only
// snapshot of the engine and turn the learner's gestures into scenario
// commands. It holds no engine logic.
//
// The same components are compiled twice: into the browser's wasm (package
// wasm) and into the site generator (serve.go), which pre-renders the page
// into dist/. Both call Routes so they agree on what each path shows.
package app

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// Routes registers the page's paths with go-app. The playground is a single
// page; the scenario lives in the URL fragment, not in the path. It is also
// opened as index.html, the file that holds it (a host's address for it,
// or a link copied from one): a matched route, which the site generator
// does not render again into the same file. Each lesson has a page of its
// own (lesson_page.go), which the site generator writes by name. The
// matched routes are functions rather than go-app's regexp routes, so that
// the wasm links no regexp package (BENCHMARKS.md, what the wasm is made
// of).
func Routes() {
	app.Route("/", &Playground{})
	app.RouteMatch(func(path string) bool { return path == "/index.html" }, &Playground{})
	app.RouteMatch(isLessonPagePath, &Playground{})
}
