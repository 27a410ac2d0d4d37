// plog's forms in a sandbox. An iframe sandboxed without allow-forms (as
// with sandbox="allow-scripts") never submits a form: the browser drops the
// submission before it fires the submit event, and every control of the
// page listens for that event. This script takes over submission: a click
// on a submit button (which Enter in a text box makes too) fires the
// form's submit event itself, and the browser's own submission, which
// would only reload the page, does not happen. Outside a sandbox the page
// behaves as before: its submit handlers never let a form navigate.
(function () {
  "use strict";

  document.addEventListener("click", (event) => {
    const target = event.target;
    const button = target && target.closest ? target.closest("button, input[type=submit]") : null;
    if (!button || button.type !== "submit" || !button.form || button.disabled) return;
    event.preventDefault();
    button.form.dispatchEvent(new SubmitEvent("submit", { bubbles: true, cancelable: true, submitter: button }));
  }, true);
})();
