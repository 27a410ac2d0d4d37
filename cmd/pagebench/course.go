package main

import (
	"fmt"
	"log"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// coursePage is the course-page example served with the site, which embeds
// five scenarios, each starting its runtime only when its frame comes into
// view or is touched (web/static/embed-start.js).
const coursePage = "web/static/embed.html"

// courseFigures are what the course page holds at one moment: how many of
// its frames run a Go runtime, the sum of their wasm linear memories, the
// JavaScript heap in use (the frames share the page's, being of its
// origin), and the renderer processes' PSS.
type courseFigures struct {
	Frames   int     `json:"frames"`
	Started  int     `json:"started"`
	WasmHeap float64 `json:"wasm"`
	JSHeap   float64 `json:"-"`
	PSS      float64 `json:"-"`
}

// courseScript counts the page's frames and those whose runtime runs, and
// sums their wasm memories (observeScript runs in every frame's document).
const courseScript = `(() => {
  const frames = Array.from(document.querySelectorAll("iframe"));
  let started = 0, wasm = 0;
  for (const f of frames) {
    const w = f.contentWindow;
    if (w && w.plogWasm) { started++; wasm += w.plogWasm.exports.mem.buffer.byteLength; }
  }
  return {frames: frames.length, started: started, wasm: wasm};
})()`

// readyFramesScript counts the frames whose page says it is ready.
const readyFramesScript = `Array.from(document.querySelectorAll("iframe")).filter(f => f.contentDocument && f.contentDocument.querySelector('main[data-ready="true"]')).length`

// settle is how long the page is left alone before its memory is read, so
// that a frame that was going to start has started.
const settle = 3 * time.Second

// measureCoursePage opens the course page in a fresh browser on loopback
// and reads what it holds once the frames in view have started (before
// interaction), then once the reader has scrolled to each frame in turn and
// clicked in it, and each has started (after).
func measureCoursePage(chromium, dir, url string) (before, after courseFigures, err error) {
	t, err := newTab(chromium, dir)
	if err != nil {
		return before, after, err
	}
	defer t.cancel()
	if err := chromedp.Do(t.ctx, chromedp.Navigate(url+coursePage)); err != nil {
		return before, after, err
	}
	if err := t.waitFor(readyTimeout, func() (bool, error) {
		n, err := chromedp.Run(t.ctx, chromedp.Evaluate[int](readyFramesScript))
		return n > 0, err
	}); err != nil {
		return before, after, fmt.Errorf("no frame of the course page was ready: %w", err)
	}
	time.Sleep(settle)
	if before, err = t.courseFigures(); err != nil {
		return before, after, err
	}
	for i := range before.Frames {
		touch := fmt.Sprintf(`(() => { const f = document.querySelectorAll("iframe")[%d]; f.scrollIntoView(); f.contentWindow && f.contentWindow.dispatchEvent(new PointerEvent("pointerdown")); return true })()`, i)
		if _, err := chromedp.Run(t.ctx, chromedp.Evaluate[bool](touch)); err != nil {
			return before, after, err
		}
		if err := t.waitFor(readyTimeout, func() (bool, error) {
			n, err := chromedp.Run(t.ctx, chromedp.Evaluate[int](readyFramesScript))
			return n > i, err
		}); err != nil {
			return before, after, fmt.Errorf("frame %d of the course page never got ready: %w", i+1, err)
		}
	}
	time.Sleep(settle)
	after, err = t.courseFigures()
	return before, after, err
}

// courseFigures reads the course page's figures after a garbage collection.
func (t *tab) courseFigures() (courseFigures, error) {
	if _, err := chromedp.Call(t.ctx, heapprofiler.CollectGarbage, cdp.Empty{}); err != nil {
		return courseFigures{}, err
	}
	f, err := chromedp.Run(t.ctx, chromedp.Evaluate[courseFigures](courseScript))
	if err != nil {
		return f, err
	}
	heap, err := chromedp.Call(t.ctx, runtime.GetHeapUsage, cdp.Empty{})
	if err != nil {
		return f, err
	}
	f.JSHeap = heap.UsedSize
	f.PSS = float64(rendererPSS(chromedp.FromContext(t.ctx).Browser.Process()))
	return f, nil
}

// runCoursePage measures the course page runs times, printing each
// moment as a benchmark line and then a Markdown table of the medians.
func runCoursePage(chromium, dir, url string, runs int) error {
	var befores, afters []courseFigures
	for i := range runs {
		log.Printf("run %d of %d, the course page", i+1, runs)
		before, after, err := measureCoursePage(chromium, dir, url)
		if err != nil {
			return err
		}
		for name, f := range map[string]courseFigures{"Before": before, "After": after} {
			sample("CoursePage"+name, int64(f.Started), "frames-started", int64(f.WasmHeap), "wasm-bytes", int64(f.JSHeap), "js-heap-bytes", int64(f.PSS), "renderer-pss-bytes")
		}
		befores, afters = append(befores, before), append(afters, after)
	}
	fmt.Printf("\n| course page (%s) | frames running a runtime | wasm memory, all frames | JS heap | renderer processes' PSS |\n|---|---|---|---|---|\n", coursePage)
	for _, row := range []struct {
		what string
		fs   []courseFigures
	}{{"opened, before interaction", befores}, {"after scrolling to each frame and touching it", afters}} {
		of := func(get func(courseFigures) float64) []float64 {
			var v []float64
			for _, f := range row.fs {
				v = append(v, get(f))
			}
			return v
		}
		fmt.Printf("| %s | %s of %d | %s | %s | %s |\n", row.what,
			spread(of(func(f courseFigures) float64 { return float64(f.Started) }), func(n float64) string { return fmt.Sprint(n) }), row.fs[0].Frames,
			spreadMB(of(func(f courseFigures) float64 { return f.WasmHeap })),
			spreadMB(of(func(f courseFigures) float64 { return f.JSHeap })),
			spreadMB(of(func(f courseFigures) float64 { return f.PSS })))
	}
	return nil
}
