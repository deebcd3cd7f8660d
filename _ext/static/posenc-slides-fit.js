/* Fit each slide's figures into the slide (_ext/slides.py, issue 21).
 *
 * A figure is drawn at FIGURE_SCALE times its design size, or as large as
 * the slide holds it alone (_ext/slides.py's _clean). Where the slide's
 * other entries (text, code, a second figure) then push its content below
 * the slide, the figures are shrunk together, when the slide is first shown
 * (after the maths' fonts have loaded), by as much as the content overruns, never
 * below the script's data-least times their design width
 * (MIN_FIGURE_SCALE). Steps not yet shown keep their room (reveal.js hides
 * them, it does not remove them), so a slide fits with every step shown.
 * Only a caption's line (kept clear of them by posenc-slides.css) goes
 * down beside the slide number and reveal.js's arrows. */
(() => {
  const least = Number(document.currentScript.dataset.least);
  const spare = 2; // deck px left under the lowest content
  const corners = 34; // deck px of the slide number and the arrows
  const fitted = new WeakSet();

  // What the slide's body draws: each line of text, each image, formula
  // and control, with its element (the boxes the deck test measures).
  function* drawn(slide) {
    const body = slide.querySelector(".posenc-slide-body");
    if (!body) return;
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      if (!node.textContent.trim()) continue;
      if (node.parentElement.closest("math")) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const box of range.getClientRects()) yield [box, node.parentElement];
    }
    for (const element of body.querySelectorAll(
      "img, math, svg, canvas, input, button, select")) {
      if (element.parentElement.closest("math")) continue;
      const box = element.getBoundingClientRect();
      if (box.height > 0) yield [box, element];
    }
  }

  function fit(slide) {
    if (!slide || fitted.has(slide)) return;
    fitted.add(slide);
    const images = [
      ...slide.querySelectorAll(".posenc-slide-body img[data-design-width]"),
    ];
    for (let round = 0; round < 3 && images.length; round++) {
      const scale = Reveal.getScale();
      const limit = slide.getBoundingClientRect().bottom;
      // a caption's line may go down to the slide's bottom (it stands
      // clear of the slide number and the arrows); the rest stays above them
      let over = -Infinity;
      for (const [box, element] of drawn(slide)) {
        const free = element.closest("figcaption") ? 0 : corners;
        over = Math.max(over, (box.bottom - limit) / scale + free + spare);
      }
      if (over <= 0) break;
      const tall = images.reduce((sum, i) => sum + parseFloat(i.style.height), 0);
      for (const image of images) {
        const width = parseFloat(image.style.width);
        const height = parseFloat(image.style.height);
        const smallest = Number(image.dataset.designWidth) * least;
        const factor = Math.max(1 - over / tall, smallest / width);
        image.style.width = `${(width * factor).toFixed(1)}px`;
        image.style.height = `${(height * factor).toFixed(1)}px`;
      }
    }
  }

  window.addEventListener("load", async () => {
    await document.fonts.ready; // the maths' fonts set its size
    if (!Reveal.isReady()) await new Promise((done) => Reveal.on("ready", done));
    Reveal.on("slidechanged", (event) => fit(event.currentSlide));
    fit(Reveal.getCurrentSlide());
  });
})();
