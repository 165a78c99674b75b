// Toasts: short messages in a corner of the canvas that never block it. The layer takes no pointer events; only a
// toast itself does. Success and info toasts go away by themselves; errors stay until closed or acted on.
(function (TF) {
  "use strict";

  var LIFETIME_MS = {success: 5000, info: 9000};
  var MOST = 4;

  function Toasts(layer) {
    this.layer = layer;
  }

  /** Shows a message; {@code actions} are buttons ({label, run}) that also close it. Returns the toast. */
  Toasts.prototype.show = function (kind, text, actions) {
    var toasts = this;
    var toast = document.createElement("div");
    toast.className = "toast toast-" + kind;
    toast.setAttribute("role", kind === "error" ? "alert" : "status");
    var message = document.createElement("p");
    message.className = "toast-message";
    message.textContent = text;
    toast.appendChild(message);
    var buttons = document.createElement("div");
    buttons.className = "toast-actions";
    (actions || []).forEach(function (action) {
      buttons.appendChild(toasts.button(action.label, "button-quiet small", function () {
        toasts.close(toast);
        action.run();
      }));
    });
    var close = this.button("×", "toast-close", function () { toasts.close(toast); });
    close.setAttribute("aria-label", "Dismiss");
    toast.append(buttons, close);
    this.layer.appendChild(toast);
    while (this.layer.children.length > MOST) {
      this.close(this.layer.firstElementChild);
    }
    if (LIFETIME_MS[kind]) {
      toast.timer = setTimeout(function () { toasts.close(toast); }, LIFETIME_MS[kind]);
    }
    return toast;
  };

  Toasts.prototype.button = function (label, className, run) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = className;
    button.textContent = label;
    button.addEventListener("click", run);
    return button;
  };

  Toasts.prototype.close = function (toast) {
    clearTimeout(toast.timer);
    toast.remove();
  };

  /** Closes every toast (a newer state makes them stale: a reload, a re-apply). */
  Toasts.prototype.clear = function () {
    var toasts = this;
    Array.prototype.slice.call(this.layer.children).forEach(function (toast) { toasts.close(toast); });
  };

  TF.Toasts = Toasts;
})(window.Tokenflow = window.Tokenflow || {});
