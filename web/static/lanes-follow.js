// A lane's records scroll sideways when they are wider than the lane
// (.records, plog.css): forty records at most are drawn, the newest last.
// Left alone, the record a learner has just produced lands past the right
// edge, out of sight.
//
// So a lane follows its newest record: when records land in it (the last
// command's, marked data-landed: a produce, a workload as the clock runs),
// it is scrolled to its end. A lane the learner has scrolled back stays
// where the learner put it, until the learner scrolls to its end again.
// Whether a lane shows its end is read at each of its scroll events, the
// learner's and this script's alike (a lane scrolled to its end by this
// script is at its end): no flag tells the two apart, so none can be left
// behind. A scenario or a lesson opens with its lanes at their start: the
// first records are often what a lesson is about (a teacher's walk found
// lesson 3's offsets 0 and 1 scrolled out of sight).
//
// The work is one pass a frame over the lanes that changed: first every
// width read, then every scroll written, so that the page lays out once.
(function () {
  "use strict";

  // A lane within this many pixels of its end is at its end: a zoomed page
  // rounds scroll positions to fractions of a pixel.
  const slack = 8;

  // Lanes the learner took off their end. A lane not in it follows.
  const heldBack = new WeakSet();
  const changed = new Set();
  let scheduled = false;

  function atEnd(list) {
    return list.scrollLeft + list.clientWidth >= list.scrollWidth - slack;
  }

  document.addEventListener("scroll", (e) => {
    const list = e.target;
    if (!(list instanceof Element) || !list.classList.contains("records")) return;
    if (atEnd(list)) heldBack.delete(list);
    else heldBack.add(list);
  }, {capture: true, passive: true});

  function follow() {
    scheduled = false;
    const lists = Array.from(changed).filter((list) => list.isConnected && !heldBack.has(list) &&
      list.querySelector("[data-landed]") !== null);
    changed.clear();
    // Read every width, then scroll: no layout between two scrolls.
    const ends = lists.map((list) => list.scrollWidth - list.clientWidth);
    lists.forEach((list, i) => {
      if (ends[i] > 0 && list.scrollLeft < ends[i]) list.scrollLeft = ends[i];
    });
  }

  function note(node) {
    const list = node instanceof Element ? node.closest(".records") : node.parentElement && node.parentElement.closest(".records");
    if (list) {
      changed.add(list);
    } else if (node instanceof Element) {
      // A lane drawn anew brings its records with it.
      node.querySelectorAll(".records").forEach((l) => changed.add(l));
    }
  }

  new MutationObserver((mutations) => {
    for (const m of mutations) {
      note(m.target);
      m.addedNodes.forEach(note);
    }
    if (changed.size > 0 && !scheduled) {
      scheduled = true;
      requestAnimationFrame(follow);
    }
  }).observe(document.documentElement, {childList: true, subtree: true, attributes: true, attributeFilter: ["data-landed"]});
})();
