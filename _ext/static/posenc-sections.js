/* The sections of a chapter past its first screen are laid out in idle
 * time once the page has loaded (posenc-book.css).
 *
 * Each section of a chapter (h2) has content-visibility: auto: the browser
 * lays out and paints only those near the screen. A page of a thousand
 * formulas was laid out whole before it could be read, on a phone seconds
 * of it (docs/maintainers.md, "Sections laid out when near"). The rest is
 * laid out here, after the load, when the browser has nothing else to do:
 * as many sections at a time as fit in the time it has (one on a slow
 * phone). Then the page is as it would be without it (find in page, the
 * scrollbar's length, keyboard focus, the tab stops of boxes that scroll),
 * and each section keeps its size (no jump as one scrolls). With
 * JavaScript off, the sections stay as they are: laid out when near.
 *
 * The root's data-posenc-sections says how far it is: "laying-out" from
 * the start, "laid-out" when every section is; then the window gets a
 * resize event (the theme sets the tab stops of scrolling boxes again on
 * it; _ext/lean_scripts.py). */
(() => {
  const sections = [
    ...document.querySelectorAll(".bd-article > section > section"),
  ];
  if (!sections.length) return;
  const root = document.documentElement;
  root.dataset.posencSections = "laying-out";
  // Without requestIdleCallback (Safari), a section every 50 ms.
  const idle =
    window.requestIdleCallback ||
    ((task) => setTimeout(() => task({ timeRemaining: () => 0 }), 50));
  let next = 0;
  // As many sections as fit in this idle period, at least one; each is laid
  // out here (its height read), so that the time left says what it cost.
  const layOut = (deadline) => {
    do {
      const section = sections[next];
      section.classList.add("posenc-laid-out");
      void section.offsetHeight;
      next += 1;
    } while (next < sections.length && deadline.timeRemaining() > 0);
    if (next < sections.length) {
      idle(layOut, { timeout: 1000 });
      return;
    }
    root.dataset.posencSections = "laid-out";
    window.dispatchEvent(new Event("resize"));
  };
  const start = () =>
    document.fonts.ready.then(() => idle(layOut, { timeout: 2000 }));
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start);
})();
