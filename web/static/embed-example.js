// The sample course page's script (web/static/embed.html). Its first
// listener is the README's course-page snippet, word for word (a browser
// test reads the README and holds them together): it sizes each frame to
// the height its playground tells, so the frame shows all of it.
//
// Each plog frame tells its content's height: show it all (up to 2000 px).
addEventListener("message", (e) => {
  if (!e.data || e.data.source !== "plog" || e.data.type !== "height") return;
  for (const frame of document.querySelectorAll("iframe")) {
    if (frame.contentWindow === e.source) frame.style.height = Math.min(e.data.height, 2000) + "px";
  }
});

// Under each embedded playground, the page shows the last message the
// playground posted: a course page can do the same to follow a learner's
// progress ({source: "plog", type: "ready" | "step" | "solved", step, steps,
// lesson, and when solved lessonId and link}), and keeps the last height told on the frame
// (data-content-height).
addEventListener("message", (e) => {
  const m = e.data;
  if (!m || m.source !== "plog") return;
  for (const frame of document.querySelectorAll("iframe")) {
    if (frame.contentWindow !== e.source) continue;
    if (m.type === "height") {
      frame.dataset.contentHeight = String(m.height);
      frame.dataset.heightsTold = String(Number(frame.dataset.heightsTold || 0) + 1);
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
