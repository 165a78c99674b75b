// The canvas: a cytoscape graph kept in step with the draft document. It never changes the draft itself; it tells
// the editor what the user did (drop a type, connect two nodes, move, select) through the handlers it is given.
(function (TF) {
  "use strict";

  var Documents = TF.Documents;
  var NODE_WIDTH = 176;
  var NODE_HEIGHT = 56;

  var STYLE = [
    {selector: "node", style: {
      "shape": "round-rectangle", "width": NODE_WIDTH, "height": NODE_HEIGHT, "background-color": "#ffffff",
      "border-width": 2, "border-color": "#8a94a6", "text-wrap": "wrap",
      "text-max-width": NODE_WIDTH - 16, "text-valign": "center", "text-halign": "center", "font-size": 12,
      "font-family": "system-ui, -apple-system, Segoe UI, Roboto, sans-serif", "color": "#1d2330",
      "line-height": 1.35}},
    {selector: "node[label], edge[label]", style: {"label": "data(label)"}},
    {selector: "node.kind-task", style: {"border-color": "#2f5bd3", "background-color": "#f4f7fe"}},
    {selector: "node.kind-agent", style: {"border-color": "#b45309", "background-color": "#fff7ed"}},
    {selector: "node.kind-human", style: {"border-color": "#1f6f43", "background-color": "#eef8f2"}},
    {selector: "node.entry", style: {"shape": "round-rectangle", "border-style": "double", "border-width": 4}},
    {selector: "node.problem-warning", style: {"border-color": "#b7791f", "border-style": "dashed", "border-width": 3}},
    {selector: "node.problem-error", style: {"border-color": "#c53030", "border-width": 4,
      "background-color": "#fdeeec", "border-style": "solid"}},
    {selector: "node.missing", style: {"border-style": "dashed", "border-color": "#c53030", "color": "#a8261d",
      "background-color": "#ffffff", "width": 140}},
    {selector: "node:selected", style: {"border-color": "#111827", "border-width": 4, "overlay-opacity": 0.06,
      "overlay-color": "#2f5bd3"}},
    {selector: "edge", style: {
      "width": 2, "line-color": "#8a94a6", "target-arrow-color": "#8a94a6", "target-arrow-shape": "triangle",
      "curve-style": "bezier", "font-size": 10, "color": "#3b4252",
      "text-background-color": "#ffffff", "text-background-opacity": 1, "text-background-padding": 2,
      "text-rotation": "autorotate"}},
    {selector: "edge.route", style: {"line-style": "dashed", "line-color": "#9aa5b8", "target-arrow-color": "#9aa5b8"}},
    {selector: "edge.problem-error", style: {"line-color": "#c53030", "target-arrow-color": "#c53030", "width": 3}},
    {selector: "edge:selected", style: {"line-color": "#2f5bd3", "target-arrow-color": "#2f5bd3", "width": 4}},
    {selector: "node.diff-added", style: {"background-color": "#e6f4ec", "border-color": "#1f6f43", "border-width": 4}},
    {selector: "node.diff-changed", style: {"background-color": "#fff5db", "border-color": "#b7791f", "border-width": 4}},
    {selector: "node.diff-removed", style: {"background-color": "#fdeeec", "border-color": "#c53030",
      "border-style": "dashed", "opacity": 0.75}},
    {selector: "edge.diff-added", style: {"line-color": "#1f6f43", "target-arrow-color": "#1f6f43", "width": 4}},
    {selector: "edge.diff-removed", style: {"line-color": "#c53030", "target-arrow-color": "#c53030",
      "line-style": "dashed", "width": 3}},
    {selector: ".eh-preview, .eh-ghost-edge", style: {"line-color": "#2f5bd3", "target-arrow-color": "#2f5bd3",
      "width": 3, "line-style": "solid"}},
    {selector: ".eh-ghost-node", style: {"opacity": 0, "width": 1, "height": 1, "label": ""}},
    {selector: ".eh-ghost-edge.eh-preview-active", style: {"opacity": 0}},
    {selector: "node.eh-target, node.eh-hover", style: {"border-color": "#2f5bd3", "border-width": 4}}
  ];

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
      graph.edges.push({id: "e:" + key + "#" + occurrences[key], source: ghost(edge.from), target: ghost(edge.to),
        index: index, label: edge.label || (edge.condition ? conditionText(edge.condition) : routeLabels[key] || ""),
        route: false});
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
          graph.edges.push({id: "r:" + key, source: node.id, target: ghost(target), index: -1,
            label: routeLabels[key] || list.label, route: true});
        });
      });
    });
    graph.nodes.forEach(function (node) {
      graph.meta[node.id] = {entry: !hasIncoming[node.id], kind: kinds[node.type] || "task"};
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
      return shorten(condition);
    }
    if (!condition || typeof condition !== "object") {
      return "";
    }
    return shorten(condition.expression || condition.query || condition.type || "");
  }

  function shorten(text) {
    return text.length > 28 ? text.substring(0, 27) + "…" : text;
  }

  /** Sets the canvas's own classes of an element, keeping those of a gesture (eh-…) or a diff under way. */
  function ownClasses(element, classes) {
    var kept = element.classes().filter(function (name) { return /^(eh|diff)-/.test(name); });
    element.classes(classes.split(" ").concat(kept).join(" "));
  }

  function labelOf(node, types) {
    var type = types[node.type] || node.type || "?";
    return (node.name ? node.name + "\n" + node.id + " · " + type : node.id + "\n" + type);
  }

  function Canvas(container, handle, options) {
    this.container = container;
    this.handle = handle;
    this.options = options;
    this.kinds = options.kinds;
    this.typeNames = options.typeNames;
    this.readOnly = false;
    this.problemLabels = {};
    this.cy = cytoscape({
      container: container, style: STYLE, minZoom: 0.1, maxZoom: 3,
      boxSelectionEnabled: true, selectionType: "single"
    });
    this.edgeHandles = this.cy.edgehandles({
      canConnect: this.canConnect.bind(this), edgeParams: function () { return {}; }, snap: true,
      snapThreshold: 40, hoverDelay: 100, noEdgeEventsInDraw: true, disableBrowserGestures: true
    });
    this.listen();
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
    cy.on("ehcomplete", function (event, source, target, added) {
      added.remove();
      canvas.options.onConnect(source.id(), target.id());
    });
    cy.on("mouseover", "node", function (event) {
      canvas.showHandle(event.target);
    });
    cy.on("grab pan zoom", function () { canvas.hideHandle(); });
    cy.on("tap", function (event) {
      if (event.target === cy) {
        canvas.hideHandle();
      }
    });
    this.handle.addEventListener("mousedown", function (event) {
      if (!canvas.handleNode || canvas.readOnly) {
        return;
      }
      event.preventDefault();
      var source = canvas.handleNode;
      canvas.hideHandle();
      canvas.edgeHandles.start(source);
    });
    window.addEventListener("mouseup", function () { canvas.edgeHandles.stop(); });
  };

  Canvas.prototype.canConnect = function (source, target) {
    return !this.readOnly && !source.same(target) && !target.hasClass("missing") && !source.hasClass("missing")
        && !target.hasClass("eh-ghost") && !source.edgesTo(target).some(function (edge) {
          return !edge.hasClass("route") && !edge.hasClass("eh-preview");
        });
  };

  Canvas.prototype.showHandle = function (node) {
    if (this.readOnly || node.hasClass("missing") || node.hasClass("eh-ghost")) {
      return;
    }
    var box = node.renderedBoundingBox({includeLabels: false});
    this.handleNode = node;
    this.handle.style.left = ((box.x1 + box.x2) / 2 - 8) + "px";
    this.handle.style.top = (box.y2 - 8) + "px";
    this.handle.dataset.node = node.id();
    this.handle.hidden = false;
  };

  Canvas.prototype.hideHandle = function () {
    this.handleNode = null;
    this.handle.hidden = true;
  };

  /** Brings the graph in line with the document; returns whether some node had no stored position. */
  Canvas.prototype.render = function (document) {
    var canvas = this;
    var cy = this.cy;
    var graph = graphOf(document, this.kinds);
    var wanted = {};
    var unplaced = [];
    cy.batch(function () {
      graph.nodes.forEach(function (node) { wanted[node.id] = true; });
      graph.ghosts.forEach(function (id) { wanted["missing:" + id] = true; });
      graph.edges.forEach(function (edge) { wanted[edge.id] = true; });
      cy.elements().forEach(function (element) {
        if (!wanted[element.id()] && !element.hasClass("eh-ghost") && !element.hasClass("eh-preview")) {
          element.remove();
        }
      });
      graph.nodes.forEach(function (node) {
        var meta = graph.meta[node.id];
        var classes = "kind-" + meta.kind + (meta.entry ? " entry" : "");
        var label = (canvas.problemLabels[node.id] || "") + labelOf(node, canvas.typeNames);
        var existing = cy.getElementById(node.id);
        var ui = node.ui && typeof node.ui.x === "number" && typeof node.ui.y === "number" ? node.ui : null;
        if (existing.empty()) {
          existing = cy.add({group: "nodes", data: {id: node.id, label: label, type: node.type},
            position: ui ? {x: ui.x, y: ui.y} : {x: 0, y: 0}});
          if (!ui) {
            unplaced.push(existing);
          }
        } else {
          existing.data({label: label, type: node.type});
          if (ui && (existing.position("x") !== ui.x || existing.position("y") !== ui.y) && !existing.grabbed()) {
            existing.position({x: ui.x, y: ui.y});
          }
        }
        ownClasses(existing, classes + canvas.problemClass(node.id));
      });
      graph.ghosts.forEach(function (id) {
        if (cy.getElementById("missing:" + id).empty()) {
          unplaced.push(cy.add({group: "nodes", data: {id: "missing:" + id, label: id + "?\nno such node"},
            classes: "missing", grabbable: false, position: {x: 0, y: 0}}));
        }
      });
      graph.edges.forEach(function (edge) {
        var existing = cy.getElementById(edge.id);
        if (existing.empty()) {
          existing = cy.add({group: "edges", data: {id: edge.id, source: edge.source, target: edge.target,
            label: edge.label, index: edge.index}, selectable: !edge.route});
        } else {
          existing.data({label: edge.label, index: edge.index});
        }
        ownClasses(existing, (edge.route ? "route" : "") + (canvas.edgeProblems && canvas.edgeProblems[edge.index]
            ? " problem-error" : ""));
      });
    });
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
      this.layout(false);
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

  /** Lays the graph out top to bottom with dagre; returns the new positions by node id. */
  Canvas.prototype.layout = function (animate) {
    var nodes = this.cy.elements().not(".eh-ghost, .eh-preview");
    nodes.layout({name: "dagre", rankDir: "TB", nodeSep: 40, rankSep: 70, edgeSep: 20, fit: false,
      animate: !!animate, animationDuration: 250}).run();
    this.fit();
    var positions = {};
    this.cy.nodes().not(".missing, .eh-ghost").forEach(function (node) {
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

  /** Fits the graph in view, but never magnifies a small graph beyond its natural size. */
  Canvas.prototype.fit = function () {
    var cy = this.cy;
    var elements = cy.elements().not(".eh-ghost");
    cy.fit(elements, 40);
    if (cy.zoom() > 1) {
      cy.zoom(1);
      cy.center(elements);
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
    return this.cy.png({full: true, scale: 2, bg: "#ffffff", output: "blob"});
  };

  TF.Canvas = Canvas;
  TF.Canvas.graphOf = graphOf;
})(window.Tokenflow = window.Tokenflow || {});
