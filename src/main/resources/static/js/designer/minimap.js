// The overview in a corner of the canvas: the whole graph in small and the part in view as a rectangle; a click or
// a drag in it moves the view there. Written here rather than vendored: the npm plugin (cytoscape-navigator) has
// not been released since 2020 and redraws a bitmap of the whole graph; this draws one rectangle per node on a small
// 2D canvas, at most once per animation frame, which stays cheap on a 200-node workflow.
(function (TF) {
  "use strict";

  var MARGIN = 6;

  function Minimap(cy, view) {
    this.cy = cy;
    this.view = view;
    this.frame = null;
    this.transform = null;
    var minimap = this;
    cy.on("add remove position pan zoom resize", function () { minimap.schedule(); });
    document.addEventListener("tokenflow:theme", function () { minimap.schedule(); });
    this.listen();
    this.schedule();
  }

  Minimap.prototype.schedule = function () {
    var minimap = this;
    if (this.frame === null) {
      this.frame = window.requestAnimationFrame(function () {
        minimap.frame = null;
        minimap.draw();
      });
    }
  };

  function colour(style, name) {
    return style.getPropertyValue(name).trim();
  }

  /**
   * The model box shown: the graph and the viewport together, so the viewport rectangle is always inside. Taken from
   * the nodes' positions and sizes, as drawn here, not from cytoscape's bounding boxes (which it computes for labels
   * and edges too, and which cost tens of milliseconds on the first frame of a 200-node workflow).
   */
  Minimap.prototype.box = function () {
    var box = this.cy.extent();
    box = {x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2};
    this.cy.nodes().not(".eh-ghost").forEach(function (node) {
      var p = node.position();
      var w = node.width() / 2;
      var h = node.height() / 2;
      box.x1 = Math.min(box.x1, p.x - w);
      box.y1 = Math.min(box.y1, p.y - h);
      box.x2 = Math.max(box.x2, p.x + w);
      box.y2 = Math.max(box.y2, p.y + h);
    });
    return box;
  };

  /** Model → overview pixels: the box scaled to fit inside the margins, centred. */
  Minimap.prototype.fitted = function (width, height) {
    var box = this.box();
    var scale = Math.min((width - 2 * MARGIN) / Math.max(box.x2 - box.x1, 1),
        (height - 2 * MARGIN) / Math.max(box.y2 - box.y1, 1));
    return {scale: scale, x: MARGIN - box.x1 * scale + ((width - 2 * MARGIN) - (box.x2 - box.x1) * scale) / 2,
      y: MARGIN - box.y1 * scale + ((height - 2 * MARGIN) - (box.y2 - box.y1) * scale) / 2};
  };

  Minimap.prototype.draw = function () {
    var view = this.view;
    if (view.hidden) {
      return;
    }
    var started = performance.now();
    var ratio = window.devicePixelRatio || 1;
    var width = view.clientWidth;
    var height = view.clientHeight;
    if (view.width !== Math.round(width * ratio)) {
      view.width = Math.round(width * ratio);
      view.height = Math.round(height * ratio);
    }
    // while the user drags in the overview, its scale holds still (the viewport it moves would change it)
    var t = this.dragging && this.transform ? this.transform : this.fitted(width, height);
    this.transform = t;
    var scale = t.scale;
    var context = view.getContext("2d");
    var style = getComputedStyle(document.documentElement);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    context.fillStyle = colour(style, "--border-strong");
    this.cy.nodes().not(".eh-ghost").forEach(function (node) {
      var p = node.position();
      var w = Math.max(node.width() * scale, 2);
      var h = Math.max(node.height() * scale, 2);
      context.fillRect(p.x * scale + t.x - w / 2, p.y * scale + t.y - h / 2, w, h);
    });
    var extent = this.cy.extent();
    context.strokeStyle = colour(style, "--accent");
    context.lineWidth = 1.5;
    context.strokeRect(extent.x1 * scale + t.x, extent.y1 * scale + t.y, extent.w * scale, extent.h * scale);
    this.lastDrawMs = performance.now() - started;
  };

  /** A press or drag at a point of the overview centres the view on the model point under it. */
  Minimap.prototype.listen = function () {
    var minimap = this;
    var view = this.view;
    var centreOn = function (event) {
      var t = minimap.transform;
      if (!t) {
        return;
      }
      var rect = view.getBoundingClientRect();
      var model = {x: (event.clientX - rect.left - t.x) / t.scale, y: (event.clientY - rect.top - t.y) / t.scale};
      var cy = minimap.cy;
      cy.pan({x: cy.width() / 2 - model.x * cy.zoom(), y: cy.height() / 2 - model.y * cy.zoom()});
    };
    view.addEventListener("pointerdown", function (event) {
      event.preventDefault();
      view.setPointerCapture(event.pointerId);
      minimap.dragging = true;
      centreOn(event);
    });
    view.addEventListener("pointermove", function (event) {
      if (minimap.dragging) {
        centreOn(event);
      }
    });
    var stop = function () {
      minimap.dragging = false;
      minimap.schedule();
    };
    view.addEventListener("pointerup", stop);
    view.addEventListener("pointercancel", stop);
  };

  TF.Minimap = Minimap;
})(window.Tokenflow = window.Tokenflow || {});
