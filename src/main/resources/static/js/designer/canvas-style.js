// How the canvas looks: a shape, tone and icon for each kind of node (icons are SVG data: URIs drawn here, coloured
// from the page's CSS variables), edge labels kept level on a background, and labels readable at every zoom: every
// element has one "zoom-…" class, its zoom band; below a zoom where the normal label would render under ~10 px the
// band shows a bigger short label, and then only the icon.
//
// Each band's selector holds the properties of that band alone (the far band, where a 200-node workflow opens, has
// no image and no text margins to apply): cytoscape applies every property of every selector an element matches when
// it first styles the element, and on a 200-node workflow that work was most of the open before the first frame.
(function (TF) {
  "use strict";

  var NODE_WIDTH = 176;
  var NODE_HEIGHT = 60;
  /** The width of the dashed stand-in for a node an edge names but the workflow lacks. */
  var MISSING_WIDTH = 140;
  var ICON = 22;
  var ICON_X = 14;
  /** The label beside the icon, in the near and middle bands: its width and its shift right of the centre. */
  var LABEL_WIDTH = NODE_WIDTH - ICON - 28;
  var LABEL_X = (ICON_X + ICON) / 2;
  var FONT = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif";
  /** Edges with a label to show. */
  var LABELLED = "edge[label][label != \"\"]";

  /** Stroke drawings on a 24×24 grid. */
  var ICONS = {
    task: '<circle cx="12" cy="12" r="3.5"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M5 5l2.1 2.1M16.9 16.9L19 19'
        + 'M5 19l2.1-2.1M16.9 7.1L19 5"/>',
    http: '<circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3c3.5 3.5 3.5 14.5 0 18M12 3c-3.5 3.5-3.5 14.5 0 18"/>',
    data: '<ellipse cx="12" cy="6" rx="7" ry="3"/><path d="M5 6v12c0 1.7 3.1 3 7 3s7-1.3 7-3V6M5 12c0 1.7 3.1 3 7 3'
        + 's7-1.3 7-3"/>',
    branch: '<path d="M3 12h6l6-6h5M9 12l6 6h5M18 3.5L20.5 6 18 8.5M18 15.5l2.5 2.5-2.5 2.5"/>',
    loop: '<path d="M17 2l3 3-3 3M4 11V9a4 4 0 0 1 4-4h12M7 22l-3-3 3-3M20 13v2a4 4 0 0 1-4 4H4"/>',
    join: '<path d="M3 6h5l6 6h7M3 18h5l6-6M18 9l3 3-3 3"/>',
    human: '<circle cx="12" cy="8" r="4"/><path d="M4 21c0-4 3.6-6 8-6s8 2 8 6"/>',
    agent: '<path d="M10 3l2 5.5 5.5 2-5.5 2L10 18l-2-5.5-5.5-2 5.5-2zM18.5 14l1 2.5 2.5 1-2.5 1-1 2.5-1-2.5-2.5-1'
        + ' 2.5-1z"/>',
    map: '<path d="M12 3l9 4.5-9 4.5-9-4.5zM3 12l9 4.5 9-4.5M3 16.5l9 4.5 9-4.5"/>',
    timer: '<circle cx="12" cy="13" r="8"/><path d="M12 9v4l3 2M9 2h6"/>',
    signal: '<path d="M6 16v-5a6 6 0 0 1 12 0v5l2 2H4zM10 21h4"/>',
    subflow: '<rect x="3" y="4" width="18" height="16" rx="2"/><rect x="8" y="9" width="8" height="6" rx="1"/>'
  };

  /** What each kind looks like: its shape and its tone (a pair of CSS variables). */
  var LOOKS = {
    task: {shape: "round-rectangle", tone: "accent"},
    http: {shape: "round-rectangle", tone: "accent"},
    data: {shape: "barrel", tone: "accent"},
    branch: {shape: "round-hexagon", tone: "flow"},
    loop: {shape: "round-octagon", tone: "flow"},
    join: {shape: "cut-rectangle", tone: "flow"},
    human: {shape: "round-rectangle", tone: "success"},
    agent: {shape: "round-rectangle", tone: "warning"},
    map: {shape: "rectangle", tone: "flow"},
    timer: {shape: "ellipse", tone: "flow"},
    signal: {shape: "round-tag", tone: "flow"},
    subflow: {shape: "round-rectangle", tone: "flow"}
  };

  var BY_TYPE = {http: "http", transform: "data", filter: "data", aggregate: "data", conditional: "branch",
    loop: "loop", wait: "timer", signal: "signal", workflow: "subflow", agent: "agent", http_agent: "agent"};

  /** Zoom bands: from which zoom up each applies, and its name (the first band has none; its class is "zoom-near"). */
  var BANDS = [{from: 0.8, name: ""}, {from: 0.46, name: "zoom-mid"}, {from: 0.28, name: "zoom-far"},
    {from: 0, name: "zoom-tiny"}];

  /** The look of a node: what it does to tokens first (a person, an agent, a call, a wait…), else its type. */
  function lookOf(node, kind) {
    if (kind === "human" || kind === "agent") {
      return kind;
    }
    var byType = BY_TYPE[node.type];
    var byShape = node.workflow ? "subflow" : node.wait ? "timer" : node.signal ? "signal" : node.map ? "map"
        : node.loop ? "loop" : node.branch ? "branch" : node.wait_for_all === true ? "join" : null;
    if (byType === "subflow" || byType === "timer" || byType === "signal" || byType === "agent") {
      return byType;
    }
    return byShape || byType || "task";
  }

  function bandOf(zoom) {
    for (var i = 0; i < BANDS.length; i++) {
      if (zoom >= BANDS[i].from) {
        return BANDS[i].name;
      }
    }
    return BANDS[BANDS.length - 1].name;
  }

  /** The class of the elements in a zoom band (what {@link bandOf} returns). */
  function bandClass(band) {
    return band || "zoom-near";
  }

  function colours() {
    var css = getComputedStyle(document.documentElement);
    var read = function (name) { return css.getPropertyValue("--" + name).trim(); };
    var names = ["bg", "surface", "text", "muted", "border", "border-strong", "accent", "accent-soft", "error",
      "error-soft", "warning", "warning-soft", "success", "success-soft", "focus"];
    var values = {};
    names.forEach(function (name) { values[name] = read(name); });
    values.tone = {
      accent: {line: values.accent, fill: values["accent-soft"]},
      success: {line: values.success, fill: values["success-soft"]},
      warning: {line: values.warning, fill: values["warning-soft"]},
      flow: {line: values.muted, fill: values.surface}
    };
    return values;
  }

  function escapeXml(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"}[c];
    });
  }

  function dataUri(svg) {
    return "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  }

  function iconGroup(look, stroke, x, y, size) {
    return '<g transform="translate(' + x + " " + y + ") scale(" + size / 24 + ')" fill="none" stroke="' + stroke
        + '" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">' + ICONS[look] + "</g>";
  }

  /** Images of one look, made once per look and type name: full (icon and type name) and the icon alone. */
  function Images(palette) {
    this.palette = palette;
    this.cache = {};
  }

  Images.prototype.full = function (look, typeName) {
    var key = look + "\u0000" + typeName;
    if (!this.cache[key]) {
      var p = this.palette;
      var text = typeName.length > 24 ? typeName.substring(0, 23) + "…" : typeName;
      this.cache[key] = dataUri('<svg xmlns="http://www.w3.org/2000/svg" width="' + NODE_WIDTH + '" height="'
          + NODE_HEIGHT + '" viewBox="0 0 ' + NODE_WIDTH + " " + NODE_HEIGHT + '">'
          + iconGroup(look, p.tone[LOOKS[look].tone].line, ICON_X, (NODE_HEIGHT - ICON) / 2, ICON)
          + '<text x="' + (NODE_WIDTH + ICON_X + ICON) / 2 + '" y="' + (NODE_HEIGHT - 11) + '" font-size="11"'
          + ' text-anchor="middle" fill="' + p.muted + '" font-family="' + FONT + '">' + escapeXml(text)
          + "</text></svg>");
    }
    return this.cache[key];
  };

  Images.prototype.icon = function (look) {
    if (!this.cache[look]) {
      this.cache[look] = dataUri('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">'
          + iconGroup(look, this.palette.tone[LOOKS[look].tone].line, 0, 0, 24) + "</svg>");
    }
    return this.cache[look];
  };

  function nodeStyles(p, images) {
    var styles = [
      {selector: "node", style: {
        "width": NODE_WIDTH, "height": NODE_HEIGHT, "background-color": p.surface, "border-width": 2,
        "border-color": p["border-strong"], "text-valign": "center", "font-weight": 600, "font-family": FONT,
        "color": p.text, "min-zoomed-font-size": 9}}
    ];
    Object.keys(LOOKS).forEach(function (look) {
      var tone = p.tone[LOOKS[look].tone];
      styles.push({selector: "node.look-" + look, style: {"shape": LOOKS[look].shape, "border-color": tone.line,
        "background-color": tone.fill}});
      styles.push({selector: "node.look-" + look + ".zoom-near[typeName]", style: {"background-image":
        function (node) {
          return images.full(look, node.data("typeName"));
        }}});
      styles.push({selector: "node.look-" + look + ".zoom-mid, node.look-" + look + ".zoom-tiny",
        style: {"background-image": images.icon(look)}});
    });
    styles.push({selector: "node.look-subflow", style: {"border-width": 4, "border-style": "double"}});
    return styles.concat(zoomStyles());
  }

  /** The bands: name and id over the type's name, then a bigger id alone, then the icon alone. */
  function zoomStyles() {
    var image = {"background-clip": "none", "background-image-containment": "over"};
    return [
      {selector: "node.zoom-near", style: Object.assign({"label": "data(label)", "font-size": 13, "line-height": 1.3,
        "text-wrap": "ellipsis", "text-max-width": LABEL_WIDTH, "text-margin-x": LABEL_X,
        "text-margin-y": -6, "background-width": NODE_WIDTH, "background-height": NODE_HEIGHT}, image)},
      {selector: "node[?named].zoom-near", style: {"text-wrap": "wrap"}},
      {selector: "node.zoom-mid", style: Object.assign({"label": "data(short)", "font-size": 22,
        "text-wrap": "ellipsis", "text-max-width": LABEL_WIDTH, "text-margin-x": LABEL_X,
        "background-width": ICON, "background-height": ICON, "background-position-x": ICON_X,
        "background-position-y": "50%"}, image)},
      {selector: "node.zoom-far", style: {"label": "data(short)", "font-size": 36, "text-wrap": "ellipsis",
        "text-max-width": NODE_WIDTH - 8}},
      // the icon alone, in the middle: neither clipped by the shape nor over its border
      {selector: "node.zoom-tiny", style: {"background-width": 44, "background-height": 44,
        "background-position-x": "50%", "background-position-y": "50%", "border-width": 4}},
      {selector: LABELLED + ".zoom-mid", style: {"font-size": 20}},
      {selector: LABELLED + ".zoom-far, " + LABELLED + ".zoom-tiny", style: {"target-label": ""}}
    ];
  }

  /**
   * Edges. The label's properties go only to edges that have a label (most have none): cytoscape applies each
   * property of each matching selector to each element as it first styles it, so on a 200-node workflow every
   * property given to all edges costs about 200 applications before the first frame.
   */
  function edgeStyles(p) {
    return [
      {selector: "edge", style: {
        "width": 2, "line-color": p["border-strong"], "target-arrow-color": p["border-strong"],
        "target-arrow-shape": "triangle", "curve-style": "bezier", "source-distance-from-node": 2,
        "target-distance-from-node": 2}},
      // near the target, where edges leaving one node have spread apart, not at the midpoint where they still touch
      {selector: LABELLED, style: {"target-label": "data(label)", "font-size": 13, "font-family": FONT,
        "color": p.text, "target-text-rotation": "none", "text-background-color": p.surface,
        "text-background-opacity": 0.95, "text-background-padding": 3, "text-background-shape": "round-rectangle",
        "text-border-width": 1, "text-border-color": p.border, "text-border-opacity": 1, "text-wrap": "wrap",
        "text-max-width": 130, "min-zoomed-font-size": 9, "target-text-offset": 40, "text-events": "yes"}},
      {selector: "edge.route", style: {"line-style": "dashed", "line-color": p.muted, "target-arrow-color": p.muted}},
      {selector: "edge.problem-error", style: {"line-color": p.error, "target-arrow-color": p.error, "width": 3}},
      {selector: "edge:selected", style: {"line-color": p.accent, "target-arrow-color": p.accent, "width": 4}},
      {selector: "edge.diff-added", style: {"line-color": p.success, "target-arrow-color": p.success, "width": 4}},
      {selector: "edge.diff-removed", style: {"line-color": p.error, "target-arrow-color": p.error,
        "line-style": "dashed", "width": 3}}
    ];
  }

  function stateStyles(p) {
    return [
      {selector: "node.entry", style: {"border-style": "double", "border-width": 5}},
      {selector: "node.problem-warning", style: {"border-color": p.warning, "border-style": "dashed",
        "border-width": 3}},
      {selector: "node.problem-error", style: {"border-color": p.error, "border-width": 4,
        "background-color": p["error-soft"], "border-style": "solid"}},
      {selector: "node.missing", style: {"border-style": "dashed", "border-color": p.error, "color": p.error,
        "background-color": p.surface, "background-image": "none", "width": MISSING_WIDTH, "shape": "round-rectangle",
        "text-margin-x": 0, "text-margin-y": 0, "text-wrap": "wrap"}},
      {selector: "node:selected", style: {"border-color": p.text, "border-width": 4, "overlay-opacity": 0.08,
        "overlay-color": p.accent}},
      {selector: "node.diff-added", style: {"background-color": p["success-soft"], "border-color": p.success,
        "border-width": 4}},
      {selector: "node.diff-changed", style: {"background-color": p["warning-soft"], "border-color": p.warning,
        "border-width": 4}},
      {selector: "node.diff-removed", style: {"background-color": p["error-soft"], "border-color": p.error,
        "border-style": "dashed", "opacity": 0.75}},
      {selector: ".eh-preview, .eh-ghost-edge", style: {"line-color": p.accent, "target-arrow-color": p.accent,
        "width": 3, "line-style": "solid", "target-label": ""}},
      {selector: ".eh-ghost-node", style: {"opacity": 0, "width": 1, "height": 1, "label": ""}},
      {selector: ".eh-ghost-edge.eh-preview-active", style: {"opacity": 0}},
      {selector: "node.eh-target, node.eh-hover", style: {"border-color": p.accent, "border-width": 4}}
    ];
  }

  /** The stylesheet, from the CSS variables as they are now. */
  function stylesheet() {
    var palette = colours();
    var images = new Images(palette);
    return {palette: palette,
      style: nodeStyles(palette, images).concat(edgeStyles(palette), stateStyles(palette))};
  }

  TF.CanvasStyle = {
    NODE_WIDTH: NODE_WIDTH, NODE_HEIGHT: NODE_HEIGHT, MISSING_WIDTH: MISSING_WIDTH,
    lookOf: lookOf, bandOf: bandOf, bandClass: bandClass, stylesheet: stylesheet
  };
})(window.Tokenflow = window.Tokenflow || {});
