// The sample course page's listener. Under each embedded playground it
// shows the last message the playground posted: a course page can do the
// same to follow a learner's progress ({source: "plog", type: "ready" |
// "step" | "solved", step, steps, lesson}). And it sizes each frame to the
// height the playground reports ({source: "plog", type: "height", height}),
// so the frame shows all of it without a scroll bar of its own.
(function () {
  "use strict";

  // The tallest a frame is made, whatever it asks: a page's layout that
  // grows with its frame cannot make the frame grow without end.
  const maxHeight = 2000;

  window.addEventListener("message", (event) => {
    const m = event.data;
    if (!m || m.source !== "plog") return;
    for (const frame of document.querySelectorAll("iframe")) {
      if (frame.contentWindow !== event.source) continue;
      if (m.type === "height") {
        const height = Math.min(Math.max(Number(m.height) || 0, 200), maxHeight);
        frame.style.height = height + "px";
        frame.dataset.contentHeight = String(m.height);
        return;
      }
      const out = document.querySelector('[data-messages-of="' + frame.id + '"]');
      if (!out) return;
      out.textContent = m.type + ": step " + m.step + " of " + m.steps + (m.lesson ? " (lesson " + m.lesson + ")" : "");
      out.dataset.type = m.type;
      out.dataset.step = String(m.step);
      out.dataset.steps = String(m.steps);
      out.dataset.count = String(Number(out.dataset.count || 0) + 1);
      return;
    }
  });
})();
