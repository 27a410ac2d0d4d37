// plog's first paint. The site generator writes the page as it first shows
// into the HTML, so it can paint before the wasm arrives; go-app's loader
// would cover it whole. The site's root holds the landing page (masthead,
// tools, lessons); a lesson's page (lessons/NAME.html) holds the lesson
// (its title, explanation and goal) and the picture of its starting
// scenario. When that written page is what the address shows (no scenario,
// lesson or embed in the fragment; at the root, no saved workspace to
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

  // The lesson the address names, as app/lesson_page.go reads it; "" at
  // the site's root.
  const page = /\/lessons\/([a-z0-9-]+)\.html$/.exec(window.location.pathname);
  const lesson = page ? page[1] : "";
  const fragment = window.location.hash.replace(/^#/, "");
  if (fragment !== "" || (lesson === "" && savedWorkspace())) {
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
