// When a WebAssembly instance of the page traps (a Rust panic aborts with `unreachable`; a
// stack overflow or a memory error traps too), the app behind the page is gone: the page would
// sit there, half working. Say so at the top with a Reload button instead. Nothing here
// touches storage, so the saved mock data, documents and settings are as the last change left
// them. Loaded by index.html (inlined) and domains.html.
(function () {
  var shown = false;
  function died(error) {
    if (shown || !(error instanceof WebAssembly.RuntimeError)) return;
    shown = true;
    var box = document.createElement("div");
    var text = document.createElement("p");
    box.className = "page-died";
    // Styled here, not in a stylesheet: the reference's stylesheets are part of its first
    // download, and this is needed only on the day something breaks.
    box.style.cssText =
      "position:fixed;inset:0 0 auto 0;z-index:1000;display:flex;flex-wrap:wrap;align-items:center;" +
      "gap:0.5rem 1rem;padding:0.75rem 1rem;background:var(--warn-bg);color:var(--warn-fg);" +
      "border-bottom:2px solid currentColor;font-weight:600";
    text.style.cssText = "margin:0;flex:1 1 20rem";
    box.setAttribute("role", "alert");
    box.setAttribute("data-testid", "page-died");
    text.textContent =
      "This page hit an internal error and stopped working (" + error.message + "). " +
      "Your saved mock data, documents and settings are untouched; reload the page to go on.";
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button button-primary";
    button.setAttribute("data-testid", "page-died-reload");
    button.textContent = "Reload";
    button.addEventListener("click", function () {
      location.reload();
    });
    box.append(text, button);
    (document.body || document.documentElement).prepend(box);
    button.focus();
  }
  addEventListener("error", function (event) {
    died(event.error);
  });
  addEventListener("unhandledrejection", function (event) {
    died(event.reason);
  });
})();
