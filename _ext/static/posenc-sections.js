/* The sections of a chapter past its first screen are laid out in idle
 * time, one at a time, once the page has loaded (posenc-book.css).
 *
 * Each section of a chapter (h2) has content-visibility: auto: the browser
 * lays out and paints only those near the screen. A page of a thousand
 * formulas was laid out whole before it could be read, on a phone seconds
 * of it (docs/maintainers.md, "Sections laid out when near"). The rest is
 * laid out here, after the load, when the browser has nothing else to do,
 * a section a frame: then the page is as it would be without it (find in
 * page, the scrollbar's length, keyboard focus, the tab stops of boxes that
 * scroll), and each section keeps its size (no jump as one scrolls). With
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
  const idle = window.requestIdleCallback || ((task) => setTimeout(task, 50));
  let next = 0;
  const layOutOne = () => {
    if (next < sections.length) {
      sections[next].classList.add("posenc-laid-out");
      next += 1;
      idle(layOutOne, { timeout: 1000 });
      return;
    }
    root.dataset.posencSections = "laid-out";
    window.dispatchEvent(new Event("resize"));
  };
  const start = () =>
    document.fonts.ready.then(() => idle(layOutOne, { timeout: 2000 }));
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start);
})();
