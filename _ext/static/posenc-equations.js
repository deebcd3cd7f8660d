/* Equations (display and inline) and tables that scroll sideways (see
 * posenc-widths.css): mark the edges one continues past, so that the style
 * sheet fades them. The maths is rendered when the book is built
 * (_ext/prerender_maths.py). Each box is marked once it is laid out, and
 * again whenever it is scrolled or changes size (a dropdown opened, a font
 * arrived, the window resized).
 *
 * It measures every box first and then writes every mark: a page of a
 * thousand formulas, each measured after the one before was marked, had the
 * browser lay the whole page out again for each mark (seconds on a phone,
 * all before the page finished loading; _ext/lean_scripts.py). */
(() => {
  // A box in a closed dropdown is not laid out: measuring it would have the
  // browser lay out the dropdown's hidden content for it, frame after frame
  // (the ResizeObserver saw it change size each time). It is measured when
  // the dropdown opens (its size changes from nothing).
  // So does a box in a section the browser has not laid out yet (a section
  // past the first screen, content-visibility: auto in posenc-book.css): the
  // ResizeObserver reports it once its section is laid out (when it comes
  // near, or in idle time: posenc-sections.js).
  const measure = (box) => {
    if (box.closest("details:not([open])")) return null;
    if (box.checkVisibility && !box.checkVisibility({ contentVisibilityAuto: true })) {
      return null;
    }
    const hidden = box.scrollWidth - box.clientWidth;
    return {
      box,
      left: box.scrollLeft > 0.5,
      right: box.scrollLeft < hidden - 0.5,
      // Chromium makes a scroll box with nothing focusable inside a tab
      // stop: an option button of a quiz, whose formulas are taken out of
      // the tab order, had one stop per formula inside it. A formula there
      // is never a stop; elsewhere one cut at its line's end is, to be
      // scrolled with the arrow keys.
      stop: box.matches("span.math")
        ? (hidden > 0.5 && !box.closest("button") ? 0 : -1)
        : null,
    };
  };
  const mark = (measured) => {
    if (measured === null) return;
    const { box, left, right, stop } = measured;
    box.classList.toggle("posenc-more-left", left);
    box.classList.toggle("posenc-more-right", right);
    if (stop !== null && box.tabIndex !== stop) box.tabIndex = stop;
  };
  // A formula inside a control (a quiz option, a clicker choice) is no tab
  // stop of its own: the control is (formulas carry tabindex 0 otherwise,
  // _ext/prerender_maths.py, and an inline one that scrolls is a stop of
  // Chromium's). Set at once, before any measure: a ResizeObserver does not
  // report every one of them.
  document
    .querySelectorAll(
      "button math, label math, button span.math, label span.math",
    )
    .forEach((formula) => { formula.tabIndex = -1; });
  const boxes = [
    ...document.querySelectorAll(
      "div.math > math, span.math, .pst-scrollable-table-container",
    ),
  ];
  const markAll = () => boxes.map(measure).forEach(mark);
  // Measured as the browser lays the page out anyway: a ResizeObserver
  // reports each box after the layout of the frame that first paints it
  // (and after any change of its size), and the maths' fonts, once loaded,
  // change the widths of formulas whose boxes keep their size, measured in
  // the next frame. Measuring at once, as the script runs, had the page
  // laid out for it alone, before the theme's scripts changed it again.
  const resized = new ResizeObserver((entries) =>
    entries.map((entry) => measure(entry.target)).forEach(mark),
  );
  boxes.forEach((box) => {
    box.addEventListener("scroll", () => mark(measure(box)), { passive: true });
    resized.observe(box);
  });
  document.fonts.addEventListener("loadingdone", () =>
    requestAnimationFrame(markAll),
  );
})();
