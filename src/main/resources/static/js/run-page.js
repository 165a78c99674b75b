// The run page's graph: cytoscape (dagre layout, read-only) drawn from #run-graph-data, coloured from the node list
// (#run-nodes, pushed live) and with tokens moving along edges for the hops in #run-hops. The slider pauses the live
// pushes while it shows an earlier event; "Back to live" resumes them.
(function () {
  "use strict";

  var cy;
  var animated = 0;
  var STATUS_COLORS = {
    "not-reached": "#d8dce3", pending: "#f2d48f", ready: "#b9cdf5", dispatched: "#8fb0f0", running: "#2f5bd3",
    completed: "#3f9a6b", failed: "#c0392b", cancelled: "#8a8f99"
  };

  function init() {
    var container = document.getElementById("run-graph");
    var data = document.getElementById("run-graph-data");
    if (!container || !data || typeof cytoscape === "undefined") {
      return;
    }
    if (typeof cytoscapeDagre !== "undefined") {
      cytoscape.use(cytoscapeDagre);
    }
    var graph = JSON.parse(data.textContent);
    var elements = graph.nodes.map(function (node) {
      return { group: "nodes", data: { id: node.id, label: node.label, kind: node.kind, type: node.type } };
    }).concat(graph.edges.map(function (edge, i) {
      return { group: "edges", data: { id: "e" + i, source: edge.from, target: edge.to }, classes: edge.kind };
    }));
    cy = cytoscape({
      container: container, elements: elements, autoungrabify: true, boxSelectionEnabled: false,
      userZoomingEnabled: true, wheelSensitivity: 0.3,
      layout: { name: typeof cytoscapeDagre !== "undefined" ? "dagre" : "breadthfirst", rankDir: "LR", nodeSep: 30, rankSep: 60 },
      style: [
        { selector: "node", style: { label: "data(label)", "text-valign": "center", "text-halign": "center",
          "font-size": 11, color: "#1d2330", "background-color": "#d8dce3", shape: "round-rectangle",
          width: "label", height: 28, padding: "8px", "border-width": 2, "border-color": "#b9bfca" } },
        { selector: "node[type = 'human']", style: { shape: "round-hexagon" } },
        { selector: "node.token", style: { width: 10, height: 10, padding: 0, label: "", shape: "ellipse",
          "background-color": "#f08c00", "border-width": 0, "z-index": 10 } },
        { selector: "node.waiting", style: { "border-color": "#b58100", "border-width": 4 } },
        { selector: "node.has-error", style: { "border-color": "#a8261d", "border-width": 4 } },
        { selector: "edge", style: { width: 1.5, "curve-style": "bezier", "target-arrow-shape": "triangle",
          "line-color": "#b9bfca", "target-arrow-color": "#b9bfca" } },
        { selector: "edge.branch", style: { "line-style": "dashed" } },
        { selector: "edge.loop", style: { "line-style": "dotted", "curve-style": "unbundled-bezier" } }
      ]
    });
    cy.on("tap", "node", function (event) {
      var id = event.target.id();
      var button = document.querySelector('#run-nodes li[data-node="' + CSS.escape(id) + '"] button');
      if (button) {
        button.click();
      }
    });
    refresh();
  }

  function refresh() {
    if (!cy) {
      return;
    }
    document.querySelectorAll("#run-nodes li[data-node]").forEach(function (item) {
      var node = cy.getElementById(item.dataset.node);
      if (!node.length) {
        return;
      }
      var status = item.dataset.status;
      var badges = [item.dataset.join && "join " + item.dataset.join, item.dataset.loop && "loop " + item.dataset.loop,
        item.dataset.approval && "awaiting approval", item.dataset.attempt && "attempt " + item.dataset.attempt,
        item.dataset.parked && "dead-letter queue"]
        .filter(Boolean);
      node.style("background-color", STATUS_COLORS[status] || "#d8dce3");
      node.style("color", status === "running" || status === "completed" || status === "failed" ? "#fff" : "#1d2330");
      node.data("label", node.data("label").split("\n")[0] + (badges.length ? "\n" + badges.join(" · ") : ""));
      node.style("text-wrap", "wrap");
      node.toggleClass("waiting", !!item.dataset.approval || !!item.dataset.join);
      node.toggleClass("has-error", !!item.dataset.error);
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
      var start = source && source.length ? source.position() : { x: target.position().x - 60, y: target.position().y };
      var token = cy.add({ group: "nodes", classes: "token", position: { x: start.x, y: start.y },
        data: { id: "token-" + hop.dataset.seq + "-" + Math.random().toString(36).slice(2), label: "" } });
      animated++;
      token.animate({ position: target.position() }, { duration: 600, easing: "ease-in-out-sine",
        complete: function () { token.remove(); animated--; } });
    });
  }

  function liveElement() {
    return document.querySelector(".live-connection[data-live-topic]");
  }

  function setUpTimeTravel() {
    var slider = document.getElementById("seq-slider");
    var back = document.getElementById("back-to-live");
    if (!slider || !back) {
      return;
    }
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
  });
})();
