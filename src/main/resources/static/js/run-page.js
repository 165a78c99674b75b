// The run page's graph: cytoscape (read-only; the designer's positions, else dagre top to bottom) drawn from
// #run-graph-data (the run's current revision and the edges tokens travelled, pushed live), coloured from the node
// list (#run-nodes, pushed live), with the path taken accented, branches not taken faded and tokens moving along
// edges for the hops in #run-hops. The slider pauses the live
// pushes while it shows an earlier event; "Back to live" resumes them.
// Tokens are elements over the canvas moved by the Web Animations API, not cytoscape nodes: the browser's compositor
// moves them, where a cytoscape animation redraws the whole canvas every frame while a token travels (on a run that
// steps every 220 ms, always: four such pages took a core of the machine and drew pushes hundreds of ms late).
(function () {
  "use strict";

  var cy;
  var tokens;
  var drawn = "";
  var animated = 0;
  var SPACE = { x: 190, y: 110 };
  // What each node was last painted with (its status and badges), so a push repaints only the nodes it changed
  var painted = {};
  var colours = {};

  // Colours come from the theme's CSS variables (a dark theme redefines them), read once per theme: reading a
  // computed style after a push's swap costs a style recalculation of the page
  function color(name) {
    var key = (document.documentElement.getAttribute("data-theme") || "") + name;
    if (!(key in colours)) {
      colours[key] = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    }
    return colours[key];
  }

  function statusStyle(status) {
    var reached = { bg: "--accent-soft", border: "--accent", text: "--text" };
    var styles = {
      "not-reached": { bg: "--surface", border: "--border-strong", text: "--muted" },
      pending: reached, ready: reached, dispatched: reached,
      running: { bg: "--accent", border: "--accent-dark", text: "--surface" },
      completed: { bg: "--success", border: "--success", text: "--surface" },
      failed: { bg: "--error", border: "--error", text: "--surface" },
      cancelled: { bg: "--bg", border: "--muted", text: "--muted" }
    };
    return styles[status] || styles["not-reached"];
  }

  function lookOf(status) {
    var style = statusStyle(status);
    return { fill: color(style.bg), line: color(style.border), ink: color(style.text) };
  }

  function graphData() {
    var data = document.getElementById("run-graph-data");
    if (!data) {
      return null;
    }
    var nodes = Array.prototype.map.call(data.querySelectorAll(".graph-node"), function (span) {
      return span.dataset;
    });
    // an edge is known by its place among the revision's edges (its span's id): node ids may hold '-', and two edges
    // may join the same nodes, so "from-to" could name two of them
    var edges = Array.prototype.map.call(data.querySelectorAll(".graph-edge"), function (span) {
      return { id: span.id, from: span.dataset.from, to: span.dataset.to, kind: span.dataset.kind,
        travelled: span.dataset.travelled };
    });
    return { revision: data.dataset.revision, nodes: nodes, edges: edges };
  }

  function signature(graph) {
    return graph.nodes.map(function (node) { return node.id; }).join(",") + "|"
      + graph.edges.map(function (edge) { return edge.from + ">" + edge.to + ":" + edge.kind; }).join(",");
  }

  // Where the designer placed each node; a node it never placed (e.g. one a patch added) goes under its first
  // placed predecessor, or below everything
  function positions(graph) {
    var placed = {};
    graph.nodes.forEach(function (node) {
      if (node.x !== undefined && node.y !== undefined) {
        placed[node.id] = { x: Number(node.x), y: Number(node.y) };
      }
    });
    if (!Object.keys(placed).length) {
      return null;
    }
    var taken = Object.keys(placed).map(function (id) { return placed[id]; });
    var bottom = Math.max.apply(null, taken.map(function (p) { return p.y; }));
    graph.nodes.forEach(function (node) {
      if (placed[node.id]) {
        return;
      }
      var into = graph.edges.filter(function (edge) { return edge.to === node.id && placed[edge.from]; })[0];
      var at = into ? { x: placed[into.from].x, y: placed[into.from].y + SPACE.y } : { x: 0, y: bottom + SPACE.y };
      while (taken.some(function (p) { return Math.abs(p.x - at.x) < SPACE.x && Math.abs(p.y - at.y) < 60; })) {
        at = { x: at.x + SPACE.x, y: at.y };
      }
      placed[node.id] = at;
      taken.push(at);
    });
    return placed;
  }

  function elements(graph) {
    return graph.nodes.map(function (node) {
      var item = document.querySelector('#run-nodes li[data-node="' + CSS.escape(node.id) + '"]');
      return { group: "nodes", data: Object.assign({ id: node.id, name: node.label, kind: node.kind,
        type: node.type }, size([node.label].concat(item ? badges(item) : [])),
        lookOf(item ? item.dataset.status : "not-reached")), classes: node.added ? "added" : "" };
    }).concat(graph.edges.map(function (edge) {
      return { group: "edges", data: { id: edge.id, source: edge.from, target: edge.to }, classes: edge.kind };
    }));
  }

  function styles() {
    var line = color("--border-strong");
    return [
      { selector: "node", style: { "text-valign": "center", "text-halign": "center", "text-wrap": "wrap",
        "font-size": 12, "line-height": 1.3, color: color("--text"), "background-color": color("--surface"),
        shape: "round-rectangle", "border-width": 2, "border-color": line } },
      { selector: "node[width]", style: { label: "data(label)", "text-max-width": "data(textWidth)",
        width: "data(width)", height: "data(height)", "background-color": "data(fill)", "border-color": "data(line)",
        color: "data(ink)" } },
      { selector: "node[type = 'human']", style: { shape: "cut-rectangle", "border-style": "double",
        "border-width": 4 } },
      { selector: "node.added", style: { "border-style": "dashed", "border-width": 3,
        "border-color": color("--accent") } },
      { selector: "node.waiting", style: { "border-color": color("--warning"), "border-width": 4 } },
      { selector: "node.has-error", style: { "border-color": color("--error"), "border-width": 4 } },
      { selector: "node.faded", style: { opacity: 0.35 } },
      { selector: "edge", style: { width: 2, "curve-style": "bezier", "target-arrow-shape": "triangle",
        "line-color": line, "target-arrow-color": line, "arrow-scale": 1.1 } },
      { selector: "edge.branch", style: { "line-style": "dashed" } },
      { selector: "edge.loop", style: { "line-style": "dotted", "curve-style": "unbundled-bezier",
        "control-point-distances": 60 } },
      { selector: "edge.rejection", style: { "line-style": "dashed", "line-dash-pattern": [8, 4],
        "line-color": color("--error"), "target-arrow-color": color("--error"), "target-arrow-shape": "tee",
        label: "reject", "font-size": 10, color: color("--error"), "text-background-color": color("--surface"),
        "text-background-opacity": 1 } },
      { selector: "edge.travelled", style: { width: 4, "line-style": "solid", "line-color": color("--accent"),
        "target-arrow-color": color("--accent"), "z-index": 5 } },
      { selector: "edge.faded", style: { opacity: 0.3 } }
    ];
  }

  function draw(graph) {
    var container = document.getElementById("run-graph");
    drawn = signature(graph);
    painted = {};
    var placed = positions(graph);
    if (cy) {
      cy.destroy();
    }
    if (tokens) {
      tokens.remove();
      animated = 0;
    }
    if (typeof ResizeObserver !== "undefined" && !container.dataset.observed) {
      container.dataset.observed = "true";
      new ResizeObserver(fit).observe(container);
    }
    cy = cytoscape({
      container: container, elements: elements(graph), autoungrabify: true, boxSelectionEnabled: false,
      maxZoom: 1.8, style: styles(),
      layout: placed ? { name: "preset", positions: function (node) { return placed[node.id()]; } }
        : { name: typeof cytoscapeDagre !== "undefined" ? "dagre" : "breadthfirst", rankDir: "TB",
          nodeSep: 50, rankSep: 80 }
    });
    tokens = document.createElement("div");
    tokens.className = "graph-tokens";
    container.appendChild(tokens);
    cy.on("tap", "node", function (event) {
      var button = document.querySelector('#run-nodes li[data-node="' + CSS.escape(event.target.id()) + '"] button');
      if (button) {
        button.click();
      }
    });
    fit();
  }

  function fit() {
    if (cy) {
      cy.resize();
      cy.fit(cy.nodes(), 30);
    }
  }

  function init() {
    var container = document.getElementById("run-graph");
    if (!container || typeof cytoscape === "undefined") {
      return;
    }
    if (typeof cytoscapeDagre !== "undefined") {
      cytoscape.use(cytoscapeDagre);
    }
    refresh();
  }

  function clock(epochMs) {
    var at = new Date(Number(epochMs));
    return [at.getHours(), at.getMinutes(), at.getSeconds()].map(function (n) {
      return String(n).padStart(2, "0");
    }).join(":");
  }

  // What the node list says of a node, short enough for its shape
  function badges(item) {
    var data = item.dataset;
    return [data.added && "added by patch", data.approval && "awaiting approval",
      data.attempt && "attempt " + data.attempt, data.map, data.join && "joined " + data.join,
      data.loop && "loop " + data.loop, data.waitingUntil ? "fires " + clock(data.waitingUntil)
        : data.waiting && "waiting", data.parked && "in dead-letter queue"].filter(Boolean);
  }

  // A label's lines and a shape that holds them (wide enough for the longest line, up to 240 px, then wrapped)
  function size(lines) {
    var longest = Math.max.apply(null, lines.map(function (text) { return text.length; }));
    var width = Math.min(Math.max(longest * 7.2 + 32, 100), 240);
    var rows = lines.reduce(function (sum, text) { return sum + Math.ceil(text.length * 7.2 / (width - 28)); }, 0);
    return { label: lines.join("\n"), width: width, textWidth: width - 24, height: rows * 16 + 22 };
  }

  function paint() {
    var statuses = {};
    document.querySelectorAll("#run-nodes li[data-node]").forEach(function (item) {
      var node = cy.getElementById(item.dataset.node);
      statuses[item.dataset.node] = item.dataset.status;
      if (!node.length) {
        return;
      }
      var lines = [node.data("name")].concat(badges(item));
      var look = [item.dataset.status, !!item.dataset.error].concat(lines).join("\n");
      if (painted[item.dataset.node] === look) {
        return;
      }
      painted[item.dataset.node] = look;
      node.data(Object.assign(size(lines), lookOf(item.dataset.status)));
      node.toggleClass("waiting", !!item.dataset.approval || !!item.dataset.join || !!item.dataset.parked);
      node.toggleClass("has-error", !!item.dataset.error);
    });
    return statuses;
  }

  // Edges tokens travelled are the path taken; once a node is done, its edges no token took are branches not taken
  function highlight(graph, statuses) {
    var ended = ["COMPLETED", "FAILED", "CANCELLED"].indexOf(runStatus()) >= 0;
    graph.edges.forEach(function (edge) {
      var element = cy.getElementById(edge.id);
      var done = ["completed", "failed", "cancelled"].indexOf(statuses[edge.from]) >= 0;
      element.toggleClass("travelled", !!edge.travelled);
      element.toggleClass("faded", !edge.travelled && (done || ended));
    });
    cy.nodes().forEach(function (node) {
      var incoming = node.incomers("edge");
      node.toggleClass("faded", statuses[node.id()] === "not-reached"
        && (ended || (incoming.length > 0 && incoming.filter(".faded").length === incoming.length)));
    });
  }

  function runStatus() {
    var summary = document.getElementById("run-summary");
    return summary ? summary.dataset.status : "";
  }

  function refresh() {
    var graph = graphData();
    if (!graph || typeof cytoscape === "undefined") {
      return;
    }
    // a new signature: the run follows another revision; a new container: htmx swapped the page's main in
    if (!cy || signature(graph) !== drawn || cy.container() !== document.getElementById("run-graph")) {
      draw(graph);
      setUpTimeTravel();
    }
    // one style pass and one redraw for all the nodes and edges a push changed
    cy.batch(function () {
      highlight(graph, paint());
    });
    animateHops();
  }

  function animateHops() {
    document.querySelectorAll("#run-hops [data-to]").forEach(function (hop) {
      if (hop.dataset.animated || animated > 60) {
        return;
      }
      hop.dataset.animated = "true";
      var target = cy.getElementById(hop.dataset.to);
      var source = hop.dataset.from ? cy.getElementById(hop.dataset.from) : null;
      if (!target.length) {
        return;
      }
      var end = target.renderedPosition();
      var start = source && source.length ? source.renderedPosition()
        : { x: end.x, y: end.y - 70 * cy.zoom() };
      var token = document.createElement("span");
      token.className = "graph-token";
      tokens.appendChild(token);
      animated++;
      var moving = token.animate([{ transform: "translate(" + start.x + "px, " + start.y + "px)" },
        { transform: "translate(" + end.x + "px, " + end.y + "px)" }], { duration: 900, easing: "ease-in-out" });
      moving.onfinish = moving.oncancel = function () {
        token.remove();
        animated--;
      };
    });
  }

  // The header's duration grows by the second while the run is active, from its start on the server's clock
  function tickDuration() {
    var duration = document.getElementById("run-duration");
    if (!duration || !duration.dataset.ticking) {
      return;
    }
    if (!duration.dataset.skew) {
      duration.dataset.skew = String(Number(duration.dataset.clock) - Date.now());
    }
    var now = Date.now() + Number(duration.dataset.skew);
    duration.textContent = formatDuration(now - Number(duration.dataset.startedAt));
  }

  // As RunDurations formats it on the server
  function formatDuration(ms) {
    ms = Math.max(0, ms);
    if (ms < 1000) {
      return Math.floor(ms) + " ms";
    }
    if (ms < 60000) {
      return (ms / 1000).toFixed(1) + " s";
    }
    var seconds = Math.floor(ms / 1000);
    var pad = function (n) { return String(n).padStart(2, "0"); };
    return seconds < 3600 ? Math.floor(seconds / 60) + "m " + pad(seconds % 60) + "s"
      : Math.floor(seconds / 3600) + "h " + pad(Math.floor((seconds % 3600) / 60)) + "m";
  }

  function liveElement() {
    return document.querySelector(".live-connection[data-live-topic]");
  }

  function setUpTimeTravel() {
    var slider = document.getElementById("seq-slider");
    var back = document.getElementById("back-to-live");
    if (!slider || !back || slider.dataset.bound) {
      return;
    }
    slider.dataset.bound = "true";
    slider.addEventListener("input", function () {
      var live = liveElement();
      if (live && Number(slider.value) < Number(slider.max)) {
        window.tokenflowLive.pause(live);
        back.hidden = false;
      }
    });
    back.addEventListener("click", function () {
      slider.value = slider.max;
      back.hidden = true;
      var live = liveElement();
      if (live) {
        window.tokenflowLive.resume(live);
      }
    });
  }

  // Keeps the slider's end at the newest event while live (never replaced under a dragging hand).
  function followSlider() {
    var slider = document.getElementById("seq-slider");
    var summary = document.getElementById("run-summary");
    var live = liveElement();
    if (!slider || !summary || (live && live.dataset.livePaused === "true")) {
      return;
    }
    slider.max = summary.dataset.lastSeq;
    slider.value = summary.dataset.seq;
  }

  // Live pushes add the newest events on top of the timeline; it keeps as many lines as the page was drawn with.
  // "· next in 1.2 s" beside each retry that is not due yet, counted down in the browser (the server pushes only
  // when something happens)
  function countDownRetries() {
    document.querySelectorAll("#run-nodes [data-retry-at]").forEach(function (badge) {
      var left = parseInt(badge.dataset.retryAt, 10) - Date.now();
      var countdown = badge.querySelector(".retry-countdown");
      if (countdown) {
        countdown.textContent = left > 0 ? " \u00b7 next in " + (left / 1000).toFixed(1) + " s" : "";
      }
    });
  }

  function trimTimeline() {
    var timeline = document.getElementById("run-timeline");
    var list = document.getElementById("run-timeline-list");
    if (!timeline || !list) {
      return;
    }
    var keep = parseInt(timeline.dataset.lines, 10);
    while (list.children.length > keep) {
      list.removeChild(list.lastElementChild);
    }
  }

  document.addEventListener("htmx:wsAfterMessage", function () {
    trimTimeline();
    followSlider();
    refresh();
  });
  // A request from an element with data-shown-seq="<name>" carries the event the page shows as that parameter
  // (in place of hx-vals="js:…", which htmx evaluates as script: the Content-Security-Policy forbids that)
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    var summary = document.getElementById("run-summary");
    if (elt && elt.dataset && elt.dataset.shownSeq && summary) {
      event.detail.parameters[elt.dataset.shownSeq] = summary.dataset.seq;
    }
  });
  document.addEventListener("htmx:afterSettle", refresh);
  // another theme: the graph's stylesheet and every node's colours again, from the CSS variables
  document.addEventListener("tokenflow:theme", function () {
    if (!cy) {
      return;
    }
    painted = {};
    cy.batch(function () {
      cy.style(styles());
      paint();
    });
  });
  // A node's Reprocess swaps the page's main for the page its post leads to (with its own live connection): the old
  // connection's pushes are held back meanwhile, as their targets are on their way out
  document.addEventListener("htmx:beforeRequest", function (event) {
    var live = liveElement();
    if (live && event.detail.elt && event.detail.elt.closest && event.detail.elt.closest(".reprocess-node")) {
      window.tokenflowLive.pause(live);
    }
  });
  // Cancel and compensate ask first (data-confirm on their forms)
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.elt && event.detail.elt.id === "time-travel") {
      refresh();
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    init();
    setUpTimeTravel();
    countDownRetries();
    setInterval(countDownRetries, 100);
    setInterval(tickDuration, 1000);
  });
})();
