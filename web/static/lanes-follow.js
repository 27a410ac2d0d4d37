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
// The work is one pass a frame over the lanes that changed or scrolled:
// first every width and position read, then every scroll and mark written,
// so that the page lays out once.
(function () {
  "use strict";

  // A lane within this many pixels of its end is at its end: a zoomed page
  // rounds scroll positions to fractions of a pixel.
  const slack = 8;

  // Lanes the learner took off their end. A lane not in it follows.
  const heldBack = new WeakSet();
  const changed = new Set(); // lanes whose records changed
  const scrolled = new Set(); // lanes scrolled
  let scheduled = false;

  // measure reads what a pass needs of a lane, before any lane is written:
  // its scroll, its end (scrollWidth - clientWidth), and, when it has more
  // records than it shows, where each record lies against its edges.
  function measure(list) {
    const end = list.scrollWidth - list.clientWidth;
    const m = {list: list, end: end, left: list.scrollLeft, body: null, records: null};
    const body = list.parentElement;
    if (!body || !body.classList.contains("lane-body")) return m;
    m.body = body;
    if (end > slack) {
      const box = list.getBoundingClientRect();
      m.records = [];
      for (const record of list.querySelectorAll(":scope > .record")) {
        const r = record.getBoundingClientRect();
        m.records.push({left: r.left - box.left, right: r.right - box.right});
      }
    }
    return m;
  }

  // markMore writes which sides of a lane hide records, as it stands once
  // scrolled to left: data-more on the lane, which plog.css fades, and on
  // the lane's body how many records are out of sight on each side
  // (data-hidden-right, data-hidden-left), which plog.css says over that
  // edge: "3 more ▶". It reads nothing: a read after another lane's write
  // would lay the page out again.
  function markMore(m, left) {
    const more = [];
    if (left > slack) more.push("left");
    if (left < m.end - slack) more.push("right");
    if (m.body) {
      let hiddenLeft = 0, hiddenRight = 0;
      if (more.length > 0 && m.records) {
        // A record moves left by as much as the lane scrolled right.
        const moved = left - m.left;
        for (const r of m.records) {
          if (r.right - moved > 1) hiddenRight++;
          else if (r.left - moved < -1) hiddenLeft++;
        }
      }
      setCount(m.body, "hiddenRight", hiddenRight);
      setCount(m.body, "hiddenLeft", hiddenLeft);
    }
    const value = more.join(" ");
    if ((m.list.dataset.more || "") === value) return;
    if (value) m.list.dataset.more = value;
    else delete m.list.dataset.more;
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

  // A lane's scroll, the learner's or this script's, is weighed in the
  // frame's pass with the lanes that changed, which comes after the
  // frame's scroll events: one lane's read after another's write would lay
  // the page out once a lane.
  document.addEventListener("scroll", (e) => {
    const list = e.target;
    if (!(list instanceof Element) || !list.classList.contains("records")) return;
    scrolled.add(list);
    schedule();
  }, {capture: true, passive: true});

  function follow() {
    scheduled = false;
    const grown = new Set(changed), moved = new Set(scrolled);
    const lists = new Set([...grown, ...moved]);
    changed.clear();
    scrolled.clear();
    // Read every lane, then write: the page lays out once, for the first
    // read, as the frame would have anyway.
    const measured = [];
    lists.forEach((list) => {
      if (list.isConnected) measured.push(measure(list));
    });
    for (const m of measured) {
      const list = m.list;
      if (moved.has(list)) {
        if (m.left >= m.end - slack) heldBack.delete(list);
        else heldBack.add(list);
      }
      let left = m.left;
      const follows = grown.has(list) && !heldBack.has(list) && list.querySelector("[data-landed]") !== null;
      if (follows && m.end > 0 && left < m.end) {
        list.scrollLeft = m.end;
        left = m.end;
      }
      markMore(m, left);
    }
  }

  function schedule() {
    if ((changed.size > 0 || scrolled.size > 0) && !scheduled) {
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
