package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeViolation is what axe-core reports of one broken rule.
type axeViolation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	Targets []string `json:"targets"`
}

// runAxe injects axe-core (installed by npm ci in e2e/) into the page and
// returns its serious and critical violations.
func runAxe(t *testing.T, b *browser) []axeViolation {
	t.Helper()
	source, err := os.ReadFile(filepath.Join(build.repo, "e2e", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is not installed (run npm ci in e2e/, as make test does): %v", err)
	}
	// A mark mid-way through its animation is drawn half transparent:
	// axe read its colour blended with the page's, a contrast the
	// settled page does not have. The page's own animations end.
	b.waitFor(t, `document.getAnimations().every(a => a.playState !== "running" || a.effect.getTiming().iterations === Infinity)`)
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](string(source)+";true")); err != nil {
		t.Fatalf("injecting axe-core: %v", err)
	}
	return eval[[]axeViolation](t, b, `axe.run(document, {resultTypes: ["violations"]}).then(r =>
		r.violations.filter(v => v.impact === "serious" || v.impact === "critical").map(v => ({
			id: v.id, impact: v.impact, help: v.help,
			targets: v.nodes.slice(0, 5).map(n => n.target.join(" ")),
		})))`)
}

// The page, full of everything it draws, has no serious or critical
// accessibility violation in either theme.
func TestUIAccessibility(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, layoutScenario)
	b.waitCount(t, `[data-topic][data-partition][data-log-start]`, 4)
	// Show a produce's landing and an error, so they are checked too.
	b.click(t, "#produce-send")
	b.waitText(t, ".landing", "why")
	b.fill(t, "#truncate-before", "abc")
	b.click(t, "#truncate-go")
	b.waitCount(t, `[data-control=truncate][role=alert]`, 1)

	// Each theme the Theme button gives, on a system of the other theme,
	// so that the choice, not the system, must colour the page.
	for _, theme := range []string{"light", "dark"} {
		system := map[string]string{"light": "dark", "dark": "light"}[theme]
		emulateColourScheme(t, b, system)
		b.chooseTheme(t, theme)
		b.waitFor(t, `document.documentElement.dataset.theme === `+js(theme))
		for _, v := range runAxe(t, b) {
			t.Errorf("%s theme: %s (%s): %s at %s", theme, v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
		}
	}
}
