// plog's storage guard. In an iframe sandboxed without allow-same-origin,
// merely reading window.localStorage throws a SecurityError, and go-app reads
// it as it starts: the page would die before it shows anything. This script
// runs before go-app and, where a storage cannot be read, puts an in-memory
// one in its place: the page works, it just forgets on reload.
(function () {
  "use strict";

  function memoryStorage() {
    const items = new Map();
    return Object.freeze({
      get length() { return items.size; },
      key(i) { return i >= 0 && i < items.size ? Array.from(items.keys())[i] : null; },
      getItem(k) { return items.has(String(k)) ? items.get(String(k)) : null; },
      setItem(k, v) { items.set(String(k), String(v)); },
      removeItem(k) { items.delete(String(k)); },
      clear() { items.clear(); },
    });
  }

  const standIns = [];
  for (const name of ["localStorage", "sessionStorage"]) {
    try {
      window[name].length;
    } catch (err) {
      Object.defineProperty(window, name, { value: memoryStorage(), configurable: true });
      standIns.push(name);
      console.info("plog: " + name + " is not available here (" + err.name + "); using memory instead");
    }
  }
  // The same sandbox has no service worker: merely reading
  // navigator.serviceWorker throws. go-app registers one when the property
  // exists, and reports the failure as an error; without the property it
  // does not try, and the page works online only.
  try {
    navigator.serviceWorker;
  } catch (err) {
    delete Navigator.prototype.serviceWorker;
    console.info("plog: no service worker here (" + err.name + "); the page will not work offline");
  }

  // The page reads this to say, once, that it cannot keep the learner's work.
  if (standIns.length) {
    Object.defineProperty(window, "plogStorageStandIns", { value: Object.freeze(standIns) });
  }
})();
