// The approvals inbox: one approval selected at a time (its detail shown beside the list), kept selected across live
// pushes and decisions; keys j/k or ↓/↑ move the selection, a approves, r rejects, c goes to the comment; SLA badges
// and ages tick; a filter applies as soon as it changes.
(function () {
  "use strict";

  var selectedId = null;
  var selectedIndex = 0;
  var focusedRow = null;
  var focusedComment = null;

  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll("#inbox-list [data-approval-id]"));
  }

  function select(row, focus) {
    rows().forEach(function (other) {
      var on = other === row;
      other.setAttribute("aria-selected", on ? "true" : "false");
      other.tabIndex = on ? 0 : -1;
    });
    document.querySelectorAll(".inbox-detail").forEach(function (detail) {
      detail.hidden = detail.dataset.approvalId !== row.dataset.approvalId;
    });
    selectedId = row.dataset.approvalId;
    selectedIndex = rows().indexOf(row);
    if (focus) {
      row.focus();
      row.scrollIntoView({block: "nearest"});
    }
    var url = new URL(window.location.href);
    url.searchParams.set("selected", selectedId);
    window.history.replaceState(null, "", url);
  }

  // after a push or a decision drew the list again: the same approval, else the one now at its place
  function restore() {
    var all = rows();
    if (all.length === 0) {
      return;
    }
    var row = document.getElementById("approval-" + selectedId);
    // the focused row was drawn again (or decided): focus its successor, never take focus from elsewhere
    var lostFocus = Boolean(focusedRow) && !focusedRow.isConnected
        && (!document.activeElement || document.activeElement === document.body);
    if (!row || row.getAttribute("aria-selected") !== "true" || lostFocus) {
      select(row || all[Math.min(selectedIndex, all.length - 1)], lostFocus);
    }
  }

  function move(step) {
    var all = rows();
    var index = all.indexOf(document.getElementById("approval-" + selectedId));
    var next = all[Math.max(0, Math.min(all.length - 1, index + step))];
    if (next) {
      select(next, true);
    }
  }

  function selectedDetail() {
    return selectedId && document.getElementById("detail-" + selectedId);
  }

  function decide(value) {
    var detail = selectedDetail();
    var button = detail && detail.querySelector("button[name='decision'][value='" + value + "']");
    if (button) {
      button.click();
    }
  }

  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target) || !document.getElementById("inbox-list")) {
      return;
    }
    var inList = event.target.closest && event.target.closest("#inbox-list");
    var actions = {
      j: function () { move(1); },
      k: function () { move(-1); },
      a: function () { decide("approve"); },
      r: function () { decide("reject"); },
      c: function () {
        var comment = selectedDetail() && selectedDetail().querySelector("textarea");
        if (comment) {
          comment.focus();
        }
      }
    };
    if (inList) {
      actions.ArrowDown = actions.j;
      actions.ArrowUp = actions.k;
    }
    if (actions[event.key]) {
      event.preventDefault();
      actions[event.key]();
    }
  });

  document.addEventListener("click", function (event) {
    var row = event.target.closest && event.target.closest("#inbox-list [data-approval-id]");
    if (row) {
      select(row, true);
    }
  });

  document.addEventListener("focusin", function (event) {
    var inList = event.target.closest && event.target.closest("#inbox-list");
    focusedRow = inList ? event.target : null;
    focusedComment = event.target.closest && event.target.closest(".decide-form") ? event.target : null;
  });

  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.id === "inbox-filters") {
      form.requestSubmit();
    }
  });

  function span(ms) {
    var minutes = Math.floor(ms / 60000);
    if (minutes >= 1440) {
      return Math.floor(minutes / 1440) + " d " + Math.floor((minutes % 1440) / 60) + " h";
    }
    if (minutes >= 60) {
      return Math.floor(minutes / 60) + " h " + (minutes % 60) + " min";
    }
    return minutes >= 1 ? minutes + " min" : Math.max(0, Math.floor(ms / 1000)) + " s";
  }

  // only a changed text is written: writing is a mutation, which would draw the selection again
  function show(element, text) {
    if (element.textContent !== text) {
      element.textContent = text;
    }
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll(".sla[data-deadline]").forEach(function (badge) {
      var left = Date.parse(badge.dataset.deadline) - now;
      show(badge, left > 0 ? span(left) + " left" : "overdue " + span(-left));
      badge.classList.toggle("sla-overdue", left <= 0);
      badge.classList.toggle("sla-soon", left > 0 && left < 3600000);
    });
    document.querySelectorAll("time.age[datetime]").forEach(function (age) {
      show(age, span(now - Date.parse(age.getAttribute("datetime"))) + " ago");
    });
  }

  var pending = false;
  // a push moved the comment being typed (hx-preserve keeps the element, not its focus): give the focus back at
  // once, before the next key lands elsewhere
  function refocusComment() {
    var nowhere = !document.activeElement || document.activeElement === document.body;
    if (nowhere && focusedComment && focusedComment.isConnected) {
      focusedComment.focus();
    }
  }

  new MutationObserver(function () {
    refocusComment();
    if (!pending) {
      pending = true;
      window.requestAnimationFrame(function () {
        pending = false;
        restore();
        tick();
      });
    }
  }).observe(document.body, {childList: true, subtree: true});

  var first = document.querySelector("#inbox-list [aria-selected='true']");
  if (first) {
    selectedId = first.dataset.approvalId;
    selectedIndex = rows().indexOf(first);
  }
  tick();
  window.setInterval(tick, 1000);
})();
