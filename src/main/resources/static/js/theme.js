// Loaded blocking in <head>, before the first paint: sets data-theme ("light" or "dark") on <html> from the choice
// remembered in localStorage or, with none, from the system's preference (prefers-color-scheme), following it when it
// changes. The header's switch (tokenflow.js) calls tokenflowTheme.choose with "light", "dark" or "system". A change
// after the first is announced as the event "tokenflow:theme" on document: canvases (the designer's, the run page's
// graph) take their colours from the CSS variables when they draw and restyle on it.
(function () {
  var KEY = "tokenflow-theme";
  var root = document.documentElement;
  var systemDark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function chosen() {
    try {
      var value = window.localStorage.getItem(KEY);
      return value === "light" || value === "dark" ? value : "system";
    } catch (e) {
      return "system";
    }
  }

  function apply() {
    var theme = chosen();
    if (theme === "system") {
      theme = systemDark && systemDark.matches ? "dark" : "light";
    }
    if (root.getAttribute("data-theme") === theme) {
      return;
    }
    var first = !root.hasAttribute("data-theme");
    root.setAttribute("data-theme", theme);
    if (!first) {
      document.dispatchEvent(new CustomEvent("tokenflow:theme", {detail: {theme: theme}}));
    }
  }

  window.tokenflowTheme = {
    chosen: chosen,
    choose: function (theme) {
      try {
        if (theme === "light" || theme === "dark") {
          window.localStorage.setItem(KEY, theme);
        } else {
          window.localStorage.removeItem(KEY);
        }
      } catch (e) {
        // storage refused (private mode): the choice lasts for this page only
      }
      apply();
    }
  };
  if (systemDark && systemDark.addEventListener) {
    systemDark.addEventListener("change", apply);
  }
  apply();
})();
