// The keyboard in an embedded playground (embed=1), so that a course page of
// several frames can be read with the Tab key:
//
// - A read-only frame (readonly=1) is one Tab stop: Tab reaches its step
//   bar's first button, and the next Tab (Shift+Tab, the one before) leaves
//   the frame for the course page. Within the bar (role=toolbar) the arrow
//   keys, Home and End move between its buttons; Enter or Space presses one.
// - An editable frame starts with a "Skip this playground" button: it moves
//   the focus to the frame's end, from where the next Tab leaves the frame.
//
// Leaving works from inside the frame alone, whatever the course page's
// origin: the focus is put on a mark at the very end of the document
// (Shift+Tab: on the bar's brand, which nothing tabbable precedes), and the
// browser's own Tab then moves on from there, out of the frame. Coming back
// with Shift+Tab lands on the end mark, which hands the focus to the bar.
(function () {
  "use strict";

  function embedded() {
    // The parameters after the link, as core/scenario/fragment.go reads
    // them, or a lesson's embedded page (app/lesson_page.go).
    return window.location.hash.replace(/^#/, "").split("&").some((p) => p === "embed=1" || p === "embed=true") ||
      /\/embed\/lessons\/[a-z0-9-]+\.html$/.test(window.location.pathname);
  }
  if (!embedded()) return;

  let leaving = false;
  let end = null;

  function endMark() {
    if (end && end.isConnected) return end;
    end = document.createElement("span");
    end.className = "embed-end";
    // Out of sight, and out of the page's height (fixed, not absolute: the
    // height the frame tells its course page must not count it).
    end.style.cssText = "position: fixed; top: 0; left: 0; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap;";
    end.tabIndex = 0;
    end.textContent = "End of the playground";
    end.dataset.embedEnd = "true";
    end.addEventListener("focus", () => {
      if (leaving) return;
      // Shift+Tab from the course page: into the frame at its bar.
      if (readOnly()) focusBar(0);
    });
    document.body.appendChild(end);
    return end;
  }

  function main() {
    return document.querySelector("main.playground");
  }
  function readOnly() {
    const m = main();
    return !!m && m.dataset.embed === "true" && m.dataset.readonly === "true";
  }
  function barButtons() {
    return Array.from(document.querySelectorAll(".embed-bar > button:not([disabled])"))
      .filter((b) => b.offsetParent !== null && !b.classList.contains("embed-skip"));
  }
  function focusBar(i) {
    const buttons = barButtons();
    if (!buttons.length) return;
    buttons[Math.max(0, Math.min(i, buttons.length - 1))].focus();
  }

  // leave puts the focus where the browser's own Tab, which follows this
  // keydown, takes it out of the frame (or, for the skip button, where the
  // next Tab will). Until the focus moves on from there, the end mark does
  // not hand it back to the bar. Not a timer: a frame's timers may wait
  // longer than the reader does.
  function leave(back) {
    const from = back ? document.querySelector(".embed-brand") : endMark();
    if (!from) return;
    leaving = true;
    from.addEventListener("blur", () => { leaving = false; }, { once: true });
    from.focus({ preventScroll: true });
  }

  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "Tab" && readOnly()) {
      leave(e.shiftKey);
      return;
    }
    const bar = e.target instanceof Element && e.target.closest(".embed-bar");
    if (!bar || !(e.target instanceof HTMLButtonElement)) return;
    const buttons = barButtons();
    const at = buttons.indexOf(e.target);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    buttons[(to + buttons.length) % buttons.length].focus();
  }, true);

  // The skip button (app/embed_bar.go draws it in an editable frame).
  document.addEventListener("click", (e) => {
    if (!(e.target instanceof Element) || !e.target.closest(".embed-skip")) return;
    e.preventDefault();
    leave(false);
  }, true);

  // A frame that started from the focus (a Tab into it, embed-start.js)
  // had it on its loader: once the playground is ready, the focus goes on
  // to the bar (a read-only frame) or the skip button, where a Tab into a
  // started frame lands. Only in a frame: opened alone, the page has the
  // focus from the start, and the skip button, shown when focused, would
  // grow the bar under a reader who has been reading the written page.
  const framed = window.self !== window.top;
  function handOn() {
    const m = document.querySelector('main.playground[data-ready="true"]');
    if (!m) return false;
    const at = document.activeElement;
    if (framed && document.hasFocus() && (!at || at === document.body || at.id === "app-wasm-loader")) {
      const skip = document.querySelector(".embed-skip");
      if (readOnly() || !skip) focusBar(0);
      else skip.focus();
    }
    return true;
  }

  function start() {
    endMark();
    if (handOn()) return;
    const watch = new MutationObserver(() => {
      if (handOn()) watch.disconnect();
    });
    watch.observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
