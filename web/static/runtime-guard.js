// plog's runtime guard. The page is a Go program compiled to WebAssembly.
// Should that program ever stop (it ran out of memory: a wasm page has
// 4 GiB at most, and a browser may give it less; a bug that traps; the wasm
// that would not download or compile), nothing on the page answers any
// more: it would stay on "Opening the scenario…", every click would throw
// "Go program has already exited", and a link opened in the tab would show
// nothing, since only the Go program reads a new fragment.
//
// So this script, which runs before go-app's app.js, watches the program:
// its exit (go.exit, which Go's runtime calls on a fatal error such as
// running out of memory), its run's promise, the traps that reach the
// window, and the start's failure. Once it stops, the page says so in plain
// words and offers to open the scenario saved last, or an empty one; the
// rest of the page is made inert. A new link opened in the tab (a changed
// fragment) reloads the page, which starts a new program: a stopped one
// cannot start again in place.
//
// The site generator (serve.go, watchTheRuntime) makes app.js start the
// program through plogRunWasm and report a failed start to plogWasmFailed.
(function () {
  "use strict";

  const exited = /Go program has already exited/;
  let stopped = false;

  // The site's root: this script is at web/static/ under it.
  const root = new URL("../../", document.currentScript ? document.currentScript.src : location.href).href;
  // Opened with no link at the root (not a lesson's page, which opens its
  // lesson), the page reopens the scenario saved last.
  const openedBare = location.hash === "" && !/\/lessons\/[^/]+\.html$/.test(location.pathname);

  window.plogRunWasm = function (go, instance) {
    const exit = go.exit;
    go.exit = function (code) {
      exit.call(go, code);
      stop("the page's program exited with code " + code);
    };
    let run;
    try {
      run = go.run(instance);
    } catch (err) {
      stop(String(err));
      return;
    }
    Promise.resolve(run).then(
      () => stop("the page's program ended"),
      (err) => stop(String(err))
    );
  };

  // A start that failed (the wasm would not download or compile): go-app's
  // loader, a curtain over the page or a strip at its foot, already shows
  // the error; it says it in words, and the page as written stays readable.
  window.plogWasmFailed = function (err) {
    stopped = true;
    document.documentElement.dataset.runtime = "failed";
    const label = document.getElementById("app-wasm-loader-label");
    if (label) {
      label.textContent = "plog could not load (" + err + "): reload the page to try again.";
      label.setAttribute("role", "alert");
    }
  };

  function isTrap(err, message) {
    return (typeof WebAssembly === "object" && err instanceof WebAssembly.RuntimeError) || exited.test(message || "");
  }

  window.addEventListener("error", (e) => {
    if (stopped) {
      // What still calls into the stopped program throws this; the page
      // has said what happened.
      if (exited.test(e.message || "")) e.preventDefault();
      return;
    }
    if (isTrap(e.error, e.message)) stop(String(e.error || e.message));
  });
  window.addEventListener("unhandledrejection", (e) => {
    const message = e.reason && e.reason.message;
    if (stopped) {
      if (exited.test(message || "")) e.preventDefault();
      return;
    }
    if (isTrap(e.reason, message)) stop(String(e.reason));
  });

  // A link opened in the tab: only a new program can open it.
  window.addEventListener("hashchange", () => {
    if (stopped) location.reload();
  });

  // saved says whether the page, opened at the site's root, reopens a
  // scenario: the one this tab had, or the one saved last (as
  // first-paint.js reads them).
  function saved() {
    try {
      const raw = sessionStorage.getItem("plog.tab") || localStorage.getItem("plog.workspace");
      return !!(raw && JSON.parse(raw).fragment);
    } catch (err) {
      return false;
    }
  }

  // openEmpty opens the site's root as a new, empty workspace: the tab's
  // workspace (app/autosave_tab.go) is one of no scenario, which the page
  // reopens at the root in place of the one saved last.
  function openEmpty() {
    try {
      const id = Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
      sessionStorage.setItem("plog.tab", JSON.stringify({ id: id, fragment: "" }));
    } catch (err) {
      // No storage: the root opens what it would.
    }
    location.assign(root);
  }

  function button(text, onClick, primary) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (primary) b.className = "primary";
    b.addEventListener("click", onClick);
    return b;
  }

  function stop(why) {
    if (stopped) return;
    stopped = true;
    console.error("plog: the page stopped: " + why);
    const show = () => {
      const ready = !!document.querySelector('main[data-ready="true"]');
      // Opened at the root with no link, the page reopens what was saved
      // last: if it stopped before it was ready, that is what stopped it.
      const reopenable = saved() && !(openedBare && !ready);
      const veil = document.createElement("div");
      veil.className = "runtime-stopped";
      const notice = document.createElement("div");
      notice.setAttribute("role", "alert");
      notice.setAttribute("aria-labelledby", "runtime-stopped-title");
      const title = document.createElement("h2");
      title.id = "runtime-stopped-title";
      title.textContent = "The playground stopped";
      const what = document.createElement("p");
      what.textContent = "The scenario asked for more than this browser tab can give (it ran out of memory), or the playground hit a bug. It cannot go on in this page, but nothing saved in this browser is lost.";
      // A link in the address bar: pasting the same one again changes no
      // fragment, so nothing would happen; a button opens it again.
      const fromLink = /^#(v1\.|lesson=)/.test(location.hash);
      const next = document.createElement("p");
      next.textContent = (reopenable
        ? "Open the scenario saved last, start an empty one, or paste a link into the address bar."
        : "Start an empty scenario, or paste a link into the address bar.") +
        (fromLink ? " Opening this page's link again may stop it again, if the link asks for too much." : "");
      const actions = document.createElement("p");
      actions.className = "runtime-stopped-actions";
      const first = reopenable
        ? button("Open the scenario saved last", () => location.assign(root), true)
        : button("Start an empty scenario", openEmpty, true);
      first.dataset.runtimeAction = reopenable ? "reopen" : "empty";
      actions.append(first);
      if (reopenable) {
        const empty = button("Start an empty scenario", openEmpty, false);
        empty.dataset.runtimeAction = "empty";
        actions.append(empty);
      }
      if (fromLink) {
        const again = button("Open this link again", () => location.reload(), false);
        again.dataset.runtimeAction = "reload";
        actions.append(again);
      }
      notice.append(title, what, next, actions);
      veil.append(notice);
      // What is left of the page no longer answers: it is made inert, and
      // the loader and the opening note go.
      for (const el of document.body.children) el.inert = true;
      for (const el of document.querySelectorAll("#app-wasm-loader, main .opening")) el.hidden = true;
      document.documentElement.dataset.runtime = "stopped";
      document.body.append(veil);
      first.focus();
    };
    if (document.body) show();
    else document.addEventListener("DOMContentLoaded", show);
  }
})();
