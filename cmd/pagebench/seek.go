package main

import (
	"fmt"
	"os"

	"github.com/chromedp/chromedp"

	"plog/core/scenario"
)

// seekSteps is how long the history a seek crosses is: issue 41's budget
// is a seek across 1,000 steps within 50 ms.
const seekSteps = 1000

// seekScenario is a playground session of seekSteps commands, kept beside
// the page's benchmark of the same seek natively (app's
// BenchmarkRenderSeek): two topics (one with retention, one compacted, both
// in short segments), keyed and keyless produces, a group of two members
// that poll and commit, clock advances that let retention and the group's
// timers work.
const seekScenario = "app/testdata/seek_1000_steps.plog"

// seekLink is the link of seekScenario, which opens at its last step.
func seekLink() (string, error) {
	script, err := os.ReadFile(seekScenario)
	if err != nil {
		return "", err
	}
	return scenario.EncodeLink(string(script))
}

// seekGesture sets the timeline's slider to a step as a learner's drag
// ends (a change event) and resolves to the milliseconds from then until
// the timeline says it stands there, and until the frame after that has
// run.
func seekGesture(step int) string {
	return fmt.Sprintf(`new Promise((resolve, reject) => {
  const timeline = document.querySelector("[data-timeline]");
  const slider = document.querySelector("#timeline-slider");
  if (!timeline || !slider) { reject(new Error("no timeline or slider")); return; }
  const want = %q;
  let start = 0, shown = 0;
  const observer = new MutationObserver(() => {
    if (shown || timeline.dataset.position !== want) return;
    shown = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => resolve([shown - start, performance.now() - start]), 0));
  });
  observer.observe(timeline, {attributes: true, attributeFilter: ["data-position"]});
  setTimeout(() => { observer.disconnect(); reject(new Error("the timeline did not reach step " + want + " within 30 s")); }, 30000);
  start = performance.now();
  slider.value = want;
  slider.dispatchEvent(new Event("change", {bubbles: true}));
})`, fmt.Sprint(step))
}

// measureSeek opens the link of seekScript in a fresh browser and seeks
// across its history and back, clicks times each way after one round to
// warm up: back to step 1 and forward to the last step, each timed from
// the slider's change to the frame that shows the step.
func measureSeek(chromium, dir, url string, clicks int, profile string) error {
	t, err := newTab(chromium, dir)
	if err != nil {
		return err
	}
	defer t.cancel()
	if _, err := t.visit(url); err != nil {
		return err
	}
	if profile != "" {
		if err := t.startProfile(); err != nil {
			return err
		}
	}
	for i := range clicks + 1 {
		for _, s := range []struct {
			name string
			step int
		}{{"Back", 1}, {"Forward", seekSteps}} {
			times, err := chromedp.Run(t.ctx, chromedp.Evaluate[[]float64](seekGesture(s.step), chromedp.EvalAwaitPromise))
			if err != nil {
				return fmt.Errorf("seek to step %d: %w", s.step, err)
			}
			if i > 0 {
				sample("PageSeek1000"+s.name, msToNs(times[1]), "ns/op", msToNs(times[0]), "dom-ns")
			}
		}
	}
	if profile != "" {
		return t.stopProfile(profile, os.Stderr)
	}
	return nil
}
