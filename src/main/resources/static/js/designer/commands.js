// The command palette (Ctrl+K): a filter box over the palette's node types and a few commands. Typing filters,
// ↑/↓ choose, Enter adds the node as the palette's Enter does (or runs the command), Esc closes; focus returns to
// the canvas.
(function (TF) {
  "use strict";

  function Commands(editor, dialog) {
    this.editor = editor;
    this.dialog = dialog;
    this.filter = dialog.querySelector("#command-filter");
    this.list = dialog.querySelector("#command-list");
    this.entries = this.collect();
    this.shown = [];
    this.active = 0;
    this.listen();
  }

  /** The usable palette entries (in palette order), then the commands. */
  Commands.prototype.collect = function () {
    var editor = this.editor;
    var entries = [];
    document.querySelectorAll(".palette-item:not([disabled])").forEach(function (item) {
      entries.push({label: item.textContent.trim(), kind: "node " + item.dataset.kind,
        run: function () { editor.addAtCentre(JSON.parse(item.dataset.starter)); }});
    });
    [["Save", "Ctrl+S", function () { editor.save(); }],
      ["Fit the graph", "F", function () { editor.canvas.fit(); }],
      ["Auto-layout", "L", function () { editor.autoLayout(); }],
      ["Undo", "Ctrl+Z", function () { editor.undo(); }],
      ["Redo", "Ctrl+Shift+Z", function () { editor.redo(); }]].forEach(function (command) {
      entries.push({label: command[0], kind: "command · " + command[1], run: command[2]});
    });
    return entries;
  };

  Commands.prototype.listen = function () {
    var commands = this;
    this.filter.addEventListener("input", function () { commands.show(); });
    this.filter.addEventListener("keydown", function (event) {
      var moves = {ArrowDown: 1, ArrowUp: -1};
      if (moves[event.key]) {
        event.preventDefault();
        commands.choose(commands.active + moves[event.key]);
      } else if (event.key === "Enter") {
        event.preventDefault();
        commands.run(commands.shown[commands.active]);
      }
    });
    this.list.addEventListener("click", function (event) {
      var option = event.target.closest("[role=option]");
      if (option) {
        commands.run(commands.shown[Number(option.dataset.index)]);
      }
    });
    this.dialog.addEventListener("close", function () {
      document.getElementById("canvas").focus();
    });
  };

  Commands.prototype.open = function () {
    if (this.dialog.open || this.editor.canvas.readOnly) {
      return;
    }
    this.filter.value = "";
    this.show();
    this.dialog.showModal();
    this.filter.focus();
  };

  Commands.prototype.show = function () {
    var words = this.filter.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    this.shown = this.entries.filter(function (entry) {
      var text = entry.label.toLowerCase();
      return words.every(function (word) { return text.indexOf(word) >= 0; });
    });
    this.list.innerHTML = "";
    var list = this.list;
    this.shown.forEach(function (entry, index) {
      var option = document.createElement("li");
      option.id = "command-" + index;
      option.setAttribute("role", "option");
      option.dataset.index = String(index);
      var label = document.createElement("span");
      label.textContent = entry.label;
      var kind = document.createElement("span");
      kind.className = "command-kind";
      kind.textContent = entry.kind;
      option.append(label, kind);
      list.appendChild(option);
    });
    if (this.shown.length === 0) {
      var none = document.createElement("li");
      none.className = "muted";
      none.textContent = "Nothing matches '" + this.filter.value.trim() + "'.";
      list.appendChild(none);
    }
    this.choose(0);
  };

  Commands.prototype.choose = function (index) {
    var count = this.shown.length;
    this.active = count === 0 ? 0 : (index + count) % count;
    var active = this.active;
    this.list.querySelectorAll("[role=option]").forEach(function (option) {
      option.setAttribute("aria-selected", String(Number(option.dataset.index) === active));
    });
    var chosen = this.list.querySelector("[aria-selected=true]");
    if (chosen) {
      this.filter.setAttribute("aria-activedescendant", chosen.id);
      chosen.scrollIntoView({block: "nearest"});
    } else {
      this.filter.removeAttribute("aria-activedescendant");
    }
  };

  Commands.prototype.run = function (entry) {
    if (!entry) {
      return;
    }
    this.dialog.close();
    entry.run();
  };

  TF.Commands = Commands;
})(window.Tokenflow = window.Tokenflow || {});
