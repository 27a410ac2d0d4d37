// plog in a frame tells the page around it how tall its content is, so that
// a course page can size the iframe to it (web/static/embed-example.js, the
// snippet in the README, does):
//
//   {source: "plog", type: "height", height: 612}
//
// height is the content's natural height in CSS pixels, a whole number: what
// the page needs to show all of itself with no scroll bar of its own. In
// embed mode the lanes and the groups scroll inside themselves when the
// frame is shorter than they are (a cap at the frame's height, share.css);
// the height posted counts them whole, so it does not follow the frame's
// own height, and a course page that sets the frame's height to it settles
// at once: the next measure, in the taller frame, is the same.
//
// It is posted to the parent window only, once the page is ready (a frame
// that has not started its runtime, embed-start.js, posts nothing: the
// written page under the loader is not the scenario's), and again only when
// the height moves by more than a few pixels, which the lanes' and records'
// small changes as a scenario plays do not. A page that is not in a frame
// posts nothing. The other messages (ready, step, solved) are in
// app/embed_messages.go.
(function () {
  "use strict";

  if (window.parent === window) return;

  // Changes this small are not told: a course page that follows every
  // pixel would make its own layout jitter as records come and go.
  const slack = 4;
  let posted = -1;
  let pending = false;

  // naturalHeight is the body's height with the regions that scroll inside
  // themselves counted at their content's height. The lanes (.stage) and
  // the groups (.groups-column) share one row of embed mode's grid: the row
  // is as tall as the taller of them. A region cut by its cap (the frame's
  // height less the bar's room, share.css) also asks for a frame tall
  // enough that the cap lets all of it show: its content's height and what
  // the frame holds beside the cap now. Without that a pixel of rounding
  // leaves a region one pixel short, and a wheel over it turns that pixel
  // rather than the course page.
  function naturalHeight(main) {
    const body = document.body;
    let height = Math.max(body.scrollHeight, body.getBoundingClientRect().height);
    if (main.dataset.embed === "true") {
      let shown = 0;
      let whole = 0;
      let uncapped = 0;
      for (const region of main.querySelectorAll(".stage, .groups-column")) {
        if (region.offsetParent === null) continue;
        const all = region.offsetHeight - region.clientHeight + region.scrollHeight;
        shown = Math.max(shown, region.offsetHeight);
        whole = Math.max(whole, all);
        if (region.scrollHeight > region.clientHeight) {
          uncapped = Math.max(uncapped, all + window.innerHeight - region.offsetHeight);
        }
      }
      height = Math.max(height + Math.max(0, whole - shown), uncapped);
    }
    return Math.ceil(height);
  }

  function measure() {
    pending = false;
    const main = document.querySelector('main[data-ready="true"]');
    if (!main) return;
    const height = naturalHeight(main);
    if (posted >= 0 && Math.abs(height - posted) <= slack) return;
    posted = height;
    // Any origin may embed the page and the height is no secret: "*".
    window.parent.postMessage({ source: "plog", type: "height", height: height }, "*");
  }

  // schedule gathers what changed in a moment into one measure, so that
  // layout is read once for a burst of changes. A timer, not an animation
  // frame: a frame scrolled out of view gets no animation frames, and its
  // course page should still hear that it grew.
  function schedule() {
    if (pending) return;
    pending = true;
    setTimeout(measure, 30);
  }

  function start() {
    schedule();
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(schedule).observe(document.body);
    }
    // A region that scrolls inside itself grows without the body growing,
    // and the page turns ready by an attribute: both are mutations.
    new MutationObserver(schedule).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-ready", "class", "hidden"] });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
  window.addEventListener("load", schedule);
})();
