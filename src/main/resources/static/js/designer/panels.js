// The editor's server-rendered regions: the inspector (fields bound to JSON pointers of the draft), the problems of
// the draft (a dry-run compile as it changes), the DSL and IR tabs, the diff view and the run form.
(function (TF) {
  "use strict";

  var Documents = TF.Documents;
  var FIELD_DELAY_MS = 350;
  var CHECK_DELAY_MS = 250;
  var CONDITION_TEMPLATES = {
    cel: {type: "cel", expression: ""},
    jsonpath: {type: "jsonpath", query: "$", operator: "exists"},
    schema_validation: {type: "schema_validation", schema: {type: "object"}},
    cross_node_comparison: {type: "cross_node_comparison", left: "", operator: "==", right: ""},
    composite: {type: "composite", operator: "AND", conditions: [{type: "cel", expression: ""}]},
    python_sandbox: {type: "python_sandbox", code: ""}
  };

  function Panels(editor) {
    this.editor = editor;
    this.selection = {nodes: [], edges: []};
    this.inspectSequence = 0;
    this.fieldTimers = {};
    this.dslEdited = false;
    this.listen();
  }

  /** What a field's text means as JSON: {value} (undefined removes the member) or {error}. */
  function parseField(element) {
    var type = element.dataset.type;
    if (type === "boolean") {
      return {value: element.checked ? true : undefined};
    }
    var text = element.value;
    if (type === "list") {
      var items = text.split(/[,\n]/).map(function (item) { return item.trim(); })
          .filter(function (item) { return item !== ""; });
      return {value: items.length > 0 || element.getAttribute("aria-required") === "true" ? items : undefined};
    }
    if (text.trim() === "") {
      return {value: undefined};
    }
    if (type === "integer") {
      return /^\s*-?\d+\s*$/.test(text) ? {value: Number(text)} : {error: "Expected a whole number, but found '" + text + "'"};
    }
    if (type === "number") {
      return isFinite(Number(text)) ? {value: Number(text)} : {error: "Expected a number, but found '" + text + "'"};
    }
    if (type === "json") {
      try {
        return {value: JSON.parse(text)};
      } catch (error) {
        return {error: "Expected JSON, but " + error.message};
      }
    }
    return {value: text};
  }

  Panels.parseField = parseField;

  Panels.prototype.listen = function () {
    var panels = this;
    document.addEventListener("input", function (event) {
      var field = event.target;
      if (field.id === "dsl-text") {
        panels.dslEdited = true;
        return;
      }
      if (!field.closest("#inspector") || !field.dataset.path || field.dataset.action) {
        return;
      }
      if (field.tagName === "SELECT" || field.type === "checkbox" || panels.commitsOnChange(field)) {
        return;
      }
      clearTimeout(panels.fieldTimers[field.dataset.path]);
      panels.fieldTimers[field.dataset.path] = setTimeout(function () { panels.commit(field); }, FIELD_DELAY_MS);
    });
    document.addEventListener("change", function (event) {
      var field = event.target;
      if (!field.closest("#inspector")) {
        return;
      }
      if (field.dataset.action === "condition-type") {
        panels.changeConditionType(field.dataset.path, field.value);
      } else if (field.dataset.path) {
        clearTimeout(panels.fieldTimers[field.dataset.path]);
        panels.commit(field);
      }
    });
    document.addEventListener("click", function (event) {
      var action = event.target.closest("#inspector [data-action]");
      if (action && action.tagName === "BUTTON") {
        panels.act(action);
      }
      var problem = event.target.closest("#problems-panel .problem-link");
      if (problem) {
        panels.goToProblem(problem.closest("li"));
      }
      var restore = event.target.closest("[data-restore]");
      if (restore) {
        panels.editor.restore(Number(restore.dataset.restore));
      }
      if (event.target.closest("#show-diff")) {
        panels.showDiff(document.getElementById("diff-panel"));
      }
    });
    document.addEventListener("submit", function (event) {
      if (event.target.id === "run-form") {
        event.preventDefault();
        panels.startRun(event.target);
      }
    });
    document.querySelectorAll(".tabs [role=tab]").forEach(function (tab) {
      tab.addEventListener("click", function () { panels.openTab(tab); });
    });
    document.getElementById("dsl-apply").addEventListener("click", function () { panels.applyDsl(); });
    document.getElementById("dsl-text").addEventListener("keydown", function (event) {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        panels.applyDsl();
      }
    });
  };

  /** Ids, edge ends and the workflow name change on blur or Enter: they rename or reconnect. */
  Panels.prototype.commitsOnChange = function (field) {
    return /^\/nodes\/\d+\/id$/.test(field.dataset.path) || /^\/edges\/\d+\/(from|to)$/.test(field.dataset.path);
  };

  // ---- Inspector ----

  Panels.prototype.inspect = function (selection) {
    this.selection = selection;
    var inspector = document.getElementById("inspector");
    var count = selection.nodes.length + selection.edges.length;
    if (count > 1) {
      this.inspectSequence++;
      inspector.innerHTML = "";
      inspector.inert = false;
      inspector.dataset.base = "";
      inspector.dataset.node = "";
      var heading = document.createElement("h2");
      heading.textContent = selection.nodes.length + " nodes, " + selection.edges.length + " edges selected";
      var hint = document.createElement("p");
      hint.className = "hint";
      hint.textContent = "Drag to move them together; Delete removes them, Ctrl+D duplicates the nodes.";
      var remove = document.createElement("button");
      remove.type = "button";
      remove.className = "button-danger";
      remove.dataset.action = "delete-selection";
      remove.textContent = "Delete selection";
      inspector.append(heading, hint, remove);
      return;
    }
    this.loadInspector();
  };

  /** Loads the inspector of the selection; the one shown meanwhile is inert, so no edit lands on the old selection. */
  Panels.prototype.loadInspector = function () {
    var panels = this;
    var sequence = ++this.inspectSequence;
    document.getElementById("inspector").inert = true;
    var fields = {document: JSON.stringify(this.editor.draft)};
    if (this.selection.nodes.length === 1) {
      fields.node = this.selection.nodes[0];
    } else if (this.selection.edges.length === 1) {
      fields.edge = this.selection.edges[0];
    }
    return this.editor.post("/inspector", fields).then(function (html) {
      if (sequence !== panels.inspectSequence) {
        return;
      }
      htmx.swap(document.getElementById("inspector"), html, {swapStyle: "outerHTML"});
      panels.decorateInspector();
    });
  };

  Panels.prototype.commit = function (field) {
    var parsed = parseField(field);
    var holder = field.closest(".field");
    this.fieldError(holder, parsed.error);
    if (parsed.error) {
      return;
    }
    var pointer = field.dataset.path;
    var rename = /^\/nodes\/\d+\/id$/.exec(pointer);
    if (rename) {
      this.rename(field, pointer, parsed.value);
      return;
    }
    var structural = this.commitsOnChange(field);
    this.editor.change("Edit " + pointer, function (d) {
      if (parsed.value === undefined) {
        if (Documents.get(d, pointer) !== undefined) {
          Documents.remove(d, pointer);
        }
      } else {
        Documents.set(d, pointer, parsed.value);
      }
    }, {coalesce: pointer, fromInspector: true});
    if (structural) {
      var edge = Number(/^\/edges\/(\d+)/.exec(pointer)[1]);
      this.editor.canvas.select([], [edge]);
    }
  };

  Panels.prototype.rename = function (field, pointer, newId) {
    var draft = this.editor.draft;
    var oldId = Documents.get(draft, pointer);
    if (newId === oldId) {
      return;
    }
    var problem = newId === undefined ? "Expected an id, but the field is empty"
        : !Documents.ID_PATTERN.test(newId) ? "Expected an id of letters, digits, _ and - (starting with a letter "
            + "or _), but found '" + newId + "'"
        : Documents.indexOfNode(draft, newId) >= 0 ? "Expected a new id, but '" + newId + "' is another node's" : null;
    this.fieldError(field.closest(".field"), problem);
    if (problem) {
      return;
    }
    var position = {};
    position[newId] = this.editor.canvas.cy.getElementById(oldId).position();
    var placed = Documents.get(draft, pointer.replace(/id$/, "ui")) !== undefined;
    this.editor.change("Rename", function (d) {
      Documents.renameNode(d, oldId, newId);
      if (!placed) {
        Documents.setPositions(d, position);
      }
    });
    this.editor.canvas.select([newId], []);
  };

  Panels.prototype.fieldError = function (holder, message) {
    if (!holder) {
      return;
    }
    var local = holder.querySelector(".local-error");
    if (!message) {
      if (local) {
        local.remove();
      }
      return;
    }
    if (!local) {
      local = document.createElement("p");
      local.className = "field-error local-error";
      local.setAttribute("role", "alert");
      holder.appendChild(local);
    }
    local.textContent = message;
  };

  /** The inspector's buttons: add or remove a section, a rule or a condition; delete the selection. */
  Panels.prototype.act = function (button) {
    var action = button.dataset.action;
    var path = button.dataset.path;
    if (action === "delete-selection") {
      this.editor.deleteSelection();
      return;
    }
    var value = button.dataset.value === undefined ? undefined : JSON.parse(button.dataset.value);
    this.editor.change(button.textContent.trim(), function (d) {
      if (action === "set") {
        Documents.set(d, path, value);
      } else if (action === "append") {
        if (!Array.isArray(Documents.get(d, path))) {
          Documents.set(d, path, []);
        }
        Documents.get(d, path).push(value);
      } else if (action === "remove") {
        Documents.remove(d, path);
      }
    }, {reinspect: true});
  };

  Panels.prototype.changeConditionType = function (path, type) {
    var current = Documents.get(this.editor.draft, path);
    var replacement = Documents.clone(CONDITION_TEMPLATES[type]);
    var expression = typeof current === "string" ? current : current && current.expression;
    if (expression && (type === "cel" || type === "cross_node_comparison")) {
      replacement = type === "cel" ? {type: "cel", expression: expression}
          : {type: "cross_node_comparison", expression: expression};
    }
    this.editor.change("Condition type", function (d) { Documents.set(d, path, replacement); }, {reinspect: true});
  };

  /** Shows each diagnostic beside the deepest field or section its pointer falls in (a field before its section). */
  Panels.prototype.decorateInspector = function () {
    var inspector = document.getElementById("inspector");
    if (!inspector) {
      return;
    }
    inspector.querySelectorAll(".field-problems").forEach(function (list) { list.innerHTML = ""; });
    inspector.querySelectorAll("[aria-invalid=true]").forEach(function (field) { field.removeAttribute("aria-invalid"); });
    var holders = Array.prototype.slice.call(inspector.querySelectorAll("[data-field], [data-scope]"));
    var nodeId = inspector.dataset.node;
    this.editor.diagnostics.forEach(function (diagnostic) {
      var best = null;
      var bestLength = -1;
      holders.forEach(function (holder) {
        var path = holder.hasAttribute("data-field") ? holder.dataset.field : holder.dataset.scope;
        var within = path === "" ? !diagnostic.node : diagnostic.pointer === path
            || diagnostic.pointer.indexOf(path + "/") === 0;
        var field = holder.hasAttribute("data-field");
        if (within && (path.length > bestLength || (path.length === bestLength && field))) {
          best = holder;
          bestLength = path.length;
        }
      });
      if (!best && nodeId && diagnostic.node === nodeId) {
        best = inspector;
      }
      if (!best) {
        return;
      }
      var list = best === inspector ? inspector.querySelector(".node-level")
          : best.querySelector(":scope > .field-problems") || inspector.querySelector(".node-level");
      if (!list) {
        return;
      }
      var item = document.createElement("li");
      item.className = "problem-" + diagnostic.severity;
      item.textContent = diagnostic.message;
      list.appendChild(item);
      var input = best.matches("[data-field]") ? best.querySelector("[data-path]") : null;
      if (input && diagnostic.severity === "error") {
        input.setAttribute("aria-invalid", "true");
      }
    });
  };

  // ---- Problems ----

  /** Compiles the draft on the server after a short pause; older answers are dropped. */
  Panels.prototype.check = function (delay) {
    var panels = this;
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(function () {
      var revision = panels.editor.revision;
      var started = performance.now();
      panels.editor.post("/check", {document: JSON.stringify(panels.editor.draft), revision: revision})
          .then(function (html) {
            if (revision !== panels.editor.revision) {
              return;
            }
            htmx.swap(document.getElementById("problems-panel"), html, {swapStyle: "outerHTML"});
            panels.problemsChanged();
            panels.editor.timings.lastCheckMs = performance.now() - started;
            panels.editor.timings.checkedRevision = revision;
            if (panels.isOpen("panel-ir")) {
              panels.loadIr();
            }
          });
    }, delay === undefined ? CHECK_DELAY_MS : delay);
  };

  Panels.prototype.problemsChanged = function () {
    var panel = document.getElementById("problems-panel");
    var diagnostics = [];
    panel.querySelectorAll("li.diagnostic").forEach(function (item) {
      diagnostics.push({node: item.dataset.node || null, pointer: item.dataset.pointer || "",
        severity: item.dataset.severity, message: item.querySelector(".message").textContent});
    });
    this.editor.diagnostics = diagnostics;
    var errors = Number(panel.dataset.errors || 0);
    var count = document.getElementById("problem-count");
    count.textContent = String(errors + Number(panel.dataset.warnings || 0));
    count.classList.toggle("has-errors", errors > 0);
    this.editor.canvas.markProblems(diagnostics, this.editor.draft);
    this.editor.refreshState();
    this.decorateInspector();
  };

  Panels.prototype.goToProblem = function (item) {
    var node = item.dataset.node;
    var edge = /^\/edges\/(\d+)/.exec(item.dataset.pointer || "");
    var canvas = this.editor.canvas;
    if (edge && Documents.get(this.editor.draft, edge[0]) !== undefined) {
      canvas.select([], [Number(edge[1])]);
    } else if (node && Documents.indexOfNode(this.editor.draft, node) >= 0) {
      canvas.select([node], []);
      canvas.reveal(node);
    } else {
      canvas.select([], []);
    }
  };

  Panels.prototype.showProblemsTab = function () {
    this.openTab(document.getElementById("tab-problems"));
  };

  // ---- Tabs, DSL and IR ----

  Panels.prototype.openTab = function (tab) {
    this.editor.workspace.openBottom();
    document.querySelectorAll(".tabs [role=tab]").forEach(function (other) {
      other.setAttribute("aria-selected", String(other === tab));
      document.getElementById(other.getAttribute("aria-controls")).hidden = other !== tab;
    });
    if (tab.id === "tab-dsl") {
      this.showDsl();
    } else if (tab.id === "tab-ir") {
      this.loadIr();
    }
  };

  Panels.prototype.isOpen = function (panelId) {
    return !document.getElementById(panelId).hidden;
  };

  Panels.prototype.showDsl = function () {
    if (!this.dslEdited) {
      document.getElementById("dsl-text").value = JSON.stringify(this.editor.draft, null, 2);
    }
  };

  Panels.prototype.applyDsl = function () {
    var error = document.getElementById("dsl-error");
    var parsed;
    try {
      parsed = JSON.parse(document.getElementById("dsl-text").value);
    } catch (failure) {
      error.textContent = "Expected a JSON document, but " + failure.message;
      error.hidden = false;
      return;
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      error.textContent = "Expected a JSON object (a workflow), but found " + (Array.isArray(parsed) ? "an array" : parsed);
      error.hidden = false;
      return;
    }
    error.hidden = true;
    this.dslEdited = false;
    this.editor.change("Edit DSL", function () { return parsed; }, {reinspect: true});
  };

  Panels.prototype.loadIr = function () {
    this.editor.post("/ir", {document: JSON.stringify(this.editor.draft)}).then(function (html) {
      htmx.swap(document.getElementById("ir-panel"), html, {swapStyle: "outerHTML"});
    });
  };

  /** Called after every draft change. */
  Panels.prototype.draftChanged = function (options) {
    if (this.isOpen("panel-dsl")) {
      this.showDsl();
    }
    this.check();
    if (options.reinspect) {
      this.selection = this.editor.canvas.selection();
      this.inspect(this.selection);
    }
  };

  // ---- Diff ----

  Panels.prototype.showDiff = function (panel) {
    var editor = this.editor;
    var list = function (name) {
      var value = panel.dataset[name];
      return value ? value.split(",") : [];
    };
    var summary = {addedNodes: list("addedNodes"), removedNodes: list("removedNodes"),
      changedNodes: list("changedNodes"), addedEdges: list("addedEdges"), removedEdges: list("removedEdges")};
    var from = panel.dataset.from;
    var to = panel.dataset.to;
    var version = function (v) {
      return fetch("/api/v1/workflows/" + editor.workflowId + "/versions/" + v, {credentials: "same-origin",
        headers: {"Accept": "application/json"}}).then(function (response) { return response.json(); });
    };
    Promise.all([version(from), version(to)]).then(function (versions) {
      editor.canvas.showDiff(versions[0].dsl, versions[1].dsl, summary);
      diffChip(from, to, function () { editor.canvas.endDiff(editor.draft); });
    });
  };

  /** A compact chip over the canvas's top left corner while a diff is shown: what the colours mean, and the way out. */
  function diffChip(from, to, back) {
    var chip = document.getElementById("diff-chip");
    chip.innerHTML = "";
    var text = document.createElement("strong");
    text.textContent = "Changes from version " + from + " to " + to;
    chip.appendChild(text);
    [["added", "added"], ["changed", "changed"], ["removed", "removed"]].forEach(function (kind) {
      var legend = document.createElement("span");
      legend.className = "legend legend-" + kind[0];
      legend.textContent = kind[1];
      chip.appendChild(legend);
    });
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button-quiet small";
    button.textContent = "Back to editing";
    button.title = "Editing is paused while the changes are shown";
    button.addEventListener("click", function () {
      chip.hidden = true;
      back();
    });
    chip.appendChild(button);
    chip.hidden = false;
  }

  // ---- Runs ----

  Panels.prototype.startRun = function (form) {
    var editor = this.editor;
    var panels = this;
    var inputs = {};
    var failed = false;
    form.querySelectorAll(".field-problems").forEach(function (list) { list.innerHTML = ""; });
    form.querySelectorAll("[data-path]").forEach(function (field) {
      var parsed = parseField(field);
      panels.fieldError(field.closest(".field"), parsed.error);
      failed = failed || !!parsed.error;
      if (parsed.value !== undefined) {
        Documents.set(inputs, field.dataset.path, parsed.value);
      }
    });
    var error = document.getElementById("run-error");
    error.hidden = true;
    if (failed) {
      return;
    }
    fetch("/api/v1/runs", {method: "POST", credentials: "same-origin",
      headers: editor.headers({"Content-Type": "application/json", "Accept": "application/json"}),
      body: JSON.stringify({workflow: editor.workflowId, version: Number(form.dataset.version), inputs: inputs})})
        .then(function (response) {
          return response.json().then(function (body) {
            if (response.ok) {
              panels.followRun(body.id, Number(form.dataset.version));
              return;
            }
            var input = /^\/inputs(\/.*)$/.exec(body.pointer || "");
            var field = input && form.querySelector('[data-path="' + input[1] + '"]');
            if (field) {
              panels.fieldError(field.closest(".field"), body.detail);
            } else {
              error.textContent = "Not started: " + (body.detail || "the server answered " + response.status);
              error.hidden = false;
            }
          });
        });
  };

  /** Shows a started run and follows its status until it ends. */
  Panels.prototype.followRun = function (runId, version) {
    var result = document.getElementById("run-result");
    result.innerHTML = "";
    var heading = document.createElement("p");
    heading.innerHTML = "Run <code></code> of version " + version + ": <span class=\"status\"></span>";
    heading.querySelector("code").textContent = runId;
    var status = heading.querySelector(".status");
    var links = document.createElement("p");
    links.innerHTML = "<a class=\"run-page\">Open the run page</a> · <a class=\"run-json\">as JSON</a>";
    links.querySelector(".run-page").href = "/runs/" + runId;
    links.querySelector(".run-json").href = "/api/v1/runs/" + runId;
    var nodes = document.createElement("ul");
    nodes.className = "run-nodes";
    result.append(heading, links, nodes);
    var polls = 0;
    var poll = function () {
      fetch("/api/v1/runs/" + runId, {credentials: "same-origin", headers: {"Accept": "application/json"}})
          .then(function (response) { return response.ok ? response.json() : {status: "PENDING", nodes: []}; })
          .then(function (run) {
            status.textContent = String(run.status).toLowerCase();
            status.className = "status status-" + String(run.status).toLowerCase();
            nodes.innerHTML = "";
            (run.nodes || []).forEach(function (node) {
              var item = document.createElement("li");
              item.textContent = node.node + ": " + String(node.status).toLowerCase();
              nodes.appendChild(item);
            });
            var ended = run.status !== "RUNNING" && run.status !== "PENDING";
            var settled = ended && (run.nodes || []).every(function (node) {
              return ["RUNNING", "PENDING", "READY", "DISPATCHED"].indexOf(String(node.status).toUpperCase()) < 0;
            }) && (run.nodes || []).length > 0;
            if (!settled && ++polls < 120) {
              setTimeout(poll, 500);
            }
          });
    };
    poll();
  };

  TF.Panels = Panels;
})(window.Tokenflow = window.Tokenflow || {});
