/* Result entry by keyboard.

   Board by board: single keys choose a board's result, Enter saves it (htmx) and the focus moves
   on to the next board. Quick entry (as in Swiss-Manager): in the field #quick-entry the digits
   name a board and a result key that is not a digit saves it at once ("17r": board 17 drawn);
   Enter after the digits jumps to that board. The keys come from each radio's data-keys
   attribute, which the server renders from forms.RESULT_CONTROLS, so they are defined in one
   place. A changed result comes back as a question (reason, confirm); its reason field gets the
   focus. No inline script: the page's Content-Security-Policy allows only static files. */
(function () {
  "use strict";

  var quick = document.getElementById("quick-entry");
  var quickStatus = document.getElementById("quick-entry-status");
  // The boards whose quick-entry saves await their answers (several, when the official types on
  // before an answer is back), and the last of them: the status line says what became of that one,
  // and of any other that was not saved (a question to answer, refused).
  var pending = {};
  var quickBoard = null;

  function boardOf(element) {
    return element && element.closest ? element.closest("form[data-board]") : null;
  }

  function boardNumbered(number) {
    return document.querySelector('form[data-board="' + number + '"]');
  }

  function focusBoard(form) {
    if (!form) return;
    var reason = form.querySelector("input[name=reason]");
    if (reason) { reason.focus(); return; }
    var answer = form.querySelector(".board-question button[type=submit]");
    if (answer) { answer.focus(); return; }
    var radio = form.querySelector("input[name=result]:checked") || form.querySelector("input[name=result]");
    if (radio) radio.focus();
  }

  function radioForKey(form, key) {
    var radios = form.querySelectorAll("input[name=result]");
    for (var i = 0; i < radios.length; i++) {
      var keys = radios[i].getAttribute("data-keys").split(" ");
      if (keys.indexOf(key) !== -1 || keys.indexOf(key.toLowerCase()) !== -1) return radios[i];
    }
    return null;
  }

  function say(text) {
    if (quickStatus) quickStatus.textContent = text;
  }

  function quickKey(event) {
    var digits = quick.value.replace(/\D/g, "");
    if (/^\d$/.test(event.key) || event.key === "Tab" || event.key.length > 1 && event.key !== "Enter") return;
    event.preventDefault();
    if (!digits) return;
    var form = boardNumbered(parseInt(digits, 10));
    if (!form) {
      quick.setAttribute("aria-invalid", "true");
      say(quick.getAttribute("data-unknown").replace("%s", digits));
      return;
    }
    quick.removeAttribute("aria-invalid");
    if (event.key === "Enter") {
      quick.value = "";
      say("");
      focusBoard(form);
      return;
    }
    if (form.hasAttribute("data-locked")) {
      quick.value = "";
      say(quick.getAttribute("data-locked").replace("%s", digits));
      return;
    }
    var radio = radioForKey(form, event.key);
    if (!radio) return;
    radio.checked = true;
    quick.value = "";
    say(quick.getAttribute("data-sent").replace("%s", digits));
    pending[digits] = true;
    quickBoard = digits;
    form.requestSubmit();
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    if (quick && event.target === quick) { quickKey(event); return; }
    var form = boardOf(event.target);
    if (!form) return;
    if (event.key === "Enter") {
      event.preventDefault();
      form.requestSubmit();
      return;
    }
    if (event.target.type === "text") return;  // the reason for a change is typed, not keyed
    var radio = radioForKey(form, event.key);
    if (radio) {
      event.preventDefault();
      radio.checked = true;
      radio.focus();
    }
  });

  // What became of a quick-entry save, in the words of the data-* attribute named; whether the
  // board's save came from the quick entry.
  function sayOutcome(form, attribute) {
    var number = form.getAttribute("data-board");
    if (!quick || !pending[number]) return false;
    delete pending[number];
    if (number === quickBoard || attribute !== "data-done") {
      say(quick.getAttribute(attribute).replace("%s", number));
    }
    if (number === quickBoard) quickBoard = null;
    return true;
  }

  function outcomeOf(form) {
    if (form.hasAttribute("data-confirm")) return "data-question";
    if (form.hasAttribute("data-saved")) return "data-done";
    return "data-refused";
  }

  // No answer, or an answer htmx does not swap: the board was not saved.
  ["htmx:sendError", "htmx:responseError"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var form = boardOf(event.detail.elt);
      if (form) sayOutcome(form, "data-failed");
    });
  });

  // htmx replaced a board. The focus follows the answer only where the official has not moved on
  // since (it left with the replaced board, or stayed in the quick entry that sent it): a question
  // gets the focus (unless he is typing further boards in the quick entry), after a save the next
  // board (or the quick entry again), after an error the board. Keys typed meanwhile land where
  // they were typed.
  document.addEventListener("htmx:load", function (event) {
    var form = event.detail.elt;
    if (!form.matches || !form.matches("form[data-board]")) return;
    var fromQuick = sayOutcome(form, outcomeOf(form));
    var active = document.activeElement;
    var typingOn = quick && active === quick && quickBoard !== null;
    var movedOn = active && active !== document.body && !form.contains(active) && !(fromQuick && active === quick);
    if (form.hasAttribute("data-confirm")) {
      if (!typingOn) focusBoard(form);
    } else if (movedOn) {
      return;
    } else if (fromQuick) {
      quick.focus();
    } else if (form.hasAttribute("data-saved")) {
      var next = form.nextElementSibling;
      while (next && !(next.matches && next.matches("form[data-board]"))) next = next.nextElementSibling;
      focusBoard(next || form);
    } else {
      focusBoard(form);
    }
  });

  // The keyboard legend is drawn folded; it opens where there is room (and likely a keyboard),
  // never on a phone.
  // It follows the window when it crosses that width.
  var legend = document.getElementById("result-keys");
  if (legend && window.matchMedia) {
    var roomy = window.matchMedia("(min-width: 768px)");
    if (roomy.matches) legend.open = true;
    roomy.addEventListener("change", function () { legend.open = roomy.matches; });
  }
})();
