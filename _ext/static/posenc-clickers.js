// The keys of a clicker page (_ext/quiz.py, clickers/<chapter>.html) on a
// projector or a laptop: the title, then one question a screen.
//
// The browser's own keys scroll by distances: Page Down by a screen less a
// margin (it split a question over two screens), an arrow by 40 px. Here
// Page Down, Space, the down and right arrows (and a presenter's remote,
// which sends Page Down) go to the next question; Page Up, Shift+Space, the
// up and left arrows to the previous one. A question taller than the screen
// is first scrolled through, so nothing of it is skipped. On a phone (the
// plain list of posenc-clickers.css) and for a key with a modifier, the
// browser keeps its keys. Without JavaScript the page still scrolls, with
// the style sheet's snapping.
"use strict";
(() => {
  const projector = window.matchMedia("(min-width: 900px) and (min-height: 600px)");
  const NEXT = new Set(["PageDown", "ArrowDown", "ArrowRight", " "]);
  const PREVIOUS = new Set(["PageUp", "ArrowUp", "ArrowLeft"]);
  // Half a pixel of rounding either way is "at" a position.
  const SLACK = 2;

  // Each stop: the page's y of a screen's top, and of its bottom.
  const stops = () =>
    [...document.querySelectorAll(".clicker-header, .clicker-question")].map((element) => {
      const box = element.getBoundingClientRect();
      return { element, top: box.top + window.scrollY, bottom: box.bottom + window.scrollY };
    });

  // The y to go to from y, one step forward (+1) or back (-1).
  function target(direction) {
    const y = window.scrollY;
    const height = window.innerHeight;
    const all = stops();
    // The stop the screen's top is in (the last that starts at or above it).
    let index = 0;
    all.forEach((stop, i) => {
      if (stop.top <= y + SLACK) index = i;
    });
    const here = all[index];
    const step = height - 3 * parseFloat(getComputedStyle(document.body).fontSize);
    if (direction > 0) {
      if (here.bottom > y + height + SLACK) return Math.min(y + step, here.bottom - height);
      return index + 1 < all.length ? all[index + 1].top : null;
    }
    if (y > here.top + SLACK) return Math.max(here.top, y - step);
    if (index === 0) return null;
    const previous = all[index - 1];
    // A tall previous question: its last screen.
    return Math.max(previous.top, Math.min(previous.bottom - height, here.top - step));
  }

  document.addEventListener("keydown", (event) => {
    if (!projector.matches || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
    let direction = 0;
    if (event.key === " ") direction = event.shiftKey ? -1 : 1;
    else if (NEXT.has(event.key)) direction = 1;
    else if (PREVIOUS.has(event.key)) direction = -1;
    if (!direction) return;
    const y = target(direction);
    event.preventDefault();
    if (y === null) return;
    window.scrollTo({ top: y, behavior: "instant" });
  });
})();
