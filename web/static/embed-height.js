// plog in a frame tells the page around it how tall its content is, so that
// a course page can size the iframe to it (web/static/embed-example.js does):
//
//   {source: "plog", type: "height", height: 612}
//
// height is the content's height in CSS pixels, a whole number. It is posted
// to the parent window only, once the page has loaded and whenever the
// height changes (a ResizeObserver on the body), never twice in a row with
// the same value. A page that is not in a frame posts nothing. The other
// messages (ready, step, solved) are in app/embed_messages.go.
(function () {
  "use strict";

  if (window.parent === window) return;
  let posted = -1;

  function post() {
    const body = document.body;
    if (!body) return;
    const height = Math.ceil(Math.max(body.scrollHeight, body.getBoundingClientRect().height));
    if (height === posted) return;
    posted = height;
    // Any origin may embed the page and the height is no secret: "*".
    window.parent.postMessage({ source: "plog", type: "height", height: height }, "*");
  }

  function start() {
    post();
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(post).observe(document.body);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
  window.addEventListener("load", post);
})();
