// grade serve: the keyboard. Every action is also a link or a button on the page; this only presses them.
"use strict";
(function () {
  const data = document.body.dataset;
  let busy = false;  // a page is on its way: a second key would act on the old one (and be refused as stale)
  document.addEventListener("submit", () => { busy = true; });
  window.addEventListener("pageshow", () => { busy = false; });  // back to a page kept in memory
  const go = (url) => { if (url) { busy = true; window.location.assign(url); } };
  const press = (selector) => { const el = document.querySelector(selector); if (el) { el.click(); } };
  const focus = (selector) => { const el = document.querySelector(selector); if (el) { el.focus(); } };

  function inField(event) {
    const field = event.target.closest("input, textarea, select");
    if (!field) { return false; }
    if (event.key === "Escape") { field.blur(); event.preventDefault(); }
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && field.form) {
      event.preventDefault();
      const save = field.form.querySelector("#save");
      if (save) { save.click(); } else { field.form.requestSubmit(); }
    }
    return true;
  }

  document.addEventListener("keydown", (event) => {
    if (busy || inField(event) || event.altKey || event.ctrlKey || event.metaKey) { return; }
    const key = event.key;
    let handled = true;
    if (/^[1-9]$/.test(key)) { press(`[data-key="${key}"]`); }
    else if (key === "n") { go(data.nextUngraded); }
    else if (key === "j" || key === "ArrowRight") { go(data.next); }
    else if (key === "k" || key === "ArrowLeft") { go(data.previous); }
    else if (key === "s") { press("#save"); }
    else if (key === "c") { focus("#comment"); }
    else if (key === "p") { focus("#adjust"); }
    else if (key === "g") { go(data.index || "/"); }
    else if (key === "?") { const keys = document.querySelector("#keys"); if (keys) { keys.open = !keys.open; } }
    else { handled = false; }
    if (handled) { event.preventDefault(); }
  });
})();
