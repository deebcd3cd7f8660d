// The folds of a chapter (_ext/folding.py).
// 1. A link to a check ("#check-...") opens the check's fold, and a link to
//    anything inside a dropdown (an equation, a figure of the deeper layer)
//    opens the dropdowns around it: on a click, and when the page is opened
//    at that address.
// 2. sphinx-togglebutton's collapse buttons announced themselves as "Toggle
//    hidden content"; each is named by the title it folds instead.
(function () {
  "use strict";
  function openTarget(hash) {
    if (!hash || hash.length < 2) return;
    let target = null;
    try { target = document.getElementById(decodeURIComponent(hash.slice(1))); }
    catch (e) { return; }
    if (!target) return;
    // A check cell holds its fold; anything else (an equation, a figure,
    // a theorem in the deeper layer) opens the dropdowns around it.
    const own = target.matches(".posenc-check")
      ? target.querySelector(":scope > details") : null;
    if (own) own.open = true;
    for (let d = target.parentElement; d; d = d.parentElement) {
      if (d.tagName === "DETAILS") d.open = true;
    }
  }
  function nameToggles() {
    for (const button of document.querySelectorAll("button.toggle-button")) {
      const title = button.closest(".admonition-title");
      if (!title) continue;
      const text = title.textContent.replace(/\s+/g, " ").trim();
      if (text) button.setAttribute("aria-label", text);
    }
  }
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[href^='#']");
    if (link) openTarget(link.getAttribute("href"));
  });
  window.addEventListener("hashchange", () => openTarget(location.hash));
  window.addEventListener("load", () => {
    nameToggles();
    openTarget(location.hash);
  });
})();
