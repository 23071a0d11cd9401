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

  // The print pages' "Print" button.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-print]") : null;
    if (button) {
      event.preventDefault();
      window.print();
    }
  });
})();
