// Live regions: an element with hx-ext="ws" ws-connect="/live" data-live-topic="…" subscribes when its WebSocket
// opens, and again after every reconnect, with the last event it shows (data-seq of the element named by
// data-live-seq-from), so the server resumes without gaps. Pushes are hx-swap-oob fragments; a page may hold them
// back while it shows something else (tokenflowLive.pause) and ask for everything again (tokenflowLive.resume).
(function () {
  "use strict";

  var sockets = new Map();

  function lastSeq(elt) {
    var from = elt.dataset.liveSeqFrom && document.getElementById(elt.dataset.liveSeqFrom);
    return from ? Number(from.dataset.seq || 0) : 0;
  }

  function subscribe(elt) {
    var socket = sockets.get(elt);
    if (!socket) {
      return;
    }
    socket.send(JSON.stringify({
      subscribe: elt.dataset.liveTopic,
      after: lastSeq(elt),
      params: elt.dataset.liveParams ? JSON.parse(elt.dataset.liveParams) : {}
    }));
  }

  function status(text, state) {
    var line = document.getElementById("live-status");
    if (line) {
      line.textContent = text;
      line.className = "live-status live-" + state;
    }
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    var elt = event.target;
    if (!elt.dataset.liveTopic) {
      return;
    }
    sockets.set(elt, event.detail.socketWrapper);
    subscribe(elt);
    status("Live", "open");
  });

  document.addEventListener("htmx:wsClose", function () {
    status("Reconnecting…", "closed");
  });

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    if (event.target.dataset.livePaused === "true") {
      event.preventDefault();
    }
  });

  window.tokenflowLive = {
    pause: function (elt) {
      elt.dataset.livePaused = "true";
      status("Paused (time travel)", "paused");
    },
    resume: function (elt) {
      delete elt.dataset.livePaused;
      subscribe(elt);
      status("Live", "open");
    }
  };
})();
