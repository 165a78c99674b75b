// Drawing edges on the canvas. A node's body always moves the node: the dot to draw an edge from shows on hover
// below the node's box, only while the node is drawn big enough and the dot covers no other node, and never while
// a node is dragged. At any zoom, Alt+drag from a node draws an edge from it.
(function (TF) {
  "use strict";

  /** The dot shows under nodes drawn at least this many pixels tall. */
  var MIN_NODE_PX = 24;
  var GAP_PX = 4;
  var HIDE_DELAY_MS = 600;

  function EdgeHandle(canvas, element) {
    this.canvas = canvas;
    this.cy = canvas.cy;
    this.element = element;
    this.node = null;
    this.hiding = null;
    this.drawing = false;
    this.grabbing = false;
    this.plugin = this.cy.edgehandles({
      canConnect: canvas.canConnect.bind(canvas), edgeParams: function () { return {}; }, snap: true,
      snapThreshold: 40, hoverDelay: 100, noEdgeEventsInDraw: true, disableBrowserGestures: true
    });
    this.listen();
  }

  EdgeHandle.prototype.listen = function () {
    var handle = this;
    var cy = this.cy;
    cy.on("ehcomplete", function (event, source, target, added) {
      added.remove();
      handle.canvas.options.onConnect(source.id(), target.id());
    });
    cy.on("mouseover", "node", function (event) { handle.show(event.target); });
    cy.on("mousemove", "node", function (event) {
      if (handle.node !== event.target && !handle.grabbing) {
        handle.show(event.target);
      }
    });
    cy.on("mouseout", "node", function () { handle.hideSoon(); });
    cy.on("grab", "node", function () { handle.grabbing = true; });
    cy.on("free", "node", function () { handle.grabbing = false; });
    cy.on("grab drag pan zoom", function () { handle.hide(); });
    cy.on("tap", function (event) {
      if (event.target === cy) {
        handle.hide();
      }
    });
    this.element.addEventListener("mouseenter", function () { clearTimeout(handle.hiding); });
    this.element.addEventListener("mouseleave", function () { handle.hideSoon(); });
    this.element.addEventListener("mousedown", function (event) {
      if (!handle.node || handle.canvas.readOnly || event.button !== 0) {
        return;
      }
      event.preventDefault();
      var source = handle.node;
      handle.hide();
      handle.plugin.start(source);
    });
    // Alt+drag from a node: before cytoscape sees the press, so that the node is not grabbed but drawn from
    this.canvas.container.addEventListener("mousedown", function (event) {
      if (event.altKey && event.button === 0 && !handle.canvas.readOnly && !handle.drawing) {
        handle.drawing = true;
        handle.hide();
        handle.plugin.enableDrawMode();
      }
    }, true);
    window.addEventListener("mouseup", function () {
      handle.plugin.stop();
      if (handle.drawing) {
        handle.drawing = false;
        handle.plugin.disableDrawMode();
      }
    });
  };

  /** Shows the dot under a node, unless the node is drawn too small, a node is being dragged, or it would cover one. */
  EdgeHandle.prototype.show = function (node) {
    clearTimeout(this.hiding);
    if (this.canvas.readOnly || this.drawing || this.grabbing || node.hasClass("missing")
        || node.hasClass("eh-ghost")) {
      this.hide();
      return;
    }
    var box = node.renderedBoundingBox({includeLabels: false, includeOverlays: false});
    var size = this.element.offsetWidth || 16;
    var dot = {x1: (box.x1 + box.x2 - size) / 2, y1: box.y2 + GAP_PX};
    dot.x2 = dot.x1 + size;
    dot.y2 = dot.y1 + size;
    if (box.h < MIN_NODE_PX || this.coversANode(dot)) {
      this.hide();
      return;
    }
    this.node = node;
    this.element.style.left = dot.x1 + "px";
    this.element.style.top = dot.y1 + "px";
    this.element.dataset.node = node.id();
    this.element.hidden = false;
  };

  EdgeHandle.prototype.coversANode = function (dot) {
    return this.cy.nodes().not(".eh-ghost").some(function (other) {
      var box = other.renderedBoundingBox({includeLabels: false, includeOverlays: false});
      return box.x1 < dot.x2 && dot.x1 < box.x2 && box.y1 < dot.y2 && dot.y1 < box.y2;
    });
  };

  EdgeHandle.prototype.hideSoon = function () {
    var handle = this;
    clearTimeout(this.hiding);
    this.hiding = setTimeout(function () { handle.hide(); }, HIDE_DELAY_MS);
  };

  EdgeHandle.prototype.hide = function () {
    clearTimeout(this.hiding);
    this.node = null;
    this.element.hidden = true;
  };

  TF.EdgeHandle = EdgeHandle;
})(window.Tokenflow = window.Tokenflow || {});
