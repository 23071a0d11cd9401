/* The new-tournament form shows what the chosen system uses.

   A field whose input carries data-kinds (the systems it belongs to, rendered by
   forms.TournamentForm) is hidden and disabled for any other system, so it is not sent; the
   tie-break sets carry their system in data-preset-kinds ("key:system …") and those of other
   systems are hidden likewise; the typed codes only with "own list". The server refuses the same combinations (TournamentForm.clean),
   so a page without this script gets the same answer as an error message. No inline script:
   the page's Content-Security-Policy allows only static files. */
(function () {
  "use strict";

  var kind = document.getElementById("id_kind");
  if (!kind) return;
  var preset = document.getElementById("id_tiebreak_preset");

  function presetKinds() {
    var found = {};
    if (!preset) return found;
    (preset.getAttribute("data-preset-kinds") || "").split(" ").forEach(function (pair) {
      var parts = pair.split(":");
      if (parts.length === 2) found[parts[0]] = parts[1];
    });
    return found;
  }

  var systems = presetKinds();

  function show() {
    var chosen = kind.value;
    document.querySelectorAll("[data-kinds]").forEach(function (input) {
      var wanted = !chosen || input.getAttribute("data-kinds").split(" ").indexOf(chosen) !== -1;
      var wrapper = input.closest("[id^=div_id_]") || input;
      wrapper.hidden = !wanted;
      input.disabled = !wanted;
    });
    if (!preset) return;
    for (var i = 0; i < preset.options.length; i++) {
      var option = preset.options[i];
      var system = systems[option.value];
      var wanted = !system || !chosen || system === chosen;
      option.hidden = !wanted;
      option.disabled = !wanted;
      if (!wanted && option.selected) preset.value = "auto";
    }
  }

  // The typed codes count only for "own list": otherwise the set chosen above is stored.
  var codes = document.getElementById("id_tiebreaks");

  function showCodes() {
    if (!preset || !codes) return;
    var wrapper = codes.closest("[id^=div_id_]") || codes;
    wrapper.hidden = preset.value !== "custom";
  }

  kind.addEventListener("change", function () { show(); showCodes(); });
  if (preset) preset.addEventListener("change", showCodes);
  show();
  showCodes();
})();
