package e2e

import "testing"

// A config's name in a narrow label wraps between its words, after a dot,
// never inside one ("max.in.flight.requ" / "ests..." read as nonsense).
func TestConfigNamesWrapBetweenTheirWords(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders\n")
	label := `label[for="named-producer-in-flight"]`
	b.waitCount(t, label, 1)
	broken := eval[[]string](t, b, `(() => {
		const out = [];
		for (const label of document.querySelectorAll("label")) {
			if (!label.textContent.includes(".") || label.getClientRects().length === 0) continue;
			for (const node of label.childNodes) {
				if (node.nodeType !== Node.TEXT_NODE || node.textContent.trim() === "") continue;
				const range = document.createRange();
				range.selectNodeContents(node);
				const lines = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
				if (lines.size > 1) out.push(label.textContent + ": " + node.textContent);
			}
		}
		return out })()`)
	if len(broken) > 0 {
		t.Errorf("labels broken inside a word: %q", broken)
	}
	if lines := eval[int](t, b, `(() => { const r = document.createRange(); r.selectNodeContents(document.querySelector(`+js(label)+`));
		return new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size })()`); lines < 2 {
		t.Logf("the in-flight label fits on %d line at this width: nothing to break", lines)
	}
}
