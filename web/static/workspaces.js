// plog's workspace holds. Each tab of the site works in a workspace of its
// own (app/autosave_tab.go): two tabs saving under one id would each write
// their own scenario over the other's, and the steps of the tab that wrote
// first would be in no storage at all. Before the page saves under an id it
// did not make itself (the one its tab had before a reload, the one saved
// last, one from Recent), it asks here whether another open tab holds it.
//
// Why a Web Lock: the browser lets a tab's locks go when the tab closes,
// reloads or crashes, so a lock held is a tab open, without a heartbeat to
// keep or to judge stale (timers in a background tab may wait a minute). A
// reload is the catch: the new page may ask before the browser has let the
// old page's lock go. So the page waits for the lock, rather than asking
// whether it is free, and a tab that holds it answers on a BroadcastChannel
// that it is open: the lock coming says the id is free, the answer that it
// is not. A tab frozen in the background answers nothing, hence the last
// resort, holdTimeout: long enough for a busy machine's browser to let a
// reloaded page's lock go, shorter than the page's own wait for an answer
// (promiseTimeout, wasm/browser_wasm.go). Where the browser has no Web
// Locks (an address that is not https or localhost), the answer alone
// decides: no answer within noLocksWait, and the id is taken.
//
// window.plogWorkspaces.hold(id) resolves to true once this page holds id
// (for as long as it is open, or until letGo(id)), false when another tab
// holds it; package wasm calls both.
(function () {
  "use strict";

  const holdTimeout = 8000; // ms
  const noLocksWait = 500; // ms

  const held = new Map(); // id → lets the hold go
  const asking = new Map(); // id → the pending hold's promise and its end
  const locks = navigator.locks && typeof navigator.locks.request === "function" ? navigator.locks : null;
  let channel = null;
  try {
    channel = new BroadcastChannel("plog.workspaces");
  } catch (err) {
    // No channel (an old browser, a sandboxed frame): the locks still hold.
  }

  function say(message) {
    if (channel) channel.postMessage(message);
  }

  if (channel) {
    channel.onmessage = (e) => {
      const m = e.data || {};
      if (typeof m.ask === "string" && held.has(m.ask)) say({ open: m.ask });
      if (typeof m.open === "string" && asking.has(m.open)) asking.get(m.open).end(false);
    };
  }

  function hold(id) {
    id = String(id);
    if (held.has(id)) return Promise.resolve(true);
    if (asking.has(id)) return asking.get(id).promise;
    let end;
    const promise = new Promise((resolve) => {
      const abort = typeof AbortController === "function" ? new AbortController() : null;
      let done = false;
      end = (ok, release) => {
        if (done) {
          if (release) release(); // the lock came after the answer: let it go at once
          return;
        }
        done = true;
        asking.delete(id);
        clearTimeout(timer);
        if (ok) {
          held.set(id, release || (() => {}));
          say({ open: id }); // for a tab that asked while this one waited
        } else if (abort) {
          abort.abort();
        }
        resolve(ok);
      };
      const timer = setTimeout(() => end(!locks), locks ? holdTimeout : noLocksWait);
      if (locks) {
        const options = abort ? { signal: abort.signal } : {};
        locks.request("plog.workspace " + id, options, () =>
          new Promise((release) => end(true, release))
        ).catch(() => end(false));
      }
    });
    asking.set(id, { promise, end });
    say({ ask: id });
    return promise;
  }

  function letGo(id) {
    id = String(id);
    if (asking.has(id)) asking.get(id).end(false);
    const release = held.get(id);
    held.delete(id);
    if (release) release();
  }

  // A page the browser brings back from its back-forward cache may have
  // been away while another tab took its workspace: it starts again, and
  // asks again.
  window.addEventListener("pageshow", (e) => {
    if (e.persisted) location.reload();
  });

  window.plogWorkspaces = Object.freeze({ hold, letGo });
})();
