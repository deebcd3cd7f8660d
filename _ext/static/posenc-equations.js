/* Equations (display and inline) and tables that scroll sideways (see
 * posenc-widths.css): mark the edges one continues past, so that the style
 * sheet fades them. The maths is rendered when the book is built
 * (_ext/prerender_maths.py), so this runs once the page is parsed (the
 * script is deferred), and again whenever a box is scrolled or changes size
 * (a dropdown opened, a font arrived, the window resized). */
(() => {
  const mark = (box) => {
    const hidden = box.scrollWidth - box.clientWidth;
    box.classList.toggle("posenc-more-left", box.scrollLeft > 0.5);
    box.classList.toggle("posenc-more-right", box.scrollLeft < hidden - 0.5);
    if (box.matches("span.math")) {
      // Chromium makes a scroll box with nothing focusable inside a tab
      // stop: an option button of a quiz, whose formulas are taken out of
      // the tab order (posenc-quiz.js), had one stop per formula inside it.
      // A formula there is never a stop; elsewhere one cut at its line's
      // end is, to be scrolled with the arrow keys.
      const stop = hidden > 0.5 && !box.closest("button");
      box.tabIndex = stop ? 0 : -1;
    }
  };
  // A formula inside a control (a quiz option, a clicker choice) is no tab
  // stop of its own: the control is (formulas carry tabindex 0 otherwise,
  // _ext/prerender_maths.py).
  document
    .querySelectorAll("button mjx-container, label mjx-container")
    .forEach((formula) => { formula.tabIndex = -1; });
  const watch = () => {
    const resized = new ResizeObserver((entries) =>
      entries.forEach((entry) => mark(entry.target)),
    );
    document
      .querySelectorAll(
        "div.math > mjx-container, span.math, .pst-scrollable-table-container",
      )
      .forEach((box) => {
        mark(box);
        box.addEventListener("scroll", () => mark(box), { passive: true });
        resized.observe(box);
      });
  };
  watch();
})();
