/* The hall screen (templates/tournaments/hall.html): show one screenful at a time (the round's
   pairings, then the standings, each split into as many pages as the screen needs), turn the page
   every few seconds (or on the arrow keys), and ask the server every 15 seconds whether the content changed (it answers
   204 while nothing did, the content otherwise). Without JavaScript the page simply scrolls. */
(function () {
  "use strict";

  var PAGE_SECONDS = 12;
  var POLL_SECONDS = 15;
  var body = document.body;
  var main = document.getElementById("hall-main");
  var counter = document.getElementById("hall-page");
  if (!main) { return; }
  body.classList.add("paging");

  var pages = [];
  var current = 0;

  function sections() { return Array.prototype.slice.call(main.querySelectorAll(".hall-section")); }

  // Split each section's rows into pages that fit below its heading and table head.
  function layout() {
    pages = [];
    sections().forEach(function (section) {
      var rows = Array.prototype.slice.call(section.querySelectorAll("tbody tr"));
      section.classList.add("shown");
      rows.forEach(function (row) { row.classList.remove("off"); });
      var table = section.querySelector("table");
      var available = main.clientHeight - (table.querySelector("tbody").getBoundingClientRect().top -
        section.getBoundingClientRect().top) - 8;
      var rowHeight = rows.length ? rows[0].getBoundingClientRect().height : 1;
      var perPage = Math.max(1, Math.floor(available / Math.max(rowHeight, 1)));
      section.classList.remove("shown");
      for (var start = 0; start < Math.max(rows.length, 1); start += perPage) {
        pages.push({ section: section, rows: rows, start: start, size: perPage });
      }
    });
  }

  function show(index) {
    if (!pages.length) { return; }
    current = index % pages.length;
    var page = pages[current];
    sections().forEach(function (section) { section.classList.toggle("shown", section === page.section); });
    page.rows.forEach(function (row, i) {
      row.classList.toggle("off", i < page.start || i >= page.start + page.size);
    });
    if (counter) { counter.textContent = (current + 1) + " / " + pages.length; }
  }

  function refresh() {
    var live = document.getElementById("hall-live");
    var version = live ? live.getAttribute("data-version") : "";
    var url = main.getAttribute("data-poll-url") + "&v=" + encodeURIComponent(version);
    fetch(url, { credentials: "same-origin", headers: { "Accept": "text/html" } }).then(function (response) {
      if (response.status !== 200) { return null; }
      return response.text();
    }).then(function (html) {
      if (!html) { return; }
      var keep = current;
      main.innerHTML = html;
      layout();
      show(keep < pages.length ? keep : 0);
    }).catch(function () { /* the next poll tries again */ });
  }

  layout();
  show(0);
  window.setInterval(function () { show(current + 1); }, PAGE_SECONDS * 1000);
  window.setInterval(refresh, POLL_SECONDS * 1000);
  window.addEventListener("resize", function () { layout(); show(0); });

  // The official at the projector's keyboard turns the pages himself.
  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight" || event.key === "PageDown" || event.key === " ") {
      event.preventDefault();
      show(current + 1);
    } else if (event.key === "ArrowLeft" || event.key === "PageUp") {
      event.preventDefault();
      show(current - 1 + pages.length);
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-fullscreen]") : null;
    if (button && document.documentElement.requestFullscreen) {
      document.documentElement.requestFullscreen();
    }
  });
})();
