// The sample course page's listener: it shows, under each embedded
// playground, the last message the playground posted. A course page can do
// the same to follow a learner's progress: messages have the form
// {source: "plog", type: "ready" | "step" | "solved", step, steps, lesson}.
(function () {
  "use strict";

  window.addEventListener("message", (event) => {
    const m = event.data;
    if (!m || m.source !== "plog") return;
    for (const frame of document.querySelectorAll("iframe")) {
      if (frame.contentWindow !== event.source) continue;
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
