// An embedded playground (&embed=1 in the fragment) starts its Go runtime
// only when its frame comes into view or is touched, so that a course page
// of ten embeds does not start ten runtimes at once. Any other page starts
// at once, as before.
//
// The site generator (serve.go, startWasmWhenShown) makes go-app's app.js
// call plogStartWasm(goappInitWebAssembly) where it called
// goappInitWebAssembly(); this script, which runs before the deferred app.js,
// defines it. Until the runtime starts, the frame shows go-app's loader with
// a note that it starts when shown, and the document carries
// data-starts-when-shown.
//
// In view means that a quarter of the frame shows in the top-level window:
// an IntersectionObserver in the frame's own document, with no root, measures
// against the top-level viewport, also when the frame is of another origin.
// It watches go-app's loader, which covers the frame's whole viewport. A
// pointerdown, keydown or focus in the frame starts it too, whatever shows.
(function () {
  "use strict";

  function embedded() {
    // The parameters after the link, as core/scenario/fragment.go reads
    // them, or a lesson's embedded page (app/lesson_page.go).
    return window.location.hash.replace(/^#/, "").split("&").some((p) => p === "embed=1" || p === "embed=true") ||
      /\/embed\/lessons\/[a-z0-9-]+\.html$/.test(window.location.pathname);
  }

  window.plogStartWasm = function (start) {
    const loader = document.getElementById("app-wasm-loader");
    if (!embedded() || !loader || typeof IntersectionObserver !== "function") {
      start();
      return;
    }
    const root = document.documentElement;
    const label = document.getElementById("app-wasm-loader-label");
    root.dataset.startsWhenShown = "true";
    if (label) label.textContent = "Starts when shown: scroll to it or click it";
    // One Tab stop until it starts: the loader, which the focus starts;
    // the page written under it (not this frame's scenario) takes none.
    // embed-keys.js hands the focus on to the playground once it is ready.
    const written = document.body.firstElementChild;
    if (written && written !== loader) written.inert = true;
    loader.tabIndex = 0;
    loader.setAttribute("role", "button");
    loader.setAttribute("aria-label", "Start this playground");

    let started = false;
    const gestures = ["pointerdown", "keydown", "focus"];
    let observer = null;
    function go() {
      if (started) return;
      started = true;
      if (observer) observer.disconnect();
      for (const g of gestures) window.removeEventListener(g, go, true);
      delete root.dataset.startsWhenShown;
      if (written) written.inert = false;
      loader.removeAttribute("tabindex");
      loader.removeAttribute("role");
      loader.removeAttribute("aria-label");
      start();
    }
    for (const g of gestures) window.addEventListener(g, go, true);
    observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting && e.intersectionRatio >= 0.25)) go();
    }, { threshold: 0.25 });
    observer.observe(loader);
  };
})();
