package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// A config's name in a narrow label wraps between its words, after a dot,
// never inside one ("max.in.flight.requ" / "ests..." read as nonsense).
func TestConfigNamesWrapBetweenTheirWords(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders\n")
	label := `label[for="named-producer-in-flight"]`
	b.waitCount(t, label, 1)
	if broken := wordsBroken(t, b, "label"); len(broken) > 0 {
		t.Errorf("labels broken inside a word: %q", broken)
	}
	if lines := eval[int](t, b, `(() => { const r = document.createRange(); r.selectNodeContents(document.querySelector(`+js(label)+`));
		return new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size })()`); lines < 2 {
		t.Logf("the in-flight label fits on %d line at this width: nothing to break", lines)
	}
}

// wordsBroken lists the words drawn on two lines (a break inside a word) in
// the text of the elements a selector finds (a break after a hyphen is
// one between words).
func wordsBroken(t *testing.T, b *browser, selector string) []string {
	t.Helper()
	return eval[[]string](t, b, `(() => {
		const out = [];
		for (const el of document.querySelectorAll(`+js(selector)+`)) {
			if (el.getClientRects().length === 0) continue;
			const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
			for (let node = walk.nextNode(); node; node = walk.nextNode()) {
				for (const m of node.textContent.matchAll(/[^\s-]+/g)) {
					const range = document.createRange();
					range.setStart(node, m.index);
					range.setEnd(node, m.index + m[0].length);
					const lines = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
					if (lines.size > 1) out.push(el.textContent.trim() + ": " + m[0]);
				}
			}
		}
		return out })()`)
}

// A topic's configs in the inspector, in the dock's narrow column, break
// between words and after a name's dots, never inside a word: a walk read
// "compa" / "ct" and "delete.retention.m" / "s".
func TestInspectorConfigsWrapBetweenWords(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic balances partitions=1 cleanup.policy=compact delete.retention.ms=1m\n")
	b.do(t, chromedp.EmulateViewport(1280, 800))
	b.mouseClick(t, `[data-inspect-topic="balances"]`)
	b.waitFor(t, shown(`[data-inspector="topic"] .inspector-configs`))
	if broken := wordsBroken(t, b, ".inspector-configs th, .inspector-configs td"); len(broken) > 0 {
		t.Errorf("configs broken inside a word: %q", broken)
	}
}
