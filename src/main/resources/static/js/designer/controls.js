// Wires the editor page: toolbar buttons, the palette (drag onto the canvas, or Enter), keyboard shortcuts, and the
// first render. window.tokenflowDesigner exposes the editor for browser tests and the console.
(function (TF) {
  "use strict";

  var NUDGE = 10;

  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  function bindToolbar(editor) {
    var click = function (id, run) { document.getElementById(id).addEventListener("click", run); };
    click("save", function () { editor.save(); });
    click("undo", function () { editor.undo(); });
    click("redo", function () { editor.redo(); });
    click("fit", function () { editor.canvas.fit(); });
    click("layout", function () { editor.autoLayout(); });
    click("zoom-in", function () { editor.canvas.zoom(1.25); });
    click("zoom-out", function () { editor.canvas.zoom(0.8); });
    click("export-json", function () { editor.exportJson(); });
    click("export-png", function () { editor.exportPng(); });
    click("import", function () { document.getElementById("import-file").click(); });
    click("open-commands", function () { editor.commands.open(); });
    var help = document.getElementById("shortcut-help");
    click("shortcuts", function () {
      help.hidden = false;
      document.getElementById("shortcut-help-close").focus();
    });
    click("shortcut-help-close", function () {
      help.hidden = true;
      document.getElementById("more").focus();
    });
    click("toggle-minimap", function () { editor.minimap.schedule(); });
    document.getElementById("import-file").addEventListener("change", function (event) {
      var file = event.target.files[0];
      if (file) {
        file.text().then(function (text) { editor.importText(file.name, text); });
      }
      event.target.value = "";
    });
  }

  function bindPalette(editor) {
    var container = document.getElementById("canvas");
    document.querySelectorAll(".palette-item:not([disabled])").forEach(function (item) {
      item.addEventListener("dragstart", function (event) {
        event.dataTransfer.setData("application/x-tokenflow-node", item.dataset.starter);
        event.dataTransfer.effectAllowed = "copy";
      });
      item.addEventListener("click", function () { editor.addAtCentre(JSON.parse(item.dataset.starter)); });
    });
    container.addEventListener("dragover", function (event) {
      if (event.dataTransfer.types.indexOf("application/x-tokenflow-node") >= 0) {
        event.preventDefault();
        event.dataTransfer.dropEffect = "copy";
      }
    });
    container.addEventListener("drop", function (event) {
      var starter = event.dataTransfer.getData("application/x-tokenflow-node");
      if (starter && !editor.canvas.readOnly) {
        event.preventDefault();
        editor.addNode(JSON.parse(starter), editor.canvas.modelPosition(event.clientX, event.clientY));
        container.focus();
      }
    });
  }

  /** Ctrl+C copies at once; Ctrl+V lets the browser's paste event through (it carries the system clipboard). */
  function clipboardKey(editor, key) {
    if (editor.canvas.readOnly) {
      return;
    }
    if (key === "c") {
      editor.clipboard.copy();
    } else {
      editor.clipboard.expectPaste();
    }
  }

  function bindClipboard(editor) {
    document.addEventListener("paste", function (event) {
      if (typing(event.target) || event.target.closest("dialog") || editor.canvas.readOnly) {
        return;
      }
      event.preventDefault();
      editor.clipboard.pasteText(event.clipboardData ? event.clipboardData.getData("text/plain") : null);
    });
  }

  function bindKeys(editor) {
    document.addEventListener("keydown", function (event) {
      var command = event.ctrlKey || event.metaKey;
      var key = event.key.toLowerCase();
      if (command && key === "s") {
        event.preventDefault();
        editor.save();
        return;
      }
      if (command && key === "k" && !event.target.closest("dialog")) {
        event.preventDefault();
        editor.commands.open();
        return;
      }
      if (typing(event.target) || event.target.closest("dialog, [role=menu]")) {
        return;
      }
      if (command && (key === "c" || key === "v") && !event.shiftKey && !window.getSelection().toString()) {
        clipboardKey(editor, key);
        return;
      }
      var handled = true;
      if (command && key === "z") {
        if (event.shiftKey) {
          editor.redo();
        } else {
          editor.undo();
        }
      } else if (command && key === "y") {
        editor.redo();
      } else if (command && key === "a") {
        editor.canvas.selectAll();
      } else if (command && key === "d") {
        editor.duplicateSelection();
      } else if (command) {
        handled = false;
      } else if (key === "delete" || key === "backspace") {
        editor.deleteSelection();
      } else if (key === "f") {
        editor.canvas.fit();
      } else if (key === "l") {
        editor.autoLayout();
      } else if (key === "+" || key === "=") {
        editor.canvas.zoom(1.25);
      } else if (key === "-") {
        editor.canvas.zoom(0.8);
      } else if (key === "escape") {
        document.getElementById("shortcut-help").hidden = true;
        editor.canvas.select([], []);
      } else if (key.indexOf("arrow") === 0) {
        var step = event.shiftKey ? NUDGE * 5 : NUDGE;
        var delta = {arrowleft: [-step, 0], arrowright: [step, 0], arrowup: [0, -step], arrowdown: [0, step]}[key];
        editor.nudgeSelection(delta[0], delta[1]);
      } else {
        handled = false;
      }
      if (handled) {
        event.preventDefault();
      }
    });
    window.addEventListener("beforeunload", function (event) {
      if (editor.dirty()) {
        event.preventDefault();
        event.returnValue = "";
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("main.editor");
    if (!root) {
      return;
    }
    var started = performance.now();
    performance.mark("tokenflow:editor-start");
    var editor = new TF.Editor(root);
    bindToolbar(editor);
    bindPalette(editor);
    bindKeys(editor);
    editor.commands = new TF.Commands(editor, document.getElementById("command-palette"));
    editor.clipboard = new TF.Clipboard(editor);
    bindClipboard(editor);
    editor.canvas.render(editor.draft);
    editor.canvas.fit();
    editor.minimap = new TF.Minimap(editor.canvas.cy, document.getElementById("minimap-view"));
    editor.refreshState();
    // the inspector (a server round trip and a swap) and the first check wait until the graph is on screen
    editor.canvas.whenDrawn(function () {
      var selection = editor.panels.selection;
      if (selection.nodes.length + selection.edges.length === 0) {
        editor.panels.inspect(selection);
      }
      editor.panels.check(0);
    });
    editor.timings.firstRenderMs = performance.now() - started;
    performance.mark("tokenflow:editor-ready");
    window.tokenflowDesigner = editor;
  });
})(window.Tokenflow = window.Tokenflow || {});
