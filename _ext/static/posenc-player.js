/* Static explorers: sliders that step through frames precomputed at build time.
 *
 * Each `.posenc-player` (HTML from posenc.static.player_html) holds its
 * current frame inline, and range inputs hidden until this script runs.
 * This script reveals them; moving one loads the frame of the new combination
 * of values from _static/explorers/<ClassName>/<i>_<j>_<k>.png (rendered by
 * _ext/explorer_frames.py) and swaps the picture once it has loaded. Frames
 * are fetched only when asked for; once a reader touches the sliders, the
 * frames one step away on each slider are fetched ahead.
 */
(function () {
  "use strict";

  const script = document.currentScript;
  const key = script ? script.dataset.framesKey || "" : "";
  const requested = new Set();

  function frameUrl(player, indices) {
    const root = document.documentElement.dataset.content_root || "";
    const name = indices.join("_") + ".png";
    const query = key ? "?v=" + key : "";
    return root + "_static/explorers/" + player.dataset.explorer + "/" + name + query;
  }

  function indicesOf(inputs) {
    return inputs.map((input) => Number(input.value));
  }

  function prefetch(url) {
    if (requested.has(url)) return;
    requested.add(url);
    new Image().src = url;
  }

  function prefetchNeighbours(player, inputs) {
    const indices = indicesOf(inputs);
    inputs.forEach((input, k) => {
      for (const step of [-1, 1]) {
        const next = indices[k] + step;
        if (next < Number(input.min) || next > Number(input.max)) continue;
        const moved = indices.slice();
        moved[k] = next;
        prefetch(frameUrl(player, moved));
      }
    });
  }

  function showLabel(input) {
    const labels = JSON.parse(input.dataset.labels);
    const text = labels[Number(input.value)];
    input.setAttribute("aria-valuetext", text);
    input.parentElement.querySelector("output").textContent = text;
  }

  // The sentence shown in print names the values of the figure on screen.
  function showValues(player, inputs) {
    const values = player.querySelector(".posenc-values");
    if (!values) return;
    values.textContent = inputs
      .map((input) => {
        const label = input.parentElement.querySelector(".posenc-label");
        return label.textContent + " = " + input.getAttribute("aria-valuetext");
      })
      .join(", ");
  }

  function showFrame(player, image, inputs) {
    const url = frameUrl(player, indicesOf(inputs));
    player.dataset.pending = url;
    const loader = new Image();
    loader.onload = () => {
      if (player.dataset.pending !== url) return; // a later move won
      image.src = url;
      if (player.dataset.touched) prefetchNeighbours(player, inputs);
    };
    loader.onerror = () => console.error("posenc player: cannot load " + url);
    requested.add(url);
    loader.src = url;
  }

  function setUp(player) {
    const controls = player.querySelector(".posenc-controls");
    const image = player.querySelector("img.posenc-frame");
    const inputs = Array.from(controls.querySelectorAll("input[type=range]"));
    const touch = () => {
      if (player.dataset.touched) return;
      player.dataset.touched = "yes";
      prefetchNeighbours(player, inputs);
    };
    controls.addEventListener("pointerdown", touch);
    controls.addEventListener("focusin", touch);
    const moved = (input) => {
      showLabel(input);
      showValues(player, inputs);
      showFrame(player, image, inputs);
    };
    for (const input of inputs) {
      input.addEventListener("input", () => moved(input));
      // A browser may restore a moved slider when the reader comes back.
      if (input.value !== input.defaultValue) moved(input);
    }
    controls.hidden = false;
    player.querySelector(".posenc-note-live").hidden = false;
    player.querySelector(".posenc-note-static").hidden = true;
    player.classList.add("posenc-ready");
  }

  function setUpAll() {
    document.querySelectorAll(".posenc-player").forEach(setUp);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUpAll);
  } else {
    setUpAll();
  }
})();
