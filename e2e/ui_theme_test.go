package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// emulateColourScheme makes the browser's system theme light or dark.
func emulateColourScheme(t *testing.T, b *browser, scheme string) {
	t.Helper()
	_, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	})
	if err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, fmt.Sprintf(`matchMedia("(prefers-color-scheme: %s)").matches`, scheme))
}

// theme.css's page background in each theme, as getComputedStyle writes it.
const (
	lightBackground = "rgb(248, 250, 252)"
	darkBackground  = "rgb(15, 23, 42)"
)

// pageBackground is the body's background colour.
func pageBackground(t *testing.T, b *browser) string {
	return eval[string](t, b, `getComputedStyle(document.body).backgroundColor`)
}

// chooseTheme clicks the masthead's Theme button until it shows choice.
func (b *browser) chooseTheme(t *testing.T, choice string) {
	t.Helper()
	for range 3 {
		if b.attr(t, "[data-theme-toggle]", "data-theme-choice") == choice {
			return
		}
		before := b.attr(t, "[data-theme-toggle]", "data-theme-choice")
		b.click(t, "[data-theme-toggle]")
		b.waitFor(t, `document.querySelector("[data-theme-toggle]").dataset.themeChoice !== `+js(before))
	}
	t.Fatalf("the Theme button never showed %s", choice)
}

// The Theme button goes from the system's theme to light, to dark and back;
// the choice beats the system's, survives a reload, and an embed's &theme=
// beats the stored choice.
func TestThemeToggle(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	emulateColourScheme(t, b, "dark")
	link := linkOf(t, "topic orders partitions=2\nproduce orders key=a value=1\n")
	b.open(t, s.URL+link)

	if choice := b.attr(t, "[data-theme-toggle]", "data-theme-choice"); choice != "system" || pageBackground(t, b) != darkBackground {
		t.Fatalf("at first the button shows %q on %s; want the system's theme, dark", choice, pageBackground(t, b))
	}
	b.chooseTheme(t, "light")
	b.waitFor(t, `document.documentElement.dataset.theme === "light"`)
	if bg := pageBackground(t, b); bg != lightBackground {
		t.Errorf("light theme on a dark system: background %s, want %s", bg, lightBackground)
	}
	b.chooseTheme(t, "dark")
	emulateColourScheme(t, b, "light")
	if theme, bg := eval[string](t, b, `document.documentElement.dataset.theme`), pageBackground(t, b); theme != "dark" || bg != darkBackground {
		t.Errorf("dark theme on a light system: data-theme %q, background %s; want dark", theme, bg)
	}

	// Remembered: the reloaded page opens dark, on a light system.
	b.reload(t)
	if choice := b.attr(t, "[data-theme-toggle]", "data-theme-choice"); choice != "dark" || pageBackground(t, b) != darkBackground {
		t.Errorf("after a reload the button shows %q on %s, want dark", choice, pageBackground(t, b))
	}
	b.chooseTheme(t, "system")
	b.waitFor(t, `!document.documentElement.hasAttribute("data-theme")`)
	if bg := pageBackground(t, b); bg != lightBackground {
		t.Errorf("the system's theme on a light system: background %s", bg)
	}

	// An embed on a dark course page asks for dark, whatever was stored.
	b.chooseTheme(t, "light")
	b.open(t, s.URL+link+"&embed=1&theme=dark")
	b.reload(t) // the fragment alone changed: load the page anew
	if theme, bg := eval[string](t, b, `document.documentElement.dataset.theme`), pageBackground(t, b); theme != "dark" || bg != darkBackground {
		t.Errorf("&theme=dark: data-theme %q, background %s; want dark", theme, bg)
	}
	b.waitFor(t, `location.hash.endsWith("&theme=dark")`)
	b.noErrors(t)
}
