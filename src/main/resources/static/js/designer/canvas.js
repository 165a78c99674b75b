// The canvas: a cytoscape graph kept in step with the draft document. It never changes the draft itself; it tells
// the editor what the user did (drop a type, connect two nodes, move, select) through the handlers it is given.
(function (TF) {
  "use strict";

  var Documents = TF.Documents;
  var Style = TF.CanvasStyle;
  var NODE_WIDTH = Style.NODE_WIDTH;
  var NODE_HEIGHT = Style.NODE_HEIGHT;
  /** Model pixels kept around the graph when it is fitted in view. */
  var FIT_PADDING = 40;

  function placedByDocument(node) {
    return !!node.ui && typeof node.ui.x === "number" && typeof node.ui.y === "number";
  }

  /** Dagre's positions for the workflow's nodes and the stand-ins for missing ones (ids "missing:<id>"). */
  function layoutOf(nodeIds, missingIds, edges) {
    var boxes = nodeIds.map(function (id) { return {id: id, width: NODE_WIDTH, height: NODE_HEIGHT}; })
        .concat(missingIds.map(function (id) { return {id: id, width: Style.MISSING_WIDTH, height: NODE_HEIGHT}; }));
    return TF.Layout.positions(boxes, edges);
  }

  /** The graph a document draws: its nodes, edges, route-only edges and ghosts for ids that name no node. */
  function graphOf(document, kinds) {
    var graph = {nodes: [], edges: [], ghosts: [], meta: {}};
    var ids = {};
    Documents.nodes(document).forEach(function (node) {
      if (node && typeof node.id === "string" && !ids[node.id]) {
        ids[node.id] = true;
        graph.nodes.push(node);
      }
    });
    var hasIncoming = {};
    var drawn = {};
    var occurrences = {};
    var ghost = function (id) {
      if (!ids[id] && graph.ghosts.indexOf(id) < 0) {
        graph.ghosts.push(id);
      }
      return ids[id] ? id : "missing:" + id;
    };
    var routeLabels = routeLabelsOf(graph.nodes);
    Documents.edges(document).forEach(function (edge, index) {
      if (!edge || typeof edge.from !== "string" || typeof edge.to !== "string" || edge.from === "" || edge.to === "") {
        return;
      }
      var key = edge.from + ">" + edge.to;
      occurrences[key] = (occurrences[key] || 0) + 1;
      drawn[key] = true;
      hasIncoming[edge.to] = true;
      var text = edge.label || (edge.condition ? conditionText(edge.condition) : routeLabels[key] || "");
      graph.edges.push({id: "e:" + key + "#" + occurrences[key], source: ghost(edge.from), target: ghost(edge.to),
        index: index, label: shorten(text), full: text, route: false});
    });
    graph.nodes.forEach(function (node) {
      Documents.routeLists(node).forEach(function (list) {
        list.ids.forEach(function (target) {
          var key = node.id + ">" + target;
          if (typeof target !== "string" || drawn[key] || target === node.id) {
            return;
          }
          drawn[key] = true;
          hasIncoming[target] = true;
          var text = routeLabels[key] || list.label;
          graph.edges.push({id: "r:" + key, source: node.id, target: ghost(target), index: -1,
            label: shorten(text), full: text, route: true});
        });
      });
    });
    graph.nodes.forEach(function (node) {
      var kind = kinds[node.type] || "task";
      graph.meta[node.id] = {entry: !hasIncoming[node.id], kind: kind, look: Style.lookOf(node, kind)};
    });
    return graph;
  }

  /** "A>B" → what routes A to B: a rule's condition, "default", a loop's break or timeout path… */
  function routeLabelsOf(nodes) {
    var labels = {};
    nodes.forEach(function (node) {
      var branch = node.branch;
      if (branch && Array.isArray(branch.rules)) {
        branch.rules.forEach(function (rule, index) {
          (Array.isArray(rule && rule.next_nodes) ? rule.next_nodes : []).forEach(function (target) {
            labels[node.id + ">" + target] = labels[node.id + ">" + target]
                || (rule.name || conditionText(rule.condition) || "rule " + (index + 1));
          });
        });
      }
      Documents.routeLists(node).forEach(function (list) {
        if (list.label !== "rule") {
          list.ids.forEach(function (target) {
            labels[node.id + ">" + target] = labels[node.id + ">" + target] || list.label;
          });
        }
      });
    });
    return labels;
  }

  function conditionText(condition) {
    if (typeof condition === "string") {
      return condition;
    }
    if (!condition || typeof condition !== "object") {
      return "";
    }
    return condition.expression || condition.query || condition.type || "";
  }

  /** Long labels are cut on the canvas; the whole text shows on hover. */
  function shorten(text) {
    text = String(text);
    return text.length > 28 ? text.substring(0, 27) + "…" : text;
  }

  /** Sets the canvas's own classes of an element, keeping those of a gesture (eh-…) or a diff under way. */
  function ownClasses(element, classes) {
    var kept = element.classes().filter(function (name) { return /^(eh|diff)-/.test(name); });
    element.classes(classes.split(" ").concat(kept).join(" "));
  }

  /** What a node shows: its name and id (or its id), its type's name, and the short label of the far bands. */
  function labelOf(node, types, problem) {
    var named = typeof node.name === "string" && node.name !== "";
    return {label: problem + (named ? node.name + "\n" + node.id : node.id), short: problem + node.id, named: named,
      typeName: String(types[node.type] || node.type || "?")};
  }

  function Canvas(container, handle, options) {
    this.container = container;
    this.options = options;
    this.kinds = options.kinds;
    this.typeNames = options.typeNames;
    this.readOnly = false;
    this.problemLabels = {};
    var look = Style.stylesheet();
    this.palette = look.palette;
    this.band = Style.bandOf(1);
    container.dataset.zoomBand = "near";
    this.cy = cytoscape({
      container: container, style: look.style, minZoom: 0.05, maxZoom: 3,
      boxSelectionEnabled: true, selectionType: "single"
    });
    this.afterDrawn = [];
    var canvas = this;
    document.addEventListener("tokenflow:theme", function () { canvas.restyle(); });
    this.edgeHandle = new TF.EdgeHandle(this, handle);
    this.listen();
    this.followZoom();
    this.explainLabels();
    var canvas = this;
    var fitted = false;
    new ResizeObserver(function () {
      canvas.cy.resize();
      if (!fitted) {
        fitted = true;
        canvas.fit();
      }
    }).observe(container);
  }

  Canvas.prototype.listen = function () {
    var canvas = this;
    var cy = this.cy;
    var moved = {};
    var flush = null;
    cy.on("dragfree", "node", function (event) {
      if (canvas.readOnly || event.target.hasClass("missing")) {
        return;
      }
      moved[event.target.id()] = Object.assign({}, event.target.position());
      clearTimeout(flush);
      flush = setTimeout(function () {
        var positions = moved;
        moved = {};
        canvas.options.onMove(positions);
      }, 0);
    });
    var selectionChanged = null;
    cy.on("select unselect", function () {
      clearTimeout(selectionChanged);
      selectionChanged = setTimeout(function () { canvas.options.onSelect(canvas.selection()); }, 30);
    });
  };

  /**
   * Keeps every element's zoom band class in step with the zoom: set once per frame at most, and only when the
   * band changes (a few times over the whole zoom range), in one batch.
   */
  Canvas.prototype.followZoom = function () {
    var canvas = this;
    var pending = false;
    this.cy.on("zoom", function () {
      if (!pending) {
        pending = true;
        requestAnimationFrame(function () {
          pending = false;
          canvas.applyBand();
        });
      }
    });
  };

  /**
   * Before the first render, takes the zoom band the first fit will choose, from the stored positions: the elements
   * are then styled once, for that band, instead of once for the normal band and again when the fit changes it (on a
   * 200-node workflow that second pass was as long as the first).
   */
  Canvas.prototype.expectBand = function (nodes) {
    var box = {x1: Infinity, y1: Infinity, x2: -Infinity, y2: -Infinity};
    var placed = nodes.every(function (node) {
      var ui = node.ui;
      if (!ui || typeof ui.x !== "number" || typeof ui.y !== "number") {
        return false;
      }
      box.x1 = Math.min(box.x1, ui.x - NODE_WIDTH / 2);
      box.x2 = Math.max(box.x2, ui.x + NODE_WIDTH / 2);
      box.y1 = Math.min(box.y1, ui.y - NODE_HEIGHT / 2);
      box.y2 = Math.max(box.y2, ui.y + NODE_HEIGHT / 2);
      return true;
    });
    if (!placed || nodes.length === 0 || this.cy.width() === 0) {
      return;
    }
    var zoom = Math.min(1, (this.cy.width() - 2 * FIT_PADDING) / (box.x2 - box.x1),
        (this.cy.height() - 2 * FIT_PADDING) / (box.y2 - box.y1));
    this.band = Style.bandOf(zoom);
    this.container.dataset.zoomBand = this.band || "near";
  };

  Canvas.prototype.applyBand = function () {
    var band = Style.bandOf(this.cy.zoom());
    if (band === this.band) {
      return;
    }
    var old = this.band;
    var cy = this.cy;
    this.band = band;
    this.container.dataset.zoomBand = band || "near";
    cy.batch(function () {
      cy.elements().removeClass(Style.bandClass(old)).addClass(Style.bandClass(band));
    });
  };

  /** Shows the whole text of a shortened edge label as the canvas's tooltip while the pointer is on the edge. */
  Canvas.prototype.explainLabels = function () {
    var container = this.container;
    this.cy.on("mouseover", "edge", function (event) {
      var full = event.target.data("full");
      if (full && full !== event.target.data("label")) {
        container.title = full;
      }
    });
    this.cy.on("mouseout", "edge", function () { container.removeAttribute("title"); });
  };

  Canvas.prototype.canConnect = function (source, target) {
    return !this.readOnly && !source.same(target) && !target.hasClass("missing") && !source.hasClass("missing")
        && !target.hasClass("eh-ghost") && !source.edgesTo(target).some(function (edge) {
          return !edge.hasClass("route") && !edge.hasClass("eh-preview");
        });
  };

  Canvas.prototype.hideHandle = function () {
    this.edgeHandle.hide();
  };

  /** Brings the graph in line with the document; returns whether some node had no stored position. */
  Canvas.prototype.render = function (document) {
    var canvas = this;
    var cy = this.cy;
    var graph = graphOf(document, this.kinds);
    var wanted = {};
    var unplaced = [];
    // a first drawing with no stored position at all is laid out before it is drawn, not drawn and then moved
    var laidOut = null;
    if (cy.elements().empty()) {
      this.expectBand(graph.nodes);
      if (graph.nodes.length > 0 && !graph.nodes.some(placedByDocument)) {
        laidOut = layoutOf(graph.nodes.map(function (node) { return node.id; }),
            graph.ghosts.map(function (id) { return "missing:" + id; }), graph.edges);
      }
    }
    var band = " " + Style.bandClass(this.band);
    cy.batch(function () {
      graph.nodes.forEach(function (node) { wanted[node.id] = true; });
      graph.ghosts.forEach(function (id) { wanted["missing:" + id] = true; });
      graph.edges.forEach(function (edge) { wanted[edge.id] = true; });
      cy.elements().forEach(function (element) {
        if (!wanted[element.id()] && !element.hasClass("eh-ghost") && !element.hasClass("eh-preview")) {
          element.remove();
        }
      });
      var fresh = [];
      graph.nodes.forEach(function (node) {
        var meta = graph.meta[node.id];
        var classes = "kind-" + meta.kind + " look-" + meta.look + (meta.entry ? " entry" : "") + band
            + canvas.problemClass(node.id);
        var data = labelOf(node, canvas.typeNames, canvas.problemLabels[node.id] || "");
        data.type = node.type;
        var existing = cy.getElementById(node.id);
        var ui = placedByDocument(node) ? node.ui : null;
        if (existing.empty()) {
          fresh.push({group: "nodes", data: Object.assign({id: node.id}, data), classes: classes,
            position: ui ? {x: ui.x, y: ui.y} : laidOut ? laidOut[node.id] : {x: 0, y: 0}});
          if (!ui && !laidOut) {
            unplaced.push(node.id);
          }
          return;
        }
        existing.data(data);
        if (ui && (existing.position("x") !== ui.x || existing.position("y") !== ui.y) && !existing.grabbed()) {
          existing.position({x: ui.x, y: ui.y});
        }
        ownClasses(existing, classes);
      });
      graph.ghosts.forEach(function (id) {
        if (cy.getElementById("missing:" + id).empty()) {
          if (!laidOut) {
            unplaced.push("missing:" + id);
          }
          fresh.push({group: "nodes", data: {id: "missing:" + id, label: id + "?\nno such node", short: id + "?"},
            classes: "missing" + band, grabbable: false, position: laidOut ? laidOut["missing:" + id] : {x: 0, y: 0}});
        }
      });
      graph.edges.forEach(function (edge) {
        var classes = (edge.route ? "route" : "") + (canvas.edgeProblems && canvas.edgeProblems[edge.index]
            ? " problem-error" : "") + band;
        var existing = cy.getElementById(edge.id);
        if (existing.empty()) {
          fresh.push({group: "edges", data: {id: edge.id, source: edge.source, target: edge.target,
            label: edge.label, full: edge.full, index: edge.index}, classes: classes, selectable: !edge.route});
          return;
        }
        existing.data({label: edge.label, full: edge.full, index: edge.index});
        ownClasses(existing, classes);
      });
      // one add for all new elements: a first render of 200 nodes is one style pass, not 400
      cy.add(fresh);
    });
    unplaced = unplaced.map(function (id) { return cy.getElementById(id); });
    this.place(unplaced, graph.nodes.length + graph.ghosts.length);
    return unplaced.length > 0;
  };

  /**
   * Gives positions to nodes the document has none for: all of them laid out when no node has one, else each one
   * below the nodes leading to it (or right of the graph), not on top of another node.
   */
  Canvas.prototype.place = function (unplaced, total) {
    if (unplaced.length === 0) {
      return;
    }
    var cy = this.cy;
    if (unplaced.length >= total) {
      this.layout();
      return;
    }
    var placed = cy.nodes().not(cy.collection(unplaced)).not(".eh-ghost");
    var box = placed.boundingBox();
    unplaced.forEach(function (node, k) {
      var sources = node.incomers("node").filter(function (n) { return placed.contains(n); });
      var position = sources.empty() ? {x: box.x2 + NODE_WIDTH, y: box.y1 + NODE_HEIGHT / 2 + k * (NODE_HEIGHT + 30)}
          : {x: sources.toArray().reduce(function (sum, n) { return sum + n.position("x"); }, 0) / sources.length,
             y: Math.max.apply(null, sources.map(function (n) { return n.position("y"); })) + NODE_HEIGHT * 2};
      while (placed.some(function (other) {
        return Math.abs(other.position("x") - position.x) < NODE_WIDTH + 10
            && Math.abs(other.position("y") - position.y) < NODE_HEIGHT + 10;
      })) {
        position.x += NODE_WIDTH + 30;
      }
      node.position(position);
      placed = placed.union(node);
    });
  };

  /** Lays the graph out top to bottom (as a workflow without positions opens); returns the positions by node id. */
  Canvas.prototype.layout = function () {
    var cy = this.cy;
    var nodes = cy.nodes().not(".eh-ghost, .eh-preview");
    var laidOut = layoutOf(nodes.not(".missing").map(function (node) { return node.id(); }),
        nodes.filter(".missing").map(function (node) { return node.id(); }),
        cy.edges().not(".eh-ghost, .eh-preview").map(function (edge) {
          return {id: edge.id(), source: edge.source().id(), target: edge.target().id()};
        }));
    cy.batch(function () {
      nodes.forEach(function (node) { node.position(laidOut[node.id()]); });
    });
    this.fit();
    var positions = {};
    nodes.not(".missing").forEach(function (node) {
      positions[node.id()] = Object.assign({}, node.position());
    });
    return positions;
  };

  Canvas.prototype.problemClass = function (nodeId) {
    var severity = this.nodeProblems && this.nodeProblems[nodeId];
    return severity ? " problem-" + severity : "";
  };

  /** Marks the nodes (and edges, by /edges/<i> pointers) that diagnostics are about. */
  Canvas.prototype.markProblems = function (diagnostics, document) {
    var nodeProblems = {};
    var edgeProblems = {};
    diagnostics.forEach(function (diagnostic) {
      var severity = diagnostic.severity;
      if (diagnostic.node && nodeProblems[diagnostic.node] !== "error") {
        nodeProblems[diagnostic.node] = severity;
      }
      var edge = /^\/edges\/(\d+)/.exec(diagnostic.pointer || "");
      if (edge && severity === "error") {
        edgeProblems[Number(edge[1])] = true;
      }
    });
    this.nodeProblems = nodeProblems;
    this.edgeProblems = edgeProblems;
    var labels = {};
    Object.keys(nodeProblems).forEach(function (id) {
      labels[id] = nodeProblems[id] === "error" ? "⚠ " : "";
    });
    this.problemLabels = labels;
    if (!this.readOnly) {
      this.render(document);
    }
  };

  Canvas.prototype.selection = function () {
    var selected = this.cy.$(":selected");
    return {
      nodes: selected.nodes().not(".missing").map(function (node) { return node.id(); }),
      edges: selected.edges().not(".route").map(function (edge) { return edge.data("index"); })
    };
  };

  Canvas.prototype.select = function (nodeIds, edgeIndexes) {
    var cy = this.cy;
    cy.batch(function () {
      cy.elements().unselect();
      (nodeIds || []).forEach(function (id) { cy.getElementById(id).select(); });
      (edgeIndexes || []).forEach(function (index) { cy.edges("[index = " + index + "]").select(); });
    });
  };

  Canvas.prototype.reveal = function (nodeId) {
    var node = this.cy.getElementById(nodeId);
    if (node.nonempty()) {
      this.cy.animate({center: {eles: node}, duration: 200});
    }
  };

  Canvas.prototype.selectAll = function () {
    this.cy.elements().not(".missing, .route").select();
  };

  /** Takes the colours of the theme now shown (the stylesheet and its icons are made from the CSS variables). */
  Canvas.prototype.restyle = function () {
    var look = Style.stylesheet();
    this.palette = look.palette;
    this.cy.style(look.style);
  };

  /** Fits the graph in view, but never magnifies a small graph beyond its natural size. */
  Canvas.prototype.fit = function () {
    var cy = this.cy;
    var elements = cy.elements().not(".eh-ghost");
    cy.fit(elements, FIT_PADDING);
    if (cy.zoom() > 1) {
      cy.zoom(1);
      cy.center(elements);
    }
    this.applyBand();
    this.markDrawn();
  };

  /**
   * After the first fit, marks the first frame drawn: the performance mark "tokenflow:canvas-drawn" and the
   * canvas's data-drawn attribute (what the designer benchmark waits for).
   */
  Canvas.prototype.markDrawn = function () {
    var container = this.container;
    if (this.drawnPending || container.dataset.drawn) {
      return;
    }
    this.drawnPending = true;
    var waiting = this.afterDrawn;
    var release = function () {
      waiting.splice(0).forEach(function (callback) { window.setTimeout(callback, 0); });
    };
    this.cy.one("render", function () {
      performance.mark("tokenflow:canvas-drawn");
      container.dataset.drawn = "true";
      release();
    });
    // a canvas that draws nothing (hidden, say) holds nothing back for long
    window.setTimeout(release, 1000);
  };

  /** Runs {@code callback} once the first frame is drawn: work the user need not see first waits until then. */
  Canvas.prototype.whenDrawn = function (callback) {
    if (this.container.dataset.drawn) {
      callback();
    } else {
      this.afterDrawn.push(callback);
    }
  };

  Canvas.prototype.zoom = function (factor) {
    var cy = this.cy;
    cy.zoom({level: cy.zoom() * factor, renderedPosition: {x: cy.width() / 2, y: cy.height() / 2}});
  };

  /** The model position under a point of the page (for drops). */
  Canvas.prototype.modelPosition = function (clientX, clientY) {
    var rect = this.container.getBoundingClientRect();
    var pan = this.cy.pan();
    var zoom = this.cy.zoom();
    return {x: (clientX - rect.left - pan.x) / zoom, y: (clientY - rect.top - pan.y) / zoom};
  };

  Canvas.prototype.center = function () {
    var rect = this.container.getBoundingClientRect();
    return this.modelPosition(rect.left + rect.width / 2, rect.top + rect.height / 2);
  };

  /** Positions of the given nodes after they were nudged by (dx, dy). */
  Canvas.prototype.nudged = function (nodeIds, dx, dy) {
    var cy = this.cy;
    var positions = {};
    nodeIds.forEach(function (id) {
      var position = cy.getElementById(id).position();
      positions[id] = {x: position.x + dx, y: position.y + dy};
    });
    return positions;
  };

  /** Shows two versions at once, read-only: what the patch adds, changes and removes, on the newer graph. */
  Canvas.prototype.showDiff = function (before, after, summary) {
    this.readOnly = true;
    this.hideHandle();
    this.cy.autoungrabify(true);
    this.cy.elements().remove();
    var keep = this.problemLabels;
    this.problemLabels = {};
    var saveProblems = [this.nodeProblems, this.edgeProblems];
    this.nodeProblems = {};
    this.edgeProblems = {};
    var union = Documents.clone(after);
    var removedNodes = {};
    summary.removedNodes.forEach(function (id) { removedNodes[id] = true; });
    Documents.nodes(before).forEach(function (node) {
      if (removedNodes[node.id]) {
        union.nodes.push(node);
      }
    });
    Documents.edges(before).forEach(function (edge) {
      if (summary.removedEdges.indexOf(edge.from + " → " + edge.to) >= 0) {
        union.edges = (union.edges || []).concat([edge]);
      }
    });
    this.render(union);
    var cy = this.cy;
    summary.addedNodes.forEach(function (id) { cy.getElementById(id).addClass("diff-added"); });
    summary.changedNodes.forEach(function (id) { cy.getElementById(id).addClass("diff-changed"); });
    summary.removedNodes.forEach(function (id) { cy.getElementById(id).addClass("diff-removed"); });
    cy.edges().forEach(function (edge) {
      var key = edge.source().id() + " → " + edge.target().id();
      if (summary.addedEdges.indexOf(key) >= 0) {
        edge.addClass("diff-added");
      }
      if (summary.removedEdges.indexOf(key) >= 0) {
        edge.addClass("diff-removed");
      }
    });
    this.problemLabels = keep;
    this.nodeProblems = saveProblems[0];
    this.edgeProblems = saveProblems[1];
    this.fit();
  };

  Canvas.prototype.endDiff = function (document) {
    this.readOnly = false;
    this.cy.autoungrabify(false);
    this.cy.elements().remove();
    this.render(document);
    this.fit();
  };

  Canvas.prototype.png = function () {
    return this.cy.png({full: true, scale: 2, bg: this.palette.surface, output: "blob"});
  };

  TF.Canvas = Canvas;
  TF.Canvas.graphOf = graphOf;
})(window.Tokenflow = window.Tokenflow || {});
