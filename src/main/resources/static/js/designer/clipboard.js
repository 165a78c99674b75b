// Copy and paste of nodes, also between workflows: Ctrl+C puts the selected nodes and the edges among them on the
// system clipboard (when the page may write it) and always in localStorage; Ctrl+V pastes them as one undoable
// change, with fresh ids where an id is taken and the routes among them rewritten to those ids.
(function (TF) {
  "use strict";

  var Documents = TF.Documents;
  var KEY = "tokenflow.designer.clipboard";
  var MARK = "tokenflow-nodes";
  var PASTE_WAIT_MS = 80;
  var STEP = 30;

  function Clipboard(editor) {
    this.editor = editor;
    this.pastes = 0;
    this.pending = null;
  }

  /** The selected nodes and the edges among them, as the JSON text both clipboards get. */
  Clipboard.prototype.copy = function () {
    var draft = this.editor.draft;
    var ids = this.editor.canvas.selection().nodes;
    if (ids.length === 0) {
      return;
    }
    var chosen = {};
    ids.forEach(function (id) { chosen[id] = true; });
    var text = JSON.stringify({format: MARK, version: 1,
      nodes: Documents.nodes(draft).filter(function (node) { return chosen[node.id]; }),
      edges: Documents.edges(draft).filter(function (edge) { return chosen[edge.from] && chosen[edge.to]; })});
    var stored = {text: text, system: false};
    this.remember(stored);
    this.pastes = 0;
    var clipboard = this;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () {
        stored.system = true;
        clipboard.remember(stored);
      }, function () {
        // the page may not write the system clipboard here: the localStorage copy serves Ctrl+V
      });
    }
    this.editor.toast("success", "Copied " + ids.length + (ids.length === 1 ? " node" : " nodes")
        + ". Press Ctrl+V here or in another workflow's designer to paste.");
  };

  Clipboard.prototype.remember = function (stored) {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(stored));
    } catch (ignored) {
      // storage refused: only the system clipboard holds the copy
    }
  };

  Clipboard.prototype.stored = function () {
    try {
      return JSON.parse(window.localStorage.getItem(KEY) || "null");
    } catch (ignored) {
      return null;
    }
  };

  /** Ctrl+V: waits briefly for the browser's paste event (the system clipboard); without one, uses localStorage. */
  Clipboard.prototype.expectPaste = function () {
    var clipboard = this;
    clearTimeout(this.pending);
    this.pending = setTimeout(function () { clipboard.pasteText(null); }, PASTE_WAIT_MS);
  };

  /** The text of a paste event; null or "" when the system clipboard had none for the page. */
  Clipboard.prototype.pasteText = function (systemText) {
    clearTimeout(this.pending);
    this.pending = null;
    var stored = this.stored();
    var text = systemText;
    if (!text || (stored && !stored.system)) {
      text = stored ? stored.text : null;
    }
    if (!text) {
      this.editor.toast("error", "Nothing pasted: copy nodes first (select them and press Ctrl+C).");
      return;
    }
    var payload;
    try {
      payload = validate(JSON.parse(text));
    } catch (error) {
      this.editor.toast("error", "Nothing pasted: expected nodes copied in the designer, but "
          + (error instanceof SyntaxError ? "the clipboard holds text that is not JSON" : error.message) + ".");
      return;
    }
    this.paste(payload);
  };

  Clipboard.prototype.paste = function (payload) {
    var editor = this.editor;
    var centre = editor.canvas.center();
    var offset = STEP * this.pastes++;
    var added = [];
    editor.change("Paste", function (d) {
      added = pasteInto(d, payload, {x: centre.x + offset, y: centre.y + offset});
    }, {reinspect: true});
    editor.canvas.select(added, []);
    document.getElementById("canvas").focus();
  };

  /** The payload if it is one; throws an Error saying what is wrong with it otherwise. */
  function validate(payload) {
    if (!payload || typeof payload !== "object" || payload.format !== MARK) {
      throw new Error("the clipboard holds other JSON");
    }
    if (!Array.isArray(payload.nodes) || payload.nodes.length === 0) {
      throw new Error("it holds no nodes");
    }
    var ids = {};
    payload.nodes.forEach(function (node, index) {
      if (!node || typeof node !== "object" || typeof node.id !== "string" || !Documents.ID_PATTERN.test(node.id)
          || typeof node.type !== "string") {
        throw new Error("node " + (index + 1) + " has no valid id and type");
      }
      if (ids[node.id]) {
        throw new Error("the id '" + node.id + "' is there twice");
      }
      ids[node.id] = true;
    });
    (Array.isArray(payload.edges) ? payload.edges : []).forEach(function (edge, index) {
      if (!edge || !ids[edge.from] || !ids[edge.to]) {
        throw new Error("edge " + (index + 1) + " does not join two of the copied nodes");
      }
    });
    return payload;
  }

  /** Adds the payload's nodes around {@code centre}; returns their ids in the document. */
  function pasteInto(document, payload, centre) {
    var copied = {nodes: Documents.clone(payload.nodes), edges: Documents.clone(payload.edges || [])};
    var pasted = {};
    copied.nodes.forEach(function (node) { pasted[node.id] = true; });
    copied.nodes.forEach(dropRoutesOutside(pasted));
    var taken = {nodes: Documents.nodes(document).concat(copied.nodes)};
    copied.nodes.slice().forEach(function (node) {
      if (Documents.indexOfNode(document, node.id) >= 0) {
        var fresh = freshId(taken, node.id);
        Documents.renameNode(copied, node.id, fresh);
      }
    });
    place(copied.nodes, centre);
    document.nodes = Documents.nodes(document).concat(copied.nodes);
    if (copied.edges.length > 0) {
      document.edges = Documents.edges(document).concat(copied.edges);
    }
    return copied.nodes.map(function (node) { return node.id; });
  }

  function freshId(taken, id) {
    var fresh = Documents.freeId(taken, id);
    taken.nodes = taken.nodes.concat([{id: fresh}]);
    return fresh;
  }

  /** Drops a node's route entries (branch, loop, rejection paths) naming nodes that were not copied with it. */
  function dropRoutesOutside(pasted) {
    return function (node) {
      Documents.routeLists(node).forEach(function (list) {
        for (var i = list.ids.length - 1; i >= 0; i--) {
          if (!pasted[list.ids[i]]) {
            list.ids.splice(i, 1);
          }
        }
      });
      if (node.loop && typeof node.loop === "object" && node.loop.loop_back_to && !pasted[node.loop.loop_back_to]) {
        delete node.loop.loop_back_to;
      }
    };
  }

  /** Moves the nodes so the middle of their positions is at {@code centre}, keeping their arrangement. */
  function place(nodes, centre) {
    var placed = nodes.filter(function (node) { return node.ui && typeof node.ui.x === "number"; });
    var xs = placed.map(function (node) { return node.ui.x; });
    var ys = placed.map(function (node) { return node.ui.y; });
    var middle = placed.length === 0 ? {x: 0, y: 0}
        : {x: (Math.min.apply(null, xs) + Math.max.apply(null, xs)) / 2,
           y: (Math.min.apply(null, ys) + Math.max.apply(null, ys)) / 2};
    nodes.forEach(function (node, index) {
      var ui = node.ui && typeof node.ui.x === "number" ? node.ui : {x: middle.x + index * STEP, y: middle.y};
      node.ui = Object.assign({}, node.ui, {x: Math.round(ui.x - middle.x + centre.x),
        y: Math.round(ui.y - middle.y + centre.y)});
    });
  }

  Clipboard.pasteInto = pasteInto;
  TF.Clipboard = Clipboard;
})(window.Tokenflow = window.Tokenflow || {});
