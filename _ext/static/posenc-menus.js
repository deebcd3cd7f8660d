// The theme's Bootstrap (scripts/bootstrap.js, 81 kB) loaded on first use
// (_ext/lean_scripts.py). It serves the header's download menu and the
// buttons' tooltips only, and was the biggest script a page ran as it
// loaded on a phone. The page keeps its tag, with a type that no browser runs
// (BOOTSTRAP_TYPE below); this script loads it the first time a pointer
// comes over, a finger or key presses, or focus comes to, an element that
// needs it ([data-bs-toggle]). A click or key that came before it had
// loaded is played again once it has, and so is a hover or focus that is
// still there (the tooltip then shows).
// The "back to top" button, which bootstrap.js set up as the page loaded,
// is set up here (lean_scripts.without_back_to_top cuts it from there).
// And the sidebar buttons a reader sees work: see the end.
(function () {
  "use strict";
  const BOOTSTRAP_TYPE = "text/x-load-on-use";
  const NEEDS = "[data-bs-toggle]";
  const MENU_KEYS = ["ArrowDown", "ArrowUp", "Escape"];
  let state = "idle"; // then "loading", then "loaded"
  let click = null; // the element a click came to while loading
  let key = null; // [element, key] of a menu key pressed while loading

  function replay() {
    if (click) click.click();
    if (key) {
      key[0].dispatchEvent(
        new KeyboardEvent("keydown", { key: key[1], bubbles: true, cancelable: true })
      );
    }
    click = key = null;
    const tips = '[data-bs-toggle="tooltip"]';
    const hovered = Array.from(document.querySelectorAll(tips + ":hover")).pop();
    if (hovered) hovered.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
    const focused = document.activeElement;
    if (focused && focused.matches(tips)) {
      focused.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    }
  }

  function load() {
    const tag = document.querySelector('script[type="' + BOOTSTRAP_TYPE + '"]');
    if (!tag) return;
    state = "loading";
    const script = document.createElement("script");
    script.src = tag.src;
    script.onload = function () {
      state = "loaded";
      replay();
    };
    document.head.appendChild(script);
  }

  function onUse(event) {
    if (state === "loaded") return;
    const target = event.target.closest ? event.target.closest(NEEDS) : null;
    if (!target) return;
    if (state === "idle") load();
    if (state !== "loading") return;
    if (!target.matches('[data-bs-toggle="dropdown"]')) return;
    if (event.type === "click") {
      click = target;
    } else if (event.type === "keydown" && MENU_KEYS.includes(event.key)) {
      event.preventDefault(); // as Bootstrap does: the arrow does not scroll
      key = [target, event.key];
    }
  }

  for (const type of ["pointerover", "pointerdown", "focusin", "keydown", "click"]) {
    document.addEventListener(type, onUse, true);
  }

  // "Back to top": shown while scrolling up below the header; the header is
  // measured at the first scroll, not as the page loads (a layout of its own).
  const button = document.getElementById("pst-back-to-top");
  if (button) {
    button.addEventListener("click", function () {
      document.body.scrollTop = 0;
      document.documentElement.scrollTop = 0;
    });
    let header = null;
    let last = null;
    window.addEventListener("scroll", function () {
      header = header || document.querySelector(".bd-header").getBoundingClientRect();
      const up = last !== null && last > window.scrollY && window.scrollY > header.bottom;
      button.style.display = up ? "block" : "none";
      last = window.scrollY;
    });
  }

  // The sidebar buttons: pydata-sphinx-theme (a sidebar as a dialog on a
  // narrow screen) and sphinx-book-theme (the table of contents hidden on a
  // wide one) wire only the first .primary-toggle and .secondary-toggle of
  // the page, the header's, which sphinx-book-theme hides; the ones a reader
  // sees, in the article's header, did nothing. A press on another is
  // passed to the first.
  for (const kind of [".primary-toggle", ".secondary-toggle"]) {
    const [first, ...others] = document.querySelectorAll(kind);
    for (const other of others) {
      other.addEventListener("click", function (event) {
        event.preventDefault();
        event.stopPropagation();
        first.click();
      });
    }
  }
})();
