package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The URL is the scenario: these read it back as a learner's browser holds
// it, decoding the link with the browser's own DEFLATE.

// urlScriptJS is a JavaScript expression for the script the page's URL
// holds, one step a line ("" for none; its rules line is the scenario's,
// no step, and left out), and its at= (-1 for none).
const urlScriptJS = `(async () => {
	const params = location.hash.slice(1).split("&");
	const at = (params.find(p => p.startsWith("at=")) || "at=-1").slice(3);
	if (!params[0].startsWith("v1.")) return JSON.stringify({script: "", at: Number(at)});
	const b64 = params[0].slice(3).replace(/-/g, "+").replace(/_/g, "/");
	const bytes = Uint8Array.from(atob(b64 + "===".slice((b64.length + 3) % 4)), c => c.charCodeAt(0));
	const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
	const text = await new Response(stream).text();
	return JSON.stringify({script: text.split("\n").filter(l => !l.startsWith("rules ")).join("\n"), at: Number(at)});
})()`

// urlScript is the script the page's URL holds and its at= (-1 for none).
func (b *browser) urlScript(t *testing.T) ([]string, int) {
	t.Helper()
	var got struct {
		Script string
		At     int
	}
	if err := json.Unmarshal([]byte(eval[string](t, b, urlScriptJS)), &got); err != nil {
		t.Fatal(err)
	}
	if got.Script == "" {
		return nil, got.At
	}
	return strings.Split(strings.TrimSuffix(got.Script, "\n"), "\n"), got.At
}

// waitURLSteps waits until the URL holds a script of n steps: the page
// writes it a moment after the last change.
func (b *browser) waitURLSteps(t *testing.T, n int) {
	t.Helper()
	b.waitFor(t, fmt.Sprintf(`%s.then(s => JSON.parse(s).script.split("\n").filter(l => l !== "").length === %d)`, urlScriptJS, n))
}
