// Records travel. A produced record flies from its producer to its lane,
// and a record a poll read flies from its lane to the card of the member
// that read it, so that a learner sees where each went, not only that a
// lane or a card changed.
//
// The page marks what the last command did on the records themselves
// (app/partition_lane.go): data-landed on what it produced, data-read with
// data-read-group and data-read-member on what a poll read. This script
// only draws the journey, a copy of the record moving over the page, which
// is decoration over those marks (motion.css draws them still): with
// prefers-reduced-motion: reduce, nothing flies.
//
// Where a produced record comes from: the named producer's card the
// learner sent it through (a button on the card, or the produce form with
// that producer chosen), else the producer workload that writes to its
// topic ([data-writes-to]), both drawn beside the lanes, else the button
// or box the learner just used (Produce, a quick-produce button, the
// command line), else nowhere, and it does not fly. A journey whose either end is out of
// the window is not drawn. At most a few records fly per command: a
// thousand copies moving would hide what they show.
//
// window.plogFlights keeps the last journeys drawn (kind, and the centres
// they went from and to), for the browser tests.
(function () {
  "use strict";

  const reduce = window.matchMedia("(prefers-reduced-motion: reduce)");
  const perCommand = 6; // journeys drawn for one command, of each kind
  const stagger = 70; // ms between two journeys of one command
  const duration = 650; // ms of one journey
  const pressedFor = 5000; // ms a pressed control stays a produce's origin
  const kept = 40; // journeys window.plogFlights keeps

  window.plogFlights = [];
  // pressed is the control the learner used last: {element, producer,
  // at}, producer the name of the named producer it sends through, read
  // when pressed: the card's form may be drawn anew by what it sends.
  let pressed = null;

  // The pointer's press is remembered too: a click can reach here after
  // the page drew its control anew, out of the card it was on.
  function remember(event) {
    const control = event.target.closest && event.target.closest("button, input, select");
    if (!control) return;
    let producer = producerOf(control);
    if (!control.isConnected && pressed && performance.now() - pressed.at < pressedFor) producer = pressed.producer;
    pressed = { element: control, producer: producer, at: performance.now() };
  }
  document.addEventListener("pointerdown", remember, true);
  document.addEventListener("click", remember, true);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Enter") remember(event);
  }, true);

  function inWindow(r) {
    return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 &&
      r.top < window.innerHeight && r.left < window.innerWidth;
  }

  function centre(r) {
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  // origin is where a record produced to topic starts from.
  function origin(topic) {
    const recent = pressed && performance.now() - pressed.at < pressedFor;
    const card = recent && pressed.producer && document.querySelector(
      '[data-producer-column] [data-producer="' + CSS.escape(pressed.producer) + '"]');
    if (card) return card.getBoundingClientRect();
    for (const actor of document.querySelectorAll("[data-producer-column] [data-writes-to]")) {
      if (actor.dataset.writesTo === topic) return actor.getBoundingClientRect();
    }
    return recent && pressed.element.isConnected ? pressed.element.getBoundingClientRect() : null;
  }

  // producerOf is the named producer a control sends through: the one
  // whose card the control is on, or the one the produce form's producer
  // select names; "" for none.
  function producerOf(control) {
    const on = control.closest("[data-producer-column] [data-producer]");
    if (on) return on.dataset.producer;
    const form = control.closest("form");
    const chosen = form && form.querySelector("#produce-producer");
    return chosen ? chosen.value : "";
  }

  // destination is the card of the member that read a record.
  function destination(record) {
    const group = record.dataset.readGroup, member = record.dataset.readMember;
    if (!group || !member) return null;
    const card = document.querySelector(
      'article[data-group="' + CSS.escape(group) + '"] [data-member="' + CSS.escape(member) + '"]');
    return card ? card.getBoundingClientRect() : null;
  }

  // fly draws a copy of record moving from one box to another: it starts
  // at from and settles on the record (kind "produce"), or leaves the
  // record and shrinks into to ("read").
  function fly(kind, record, from, to, delay) {
    // A copy to look at only: no id, mark or name of the record's, and
    // nothing in it a keyboard or a screen reader reaches.
    const ghost = record.cloneNode(true);
    for (const el of [ghost, ...ghost.querySelectorAll("*")]) {
      for (const name of Array.from(el.attributes).map(a => a.name)) {
        if (name === "id" || name === "title" || name === "tabindex" || name.startsWith("data-") || name.startsWith("aria-")) el.removeAttribute(name);
      }
    }
    ghost.inert = true;
    ghost.classList.remove("landed");
    ghost.classList.add("flight");
    ghost.setAttribute("aria-hidden", "true");
    const box = record.getBoundingClientRect();
    Object.assign(ghost.style, {
      position: "fixed", left: box.left + "px", top: box.top + "px", width: box.width + "px",
      height: box.height + "px", margin: "0", pointerEvents: "none", zIndex: "60", animation: "none",
    });
    const a = centre(from), b = centre(to), here = centre(box);
    const start = kind === "produce" ? a : here;
    const end = kind === "produce" ? here : b;
    const shift = p => "translate(" + (p.x - here.x) + "px, " + (p.y - here.y) + "px)";
    const frames = kind === "produce"
      ? [{ transform: shift(start) + " scale(0.8)", opacity: 0.85 }, { transform: "none", opacity: 1 }]
      : [{ transform: "none", opacity: 1 }, { transform: shift(end) + " scale(0.5)", opacity: 0.2 }];
    document.body.appendChild(ghost);
    const motion = ghost.animate(frames, { duration: duration, delay: delay, easing: "ease-in-out", fill: "both" });
    if (kind === "produce") {
      // The record itself shows once its copy has arrived: one record on
      // its way, not two. An animation, not a style: the page owns the
      // record's attributes.
      record.animate([{ opacity: 0 }, { opacity: 0, offset: 0.97 }, { opacity: 1 }], { duration: delay + duration });
    }
    const done = () => ghost.remove();
    motion.onfinish = done;
    motion.oncancel = done;
    setTimeout(done, delay + duration + 500); // a hidden tab may never finish it
    window.plogFlights.push({ kind: kind, from: start, to: end });
    if (window.plogFlights.length > kept) window.plogFlights.shift();
  }

  // Records marked since the last pass, in the order they were marked.
  let landed = [], read = [], scheduled = false;

  function take(record) {
    if (record.matches(".record[data-landed]")) landed.push(record);
    if (record.matches(".record[data-read-member]")) read.push(record);
  }

  function pass() {
    scheduled = false;
    const produced = landed.filter(r => r.isConnected), reads = read.filter(r => r.isConnected);
    landed = [];
    read = [];
    if (reduce.matches) return;
    let n = 0;
    for (const record of produced) {
      if (n === perCommand) break;
      const lane = record.closest("[data-topic]");
      const from = lane && origin(lane.dataset.topic);
      const box = record.getBoundingClientRect();
      if (!from || !inWindow(from) || !inWindow(box)) continue;
      fly("produce", record, from, box, n * stagger);
      n++;
    }
    n = 0;
    for (const record of reads) {
      if (n === perCommand) break;
      const to = destination(record);
      const box = record.getBoundingClientRect();
      if (!to || !inWindow(to) || !inWindow(box)) continue;
      fly("read", record, box, to, n * stagger);
      n++;
    }
  }

  // Two frames on: the lanes have scrolled to what landed
  // (lanes-follow.js) and the page has laid out.
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => requestAnimationFrame(pass));
  }

  new MutationObserver(function (mutations) {
    for (const m of mutations) {
      if (m.type === "attributes") {
        // A mark set, or set again on a record drawn in the same element.
        if (m.target.getAttribute(m.attributeName) !== null) take(m.target);
        continue;
      }
      for (const node of m.addedNodes) {
        if (node.nodeType !== 1) continue;
        take(node);
        for (const record of node.querySelectorAll(".record[data-landed], .record[data-read-member]")) take(record);
      }
    }
    if (landed.length > 0 || read.length > 0) schedule();
  }).observe(document.documentElement, {
    subtree: true, childList: true, attributes: true,
    attributeFilter: ["data-landed", "data-read-member"],
  });
})();
