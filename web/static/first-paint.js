// plog's first paint. The site generator writes the page as it first shows,
// the landing page (masthead, tools, lessons), into index.html, so it can
// paint before the wasm arrives; go-app's loader would cover it whole. When
// that written page is what the address shows (no scenario, lesson or
// embed in the fragment, no saved workspace to reopen), this marks the
// document plog-first-paint, and web/static/first-paint.css turns the loader
// into a strip at the foot of the window; the live page then takes over
// the same layout. Otherwise the loader covers the page as before: the
// written page would show something other than what comes.
(function () {
  "use strict";

  function savedWorkspace() {
    try {
      const raw = window.localStorage.getItem("plog.workspace"); // workspaceKey, app/autosave.go
      return !!(raw && JSON.parse(raw).Fragment);
    } catch (e) {
      return false; // no storage here, or a workspace the page cannot read either
    }
  }

  const fragment = window.location.hash.replace(/^#/, "");
  if (fragment === "" && !savedWorkspace()) {
    document.documentElement.classList.add("plog-first-paint");
  }
})();
