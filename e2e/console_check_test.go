package e2e

import (
	"strings"
	"testing"
	"time"
)

// The check every browser test gets (newBrowser) sees each kind of error a
// page can report: console.error, an uncaught exception, a failed load in
// the browser's log, and a Content-Security-Policy violation. The test
// provokes them, takes them, and so leaves nothing for its own check.
func TestConsoleCheckSeesEveryKindOfError(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "")
	eval[bool](t, b, `(() => {
		console.error("provoked console error");
		setTimeout(() => { throw new Error("provoked exception") });
		fetch("no-such-file.txt").catch(() => {});
		const s = document.createElement("script");
		s.textContent = "window.inlineRan = true";
		document.body.append(s);
		return true })()`)
	kinds := map[string]string{
		"console.error":   "provoked console error",
		"exception":       "provoked exception",
		"failed load":     "404",
		"CSP (the log)":   "inline script violates the following Content Security Policy directive",
		"CSP (the event)": "Content Security Policy violation: script-src-elem blocked inline",
	}
	var seen []string
	deadline := time.Now().Add(readyTimeout)
	for len(kinds) > 0 && time.Now().Before(deadline) {
		for _, e := range b.takeErrors() {
			seen = append(seen, e)
			for kind, text := range kinds {
				if strings.Contains(e, text) {
					delete(kinds, kind)
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	for kind, text := range kinds {
		t.Errorf("the console check missed a %s (%q); it saw %q", kind, text, seen)
	}
	if eval[bool](t, b, `window.inlineRan === true`) {
		t.Error("the page's policy let an inline script run")
	}
}
