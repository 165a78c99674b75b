// Every page: the CSRF token on htmx requests, the theme switch in the header, and ticking durations.

// Sends the CSRF token (from the layout's meta tags) with every htmx request.
document.addEventListener("htmx:configRequest", function (event) {
  var token = document.querySelector('meta[name="_csrf"]');
  var header = document.querySelector('meta[name="_csrf_header"]');
  if (token && header) {
    event.detail.headers[header.content] = token.content;
  }
});

// The header's theme switch: light, dark or the system's; theme.js applied the choice before the first paint.
document.addEventListener("DOMContentLoaded", function () {
  var select = document.getElementById("theme-select");
  if (!select || !window.tokenflowTheme) {
    return;
  }
  select.value = window.tokenflowTheme.chosen();
  select.addEventListener("change", function () {
    window.tokenflowTheme.choose(select.value);
  });
});

// Durations of runs that have not ended tick every second, written as the server writes them (RunDurations).
(function () {
  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }
  function format(millis) {
    millis = Math.max(0, millis);
    if (millis < 1000) {
      return millis + " ms";
    }
    if (millis < 60000) {
      return (millis / 1000).toFixed(1) + " s";
    }
    var seconds = Math.floor(millis / 1000);
    if (seconds < 3600) {
      return Math.floor(seconds / 60) + "m " + pad(seconds % 60) + "s";
    }
    return Math.floor(seconds / 3600) + "h " + pad(Math.floor((seconds % 3600) / 60)) + "m";
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-ticking-from]").forEach(function (cell) {
      var from = Number(cell.getAttribute("data-ticking-from"));
      if (from > 0) {
        cell.textContent = format(now - from);
      }
    });
  }
  setInterval(tick, 1000);
})();
