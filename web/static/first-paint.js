// plog's first paint. The site generator writes the page as it first shows
// into the HTML, so it can paint before the wasm arrives; go-app's loader
// would cover it whole. The site's root holds the landing page (masthead,
// tools, lessons); a lesson's page (lessons/NAME.html) holds the lesson
// (its title, explanation and goal) and the picture of its starting
// scenario, and a lesson's embedded page (embed/lessons/NAME.html) the
// same in an iframe's compact layout. When that written page is what the
// address shows (no scenario, lesson or embed in the fragment, on a
// lesson's page at most its colours; at the root, no saved workspace to
// reopen, which a lesson's page does not reopen), this marks the document
// plog-first-paint, and web/static/first-paint.css turns the loader into a
// strip at the foot of the window; the live page then takes over the same
// layout. Otherwise the loader covers the page as before: the written page
// would show something other than what comes. So it does where the page
// holds another lesson than the address names (the service worker,
// offline, answers a lesson's page it never fetched with the root's).
(function () {
  "use strict";

  // Whether the page, opened at the bare address, reopens a workspace: the
  // one this tab had (tabWorkspaceKey, app/autosave_tab.go), or else the one
  // saved last (workspaceKey, app/autosave.go).
  function savedWorkspace() {
    try {
      const tab = window.sessionStorage.getItem("plog.tab");
      const raw = tab || window.localStorage.getItem("plog.workspace");
      return !!(raw && JSON.parse(raw).id);
    } catch (e) {
      return false; // no storage here, or a workspace the page cannot read either
    }
  }

  // The lesson the address names, as app/lesson_page.go reads it, and
  // whether the address is its embedded page (embed/lessons/NAME.html);
  // "" at the site's root.
  const page = /\/(embed\/)?lessons\/([a-z0-9-]+)\.html$/.exec(window.location.pathname);
  const lesson = page ? page[2] : "";
  const embedPage = !!(page && page[1]);
  const fragment = window.location.hash.replace(/^#/, "");
  const params = fragment === "" ? [] : fragment.split("&");

  // The site's root opened on a built-in lesson embedded at its start
  // (#lesson=NAME&embed=1, no scenario of its own) opens the lesson's
  // embedded page, which the site generator wrote as the frame will show
  // it: the frame paints the lesson before the wasm arrives, where the
  // root's page could only cover itself with the loader. The other
  // parameters (theme=, readonly=...) go along.
  if (!page) {
    const names = document.querySelector('meta[name="plog-lessons"]');
    const builtIn = names ? names.content.split(" ") : [];
    const named = params.filter((p) => p.startsWith("lesson="));
    const embedded = params.some((p) => p === "embed=1" || p === "embed=true");
    const scenario = params.length > 0 && (params[0].startsWith("v1.") || params[0].indexOf("=") < 0);
    if (named.length === 1 && embedded && !scenario && builtIn.includes(named[0].slice("lesson=".length))) {
      const rest = params.filter((p) => !p.startsWith("lesson=") && p !== "embed=1" && p !== "embed=true");
      const to = new URL("embed/lessons/" + named[0].slice("lesson=".length) + ".html", window.location.href);
      to.hash = rest.join("&");
      window.location.replace(to.href);
      return;
    }
  }

  // A lesson's page shows as written under options that leave its picture
  // as it is: the colours (theme.js applies them before the page paints)
  // and, on its embedded page, embed=1 again.
  const asWritten = page && params.every((p) => p.startsWith("theme=") || (embedPage && (p === "embed=1" || p === "embed=true")));
  if (!asWritten && (fragment !== "" || (lesson === "" && savedWorkspace()))) {
    return;
  }
  const root = document.documentElement;
  root.classList.add("plog-first-paint");
  document.addEventListener("DOMContentLoaded", function () {
    const panel = document.querySelector("[data-lesson-panel]");
    if ((panel ? panel.dataset.lesson : "") !== lesson) {
      root.classList.remove("plog-first-paint");
    }
  });
})();
