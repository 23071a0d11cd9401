/* Result entry by keyboard: single keys choose a board's result, Enter saves it (htmx) and the
   focus moves on to the next board. The keys come from each radio's data-keys attribute, which
   the server renders from forms.RESULT_CONTROLS, so they are defined in one place. */
(function () {
  "use strict";

  function boardOf(element) {
    return element && element.closest ? element.closest("form[data-board]") : null;
  }

  function focusBoard(form) {
    if (!form) return;
    var radio = form.querySelector("input[name=result]:checked") || form.querySelector("input[name=result]");
    if (radio) radio.focus();
  }

  document.addEventListener("keydown", function (event) {
    var form = boardOf(event.target);
    if (!form || event.ctrlKey || event.altKey || event.metaKey) return;
    if (event.key === "Enter") {
      event.preventDefault();
      form.requestSubmit();
      return;
    }
    var radios = form.querySelectorAll("input[name=result]");
    for (var i = 0; i < radios.length; i++) {
      var keys = radios[i].getAttribute("data-keys").split(" ");
      if (keys.indexOf(event.key) !== -1 || keys.indexOf(event.key.toLowerCase()) !== -1) {
        event.preventDefault();
        radios[i].checked = true;
        radios[i].focus();
        return;
      }
    }
  });

  // htmx replaced a board: after a successful save go to the next board, after an error stay.
  document.addEventListener("htmx:load", function (event) {
    var form = event.detail.elt;
    if (!form.matches || !form.matches("form[data-board]")) return;
    if (form.hasAttribute("data-saved")) {
      var next = form.nextElementSibling;
      while (next && !(next.matches && next.matches("form[data-board]"))) next = next.nextElementSibling;
      focusBoard(next || form);
    } else {
      focusBoard(form);
    }
  });
})();
