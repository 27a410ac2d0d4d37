// plog's theme, set before the page draws: html[data-theme=light|dark], or
// no data-theme to follow the system. An embed's &theme= in the URL
// fragment wins (a teacher's dark course page asks for dark); otherwise the
// choice the masthead's Theme button stored (app/theme_toggle.go) is used.
// Storage is read in a try: in a frame sandboxed without allow-same-origin
// it throws, and the page must still open.
(function () {
  "use strict";

  const themes = ["light", "dark", "system"];
  let choice = "";
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const [name, value] = part.split("=");
    if (name === "theme" && themes.includes(value)) choice = value;
  }
  if (!choice) {
    try {
      const stored = window.localStorage.getItem("plog.theme");
      if (themes.includes(stored)) choice = stored;
    } catch (err) {
      // No storage here: follow the system.
    }
  }
  if (choice === "light" || choice === "dark") {
    document.documentElement.dataset.theme = choice;
  }
})();
