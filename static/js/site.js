/* Behaviour of every page, kept out of the HTML: the Content-Security-Policy runs no inline script
   or event-handler attribute. */
(function () {
  "use strict";

  // The language switcher (and any other select marked data-autosubmit) submits on change;
  // without JavaScript its <noscript> button does.
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.matches && target.matches("select[data-autosubmit]") && target.form) {
      target.form.submit();
    }
  });

  // Folded sections (a list's filters) open where there is room; on a phone they start folded,
  // so that the list itself is on the first screen. They follow the window when it crosses that
  // width (a tablet turned).
  if (window.matchMedia) {
    var wide = window.matchMedia("(min-width: 576px)");
    var unfold = function () {
      document.querySelectorAll("details[data-open-wide]").forEach(function (details) {
        details.open = wide.matches;
      });
    };
    if (wide.matches) unfold();
    wide.addEventListener("change", unfold);
  }

  // The print pages' "Print" button.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-print]") : null;
    if (button) {
      event.preventDefault();
      window.print();
    }
  });
})();
