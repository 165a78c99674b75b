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
    click("shortcuts", function (event) {
      var help = document.getElementById("shortcut-help");
      help.hidden = !help.hidden;
      event.currentTarget.setAttribute("aria-expanded", String(!help.hidden));
    });
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
      item.addEventListener("click", function () {
        var center = editor.canvas.center();
        var offset = (editor.draft.nodes || []).length % 5 * 24;
        editor.addNode(JSON.parse(item.dataset.starter), {x: center.x + offset, y: center.y + offset});
      });
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

  function bindKeys(editor) {
    document.addEventListener("keydown", function (event) {
      var command = event.ctrlKey || event.metaKey;
      var key = event.key.toLowerCase();
      if (command && key === "s") {
        event.preventDefault();
        editor.save();
        return;
      }
      if (typing(event.target)) {
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
    var editor = new TF.Editor(root);
    bindToolbar(editor);
    bindPalette(editor);
    bindKeys(editor);
    editor.canvas.render(editor.draft);
    editor.canvas.fit();
    editor.refreshState();
    editor.panels.inspect({nodes: [], edges: []});
    editor.panels.check(0);
    editor.timings.firstRenderMs = performance.now() - started;
    window.tokenflowDesigner = editor;
  });
})(window.Tokenflow = window.Tokenflow || {});
