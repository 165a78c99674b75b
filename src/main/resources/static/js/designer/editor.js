// The editor: holds the stored version and the draft, turns what the user does into draft changes (each one undoable),
// checks the draft on the server as it changes, and saves it as one RFC 6902 patch sent with If-Match.
(function (TF) {
  "use strict";

  var Documents = TF.Documents;
  var UNDO_LIMIT = 200;
  var COALESCE_MS = 1500;

  function Editor(root) {
    var data = document.getElementById("editor-data");
    this.root = root;
    this.workflowId = root.dataset.workflow;
    this.base = "/workflows/" + this.workflowId + "/editor";
    this.version = Number(root.dataset.version);
    this.stored = JSON.parse(data.textContent);
    this.draft = Documents.clone(this.stored);
    this.undoStack = [];
    this.redoStack = [];
    this.revision = 0;
    this.lastEdit = null;
    this.saving = false;
    this.diagnostics = [];
    this.timings = {};
    var kinds = {};
    var typeNames = {};
    root.querySelectorAll(".palette-item").forEach(function (item) {
      kinds[item.dataset.type] = item.dataset.kind;
      typeNames[item.dataset.type] = item.textContent.trim();
    });
    var editor = this;
    this.canvas = new TF.Canvas(document.getElementById("canvas"), document.getElementById("edge-handle"), {
      kinds: kinds, typeNames: typeNames,
      onMove: function (positions) { editor.change("Move", function (d) { Documents.setPositions(d, positions); }); },
      onConnect: function (from, to) { editor.change("Connect", function (d) { Documents.addEdge(d, from, to); }); },
      onSelect: function (selection) { editor.panels.inspect(selection); }
    });
    this.toasts = new TF.Toasts(document.getElementById("toasts"));
    this.workspace = new TF.Workspace(root);
    this.panels = new TF.Panels(this);
  }

  /** The CSRF header the page was rendered with, for fetch calls (htmx gets it from tokenflow.js). */
  Editor.prototype.headers = function (extra) {
    var headers = Object.assign({}, extra || {});
    var token = document.querySelector('meta[name="_csrf"]');
    var header = document.querySelector('meta[name="_csrf_header"]');
    if (token && header) {
      headers[header.content] = token.content;
    }
    return headers;
  };

  /** POSTs form fields to one of the editor's page endpoints; resolves with the response text. */
  Editor.prototype.post = function (path, fields) {
    var body = new URLSearchParams();
    Object.keys(fields).forEach(function (name) {
      if (fields[name] !== undefined && fields[name] !== null) {
        body.append(name, fields[name]);
      }
    });
    return fetch(this.base + path, {method: "POST", body: body, credentials: "same-origin",
      headers: this.headers({"HX-Request": "true"})}).then(function (response) { return response.text(); });
  };

  /**
   * Changes the draft: {@code mutate} edits a copy (or returns a replacement). Consecutive edits with the same
   * {@code options.coalesce} key within a moment are one undo step (typing into a field).
   */
  Editor.prototype.change = function (label, mutate, options) {
    options = options || {};
    var started = performance.now();
    var before = JSON.stringify(this.draft);
    var next = Documents.clone(this.draft);
    var replacement = mutate(next);
    if (replacement && typeof replacement === "object" && !Array.isArray(replacement)) {
      next = replacement;
    }
    if (JSON.stringify(next) === before) {
      return false;
    }
    var now = Date.now();
    var coalesce = options.coalesce && this.lastEdit && this.lastEdit.key === options.coalesce
        && now - this.lastEdit.time < COALESCE_MS;
    if (!coalesce) {
      this.undoStack.push(before);
      if (this.undoStack.length > UNDO_LIMIT) {
        this.undoStack.shift();
      }
    }
    this.lastEdit = {key: options.coalesce || label, time: now};
    this.redoStack = [];
    this.draft = next;
    this.changed(options);
    this.timings.lastChangeMs = performance.now() - started;
    return true;
  };

  Editor.prototype.changed = function (options) {
    this.revision++;
    this.canvas.render(this.draft);
    this.refreshState();
    this.panels.draftChanged(options || {});
  };

  Editor.prototype.undo = function () {
    this.travel(this.undoStack, this.redoStack);
  };

  Editor.prototype.redo = function () {
    this.travel(this.redoStack, this.undoStack);
  };

  Editor.prototype.travel = function (from, to) {
    if (from.length === 0 || this.canvas.readOnly) {
      return;
    }
    to.push(JSON.stringify(this.draft));
    this.draft = JSON.parse(from.pop());
    this.lastEdit = null;
    this.changed({reinspect: true});
  };

  Editor.prototype.dirty = function () {
    return !Documents.same(this.stored, this.draft);
  };

  Editor.prototype.refreshState = function () {
    var errors = this.diagnostics.filter(function (d) { return d.severity === "error"; }).length;
    var text = this.dirty() ? "Unsaved changes" : "Saved · version " + this.version;
    if (errors > 0) {
      text += " · " + errors + (errors === 1 ? " problem" : " problems");
    }
    var state = document.getElementById("save-state");
    state.textContent = text;
    state.classList.toggle("unsaved", this.dirty());
    document.getElementById("undo").disabled = this.undoStack.length === 0;
    document.getElementById("redo").disabled = this.redoStack.length === 0;
    var unsaved = document.getElementById("run-unsaved");
    if (unsaved) {
      unsaved.hidden = !this.dirty();
    }
  };

  // ---- Selection edits ----

  Editor.prototype.deleteSelection = function () {
    var selection = this.canvas.selection();
    if (selection.nodes.length === 0 && selection.edges.length === 0) {
      return;
    }
    this.change("Delete", function (d) { Documents.removeElements(d, selection.nodes, selection.edges); },
        {reinspect: true});
  };

  Editor.prototype.duplicateSelection = function () {
    var ids = this.canvas.selection().nodes;
    var copies = [];
    if (ids.length > 0 && this.change("Duplicate", function (d) { copies = Documents.duplicate(d, ids); })) {
      this.canvas.select(copies, []);
    }
  };

  Editor.prototype.nudgeSelection = function (dx, dy) {
    var ids = this.canvas.selection().nodes;
    if (ids.length > 0) {
      var positions = this.canvas.nudged(ids, dx, dy);
      this.change("Nudge", function (d) { Documents.setPositions(d, positions); }, {coalesce: "nudge:" + ids.join()});
    }
  };

  Editor.prototype.addNode = function (starter, position) {
    var id = null;
    this.change("Add node", function (d) { id = Documents.addNode(d, starter, position); });
    this.canvas.select([id], []);
    return id;
  };

  /** Adds a node of a palette entry in the middle of the view (shifted a little per node, so they do not stack). */
  Editor.prototype.addAtCentre = function (starter) {
    var center = this.canvas.center();
    var offset = (this.draft.nodes || []).length % 5 * 24;
    return this.addNode(starter, {x: center.x + offset, y: center.y + offset});
  };

  Editor.prototype.autoLayout = function () {
    if (this.canvas.readOnly) {
      return;
    }
    var positions = this.canvas.layout();
    this.change("Layout", function (d) { Documents.setPositions(d, positions); });
  };

  // ---- Saving ----

  Editor.prototype.save = function () {
    if (this.saving || this.canvas.readOnly) {
      return;
    }
    var editor = this;
    var patch = Documents.diff(this.stored, this.draft);
    if (patch.length === 0) {
      this.toast("info", "Nothing to save: the draft is version " + this.version + ".");
      return;
    }
    var sent = JSON.stringify(this.draft);
    var message = document.getElementById("save-message").value.trim();
    this.saving = true;
    document.getElementById("save").disabled = true;
    fetch("/api/v1/workflows/" + this.workflowId, {
      method: "PATCH", credentials: "same-origin", body: JSON.stringify(patch),
      headers: this.headers(Object.assign({"Content-Type": "application/json-patch+json",
        "If-Match": '"' + this.version + '"', "Accept": "application/json"},
          message ? {"X-Change-Message": message.replace(/[^\x20-\x7e]/g, "?")} : {}))
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        editor.saved(response.status, body, sent);
      });
    }).catch(function (error) {
      editor.toast("error", "Not saved: the server could not be reached (" + error.message + "). Your changes are kept.");
    }).finally(function () {
      editor.saving = false;
      document.getElementById("save").disabled = false;
    });
  };

  Editor.prototype.saved = function (status, body, sent) {
    if (status === 200) {
      this.adopt(body, JSON.stringify(this.draft) === sent);
      document.getElementById("save-message").value = "";
      this.toasts.clear();
      this.toast("success", body.changed ? "Saved as version " + body.version + "."
          : "Nothing changed: version " + body.version + " has the same content.");
      return;
    }
    if (status === 422) {
      var errors = (body.diagnostics || []).filter(function (d) { return String(d.severity).toUpperCase() === "ERROR"; }).length;
      this.toast("error", "Not saved: the workflow does not compile (" + errors + (errors === 1 ? " problem" : " problems")
          + "). The problems are marked on the canvas and listed below; your changes are kept.");
      this.panels.showProblemsTab();
      this.panels.check(0);
      return;
    }
    if (status === 409 && body.latestVersion) {
      this.conflict(body.latestVersion);
      return;
    }
    this.toast("error", "Not saved: " + (body.detail || "the server answered " + status) + " Your changes are kept.");
  };

  /** Takes a version the server answered with as the stored one; the draft follows unless it changed meanwhile. */
  Editor.prototype.adopt = function (snapshot, draftFollows) {
    this.version = snapshot.version;
    this.root.dataset.version = snapshot.version;
    this.stored = snapshot.dsl;
    if (draftFollows) {
      this.draft = Documents.clone(snapshot.dsl);
    }
    document.getElementById("workflow-name").textContent = snapshot.name;
    this.changed({reinspect: true});
    htmx.trigger(document.body, "workflowSaved");
  };

  Editor.prototype.conflict = function (latest) {
    var editor = this;
    this.toast("error", "Not saved: someone saved version " + latest + " while you edited version " + this.version
        + ". Nothing was overwritten and your changes are kept.", [
      {label: "Re-apply my changes on version " + latest, run: function () { editor.reapply(); }},
      {label: "Discard my changes and load version " + latest, run: function () { editor.reload(); }}]);
  };

  Editor.prototype.latest = function () {
    return fetch("/api/v1/workflows/" + this.workflowId, {credentials: "same-origin",
      headers: {"Accept": "application/json"}}).then(function (response) { return response.json(); });
  };

  /** Applies the changes made since the stored version onto the latest one (guarded by tests of what they touch). */
  Editor.prototype.reapply = function () {
    var editor = this;
    this.latest().then(function (latest) {
      var rebased;
      try {
        rebased = Documents.apply(latest.dsl, Documents.guardedDiff(editor.stored, editor.draft));
      } catch (error) {
        editor.toast("error", "Your changes could not be re-applied on version " + latest.version + ": "
            + error.message + ".", [{label: "Discard my changes and load version " + latest.version,
          run: function () { editor.reload(); }}]);
        return;
      }
      editor.undoStack.push(JSON.stringify(editor.draft));
      editor.adopt(latest, false);
      editor.draft = rebased;
      editor.changed({reinspect: true});
      editor.toast("info", "Your changes were re-applied on version " + latest.version + ". Review them and save.");
    });
  };

  Editor.prototype.reload = function () {
    var editor = this;
    this.latest().then(function (latest) {
      editor.undoStack.push(JSON.stringify(editor.draft));
      editor.adopt(latest, true);
      editor.toast("info", "Loaded version " + latest.version + ".");
    });
  };

  Editor.prototype.restore = function (version) {
    if (this.dirty() && !window.confirm("Restoring replaces your unsaved changes. Restore version " + version + "?")) {
      return;
    }
    var editor = this;
    fetch("/api/v1/workflows/" + this.workflowId + "/versions/" + version + "/restore", {
      method: "POST", credentials: "same-origin",
      headers: this.headers({"If-Match": '"' + this.version + '"', "Accept": "application/json"})
    }).then(function (response) {
      return response.json().then(function (body) {
        if (response.status === 200) {
          editor.undoStack.push(JSON.stringify(editor.draft));
          editor.adopt(body, true);
          editor.toast("success", "Restored version " + version + " as version " + body.version + ".");
        } else if (response.status === 409 && body.latestVersion) {
          editor.conflict(body.latestVersion);
        } else {
          editor.toast("error", "Not restored: " + (body.detail || response.status));
        }
      });
    });
  };

  /** A message in a toast over the canvas (never in the way of a click on the canvas); see toasts.js. */
  Editor.prototype.toast = function (kind, text, actions) {
    return this.toasts.show(kind, text, actions);
  };

  // ---- Import and export ----

  Editor.prototype.importText = function (fileName, text) {
    var editor = this;
    fetch("/api/v1/workflows/compile", {method: "POST", credentials: "same-origin", body: text,
      headers: this.headers({"Content-Type": "application/json", "Accept": "application/json"})})
        .then(function (response) {
          return response.json().then(function (body) {
            if (!response.ok || !body.dsl || typeof body.dsl !== "object") {
              editor.toast("error", "Not imported: " + (body.detail || "the file is not a workflow") + ".");
              return;
            }
            var imported = body.dsl;
            var plan = JSON.parse(text).steps !== undefined;
            imported.name = editor.draft.name;
            editor.change("Import", function () { return imported; }, {reinspect: true});
            editor.canvas.fit();
            editor.toast("info", "Imported " + fileName + (plan ? " (a seed-004 plan, converted)" : "")
                + " into the draft; it keeps this workflow's name. Review it and save.");
          });
        });
  };

  Editor.prototype.download = function (blob, name) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  };

  Editor.prototype.exportJson = function () {
    this.download(new Blob([JSON.stringify(this.draft, null, 2) + "\n"], {type: "application/json"}),
        (this.draft.name || "workflow") + ".json");
  };

  Editor.prototype.exportPng = function () {
    this.download(this.canvas.png(), (this.draft.name || "workflow") + ".png");
  };

  TF.Editor = Editor;
})(window.Tokenflow = window.Tokenflow || {});
