// The workspace around the canvas: the palette, the inspector and the bottom panel fold away (remembered in
// localStorage), so the canvas can take the screen; and the toolbar's "More" menu of rarely used actions.
(function (TF) {
  "use strict";

  var KEY = "tokenflow.designer.panels";
  var DEFAULTS = {palette: true, inspector: true, bottom: false, minimap: true};

  function load() {
    var state = Object.assign({}, DEFAULTS);
    try {
      var stored = JSON.parse(window.localStorage.getItem(KEY) || "{}");
      Object.keys(DEFAULTS).forEach(function (name) {
        if (typeof stored[name] === "boolean") {
          state[name] = stored[name];
        }
      });
    } catch (ignored) {
      // an unreadable entry (edited by hand) is as good as none: the defaults apply
    }
    return state;
  }

  function Workspace(root) {
    var workspace = this;
    this.root = root;
    this.state = load();
    Object.keys(DEFAULTS).forEach(function (name) {
      document.getElementById("toggle-" + name).addEventListener("click", function () {
        workspace.set(name, !workspace.state[name]);
      });
    });
    this.apply();
    this.bindMenu(document.getElementById("more"), document.getElementById("more-menu"));
  }

  Workspace.prototype.set = function (name, open) {
    this.state[name] = open;
    try {
      window.localStorage.setItem(KEY, JSON.stringify(this.state));
    } catch (ignored) {
      // storage refused (private mode, quota): the choice holds for this page only
    }
    this.apply();
  };

  Workspace.prototype.apply = function () {
    var state = this.state;
    var root = this.root;
    Object.keys(DEFAULTS).forEach(function (name) {
      root.classList.toggle(name + "-collapsed", !state[name]);
      var toggle = document.getElementById("toggle-" + name);
      toggle.setAttribute("aria-expanded", String(state[name]));
      document.getElementById(toggle.getAttribute("aria-controls")).hidden = !state[name];
    });
  };

  Workspace.prototype.isOpen = function (name) {
    return this.state[name];
  };

  /** Opens the bottom panel (a tab was chosen, or something there needs to be seen). */
  Workspace.prototype.openBottom = function () {
    if (!this.state.bottom) {
      this.set("bottom", true);
    }
  };

  /** A menu button: Enter, Space or ↓ open it on its first item, ↑/↓ move, Esc closes it back onto the button. */
  Workspace.prototype.bindMenu = function (button, menu) {
    var items = function () { return Array.prototype.slice.call(menu.querySelectorAll("[role=menuitem]")); };
    var close = function (refocus) {
      menu.hidden = true;
      button.setAttribute("aria-expanded", "false");
      if (refocus) {
        button.focus();
      }
    };
    var open = function (index) {
      menu.hidden = false;
      button.setAttribute("aria-expanded", "true");
      var list = items();
      list[(index + list.length) % list.length].focus();
    };
    button.addEventListener("click", function () {
      if (menu.hidden) {
        open(0);
      } else {
        close(false);
      }
    });
    button.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        open(event.key === "ArrowDown" ? 0 : -1);
      }
    });
    menu.addEventListener("keydown", function (event) {
      var list = items();
      var at = list.indexOf(document.activeElement);
      var moves = {ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: list.length - 1};
      if (moves[event.key] !== undefined) {
        event.preventDefault();
        list[(moves[event.key] + list.length) % list.length].focus();
      } else if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        close(true);
      } else if (event.key === "Tab") {
        close(false);
      }
    });
    menu.addEventListener("click", function (event) {
      if (event.target.closest("[role=menuitem]")) {
        close(false);
      }
    });
    document.addEventListener("click", function (event) {
      if (!menu.hidden && !menu.contains(event.target) && !button.contains(event.target)) {
        close(false);
      }
    });
  };

  TF.Workspace = Workspace;
})(window.Tokenflow = window.Tokenflow || {});
