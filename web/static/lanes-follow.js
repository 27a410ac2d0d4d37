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
// A lane that holds more records than it shows says so: its data-more
// names the sides where records are out of sight ("left", "right"), and
// plog.css fades that edge, so that a learner knows the lane scrolls.
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

  // markMore writes which sides of a lane hide records, from its scroll
  // and its end (scrollWidth - clientWidth, read before).
  function markMore(list, end) {
    const more = [];
    if (list.scrollLeft > slack) more.push("left");
    if (list.scrollLeft < end - slack) more.push("right");
    markHidden(list, more);
    const value = more.join(" ");
    if ((list.dataset.more || "") === value) return;
    if (value) list.dataset.more = value;
    else delete list.dataset.more;
  }

  // markHidden writes on the lane's body how many records are out of
  // sight on each side (data-hidden-right, data-hidden-left), which
  // plog.css says over that edge: "3 more ▶".
  function markHidden(list, more) {
    const body = list.parentElement;
    if (!body || !body.classList.contains("lane-body")) return;
    let left = 0, right = 0;
    if (more.length > 0) {
      const box = list.getBoundingClientRect();
      for (const record of list.querySelectorAll(":scope > .record")) {
        const r = record.getBoundingClientRect();
        if (r.right > box.right + 1) right++;
        else if (r.left < box.left - 1) left++;
      }
    }
    setCount(body, "hiddenRight", right);
    setCount(body, "hiddenLeft", left);
  }

  function setCount(el, key, n) {
    const value = n > 0 ? String(n) : "";
    if ((el.dataset[key] || "") === value) return;
    if (value) el.dataset[key] = value;
    else delete el.dataset[key];
  }

  // A click on "3 more ▶" (the lane body's own box: the words are drawn
  // by its ::after) scrolls the lane most of its width that way.
  document.addEventListener("click", (e) => {
    const body = e.target;
    if (!(body instanceof Element) || !body.classList.contains("lane-body")) return;
    const list = body.querySelector(":scope > .records");
    if (!list) return;
    const box = body.getBoundingClientRect();
    const toRight = e.clientX > box.left + box.width / 2;
    if (toRight ? !body.dataset.hiddenRight : !body.dataset.hiddenLeft) return;
    const step = Math.max(list.clientWidth * 0.8, 40);
    list.scrollBy({left: toRight ? step : -step, behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth"});
  });

  document.addEventListener("scroll", (e) => {
    const list = e.target;
    if (!(list instanceof Element) || !list.classList.contains("records")) return;
    if (atEnd(list)) heldBack.delete(list);
    else heldBack.add(list);
    markMore(list, list.scrollWidth - list.clientWidth);
  }, {capture: true, passive: true});

  function follow() {
    scheduled = false;
    const lists = Array.from(changed).filter((list) => list.isConnected);
    changed.clear();
    // Read every width, then scroll: no layout between two scrolls.
    const ends = lists.map((list) => list.scrollWidth - list.clientWidth);
    lists.forEach((list, i) => {
      const follows = !heldBack.has(list) && list.querySelector("[data-landed]") !== null;
      if (follows && ends[i] > 0 && list.scrollLeft < ends[i]) list.scrollLeft = ends[i];
      markMore(list, ends[i]);
    });
  }

  function schedule() {
    if (changed.size > 0 && !scheduled) {
      scheduled = true;
      requestAnimationFrame(follow);
    }
  }

  // A wider or narrower window shows more or fewer of each lane's records.
  addEventListener("resize", () => {
    document.querySelectorAll(".records").forEach((l) => changed.add(l));
    schedule();
  }, {passive: true});

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
    schedule();
  }).observe(document.documentElement, {childList: true, subtree: true, attributes: true, attributeFilter: ["data-landed"]});
})();
