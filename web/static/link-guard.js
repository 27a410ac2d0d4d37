// plog's link guard. A link may come from anywhere, and a stray '%' in its
// fragment ("#v1.abc%", "#%zz") makes the page's URL unreadable to Go's
// url.Parse, on which go-app reads the location: the page would die on a
// typo. This script runs before go-app, and again before go-app hears of a
// new fragment, and escapes each such '%' as "%25". The page then reads the
// fragment as the text it is, and says what is wrong with it.
(function () {
  "use strict";

  const strayPercent = /%(?![0-9A-Fa-f]{2})/g;

  function escapeStrayPercents() {
    const fragment = location.hash.slice(1);
    if (!strayPercent.test(fragment)) return;
    strayPercent.lastIndex = 0;
    history.replaceState(history.state, "", "#" + fragment.replace(strayPercent, "%25"));
  }

  escapeStrayPercents();
  // Registered before go-app's own listeners, so these run first.
  window.addEventListener("popstate", escapeStrayPercents);
  window.addEventListener("hashchange", escapeStrayPercents);
})();
