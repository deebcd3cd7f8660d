/* Static explorers: sliders that step through frames precomputed at build time.
 *
 * Each `.posenc-player` (HTML from posenc.static.player_html) holds its
 * current frame inline, and controls hidden until this script runs: range
 * inputs for numbers (with a play button where the explorer asks for one)
 * and groups of buttons for named choices. This script reveals them; moving
 * one loads the frame of the new combination of values from
 * _static/explorers/<ClassName>/<i>_<j>_<k>.png (rendered by
 * _ext/explorer_frames.py) and swaps the picture once it has loaded, with a
 * "loading" sign meanwhile. The figure's caption names the values shown.
 * Frames are fetched only when asked for; once a reader touches the controls,
 * the frames one step away on each are fetched ahead. A screen reader hears
 * the values of each frame once it shows: a live region (role "status",
 * seen by no one else) says "Shown: <values>." after every move; while the
 * play button plays, only where it stops.
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

  // A control is a range input or a group of buttons (data-kind); both
  // carry data-name and data-labels, and hold the index of their option.
  function indexOf(control) {
    return control.dataset.kind === "choice"
      ? Number(control.dataset.index)
      : Number(control.value);
  }

  function sizeOf(control) {
    return JSON.parse(control.dataset.labels).length;
  }

  function indicesOf(controls) {
    return controls.map(indexOf);
  }

  function prefetch(url) {
    if (requested.has(url)) return;
    requested.add(url);
    new Image().src = url;
  }

  function prefetchNeighbours(player, controls) {
    const indices = indicesOf(controls);
    controls.forEach((control, k) => {
      for (const step of [-1, 1]) {
        const next = indices[k] + step;
        if (next < 0 || next >= sizeOf(control)) continue;
        const moved = indices.slice();
        moved[k] = next;
        prefetch(frameUrl(player, moved));
      }
    });
  }

  function labelOf(control) {
    return JSON.parse(control.dataset.labels)[indexOf(control)];
  }

  function showLabel(control) {
    const text = labelOf(control);
    const holder = control.closest(".posenc-slider");
    holder.querySelector("output").textContent = text;
    if (control.dataset.kind === "choice") {
      control.querySelectorAll("button").forEach((button) => {
        const on = Number(button.dataset.index) === indexOf(control);
        button.setAttribute("aria-pressed", on ? "true" : "false");
      });
    } else {
      control.setAttribute("aria-valuetext", text);
    }
  }

  function valuesText(controls) {
    return controls
      .map((control) => {
        const label = control.closest(".posenc-slider").querySelector(".posenc-label");
        return label.textContent + " = " + labelOf(control);
      })
      .join(", ");
  }

  // The figure's caption and the sentence shown in print name the values of
  // the figure on screen.
  function showValues(player, controls) {
    const text = valuesText(controls);
    player.querySelectorAll(".posenc-values").forEach((span) => {
      span.textContent = text;
    });
    const figure = player.closest("figure");
    const caption = figure && figure.querySelector("figcaption");
    if (!caption) return;
    let shown = caption.querySelector(".posenc-caption-values");
    if (!shown) {
      shown = document.createElement("span");
      shown.className = "posenc-caption-values";
      (caption.querySelector("p") || caption).append(shown);
    }
    shown.textContent = " Shown: " + text + ".";
  }

  // The live region that tells a screen reader what the frame shows.
  function announce(player, controls) {
    if (player.dataset.playing) return;
    player.querySelector(".posenc-live").textContent =
      "Shown: " + valuesText(controls) + ".";
  }

  function setBusy(player, busy) {
    player.classList.toggle("posenc-busy", busy);
    player.querySelector(".posenc-loading").hidden = !busy;
  }

  function showFrame(player, image, controls) {
    const url = frameUrl(player, indicesOf(controls));
    player.dataset.pending = url;
    setBusy(player, true);
    const loader = new Image();
    loader.onload = () => {
      if (player.dataset.pending !== url) return; // a later move won
      image.src = url;
      setBusy(player, false);
      announce(player, controls);
      if (player.dataset.touched) prefetchNeighbours(player, controls);
    };
    loader.onerror = () => {
      setBusy(player, false);
      console.error("posenc player: cannot load " + url);
    };
    requested.add(url);
    loader.src = url;
  }

  // Play: step a range through its options, one every PLAY_MS, from the
  // start if it is at the end; any other touch of the controls stops it.
  const PLAY_MS = 900;

  function setUpPlay(button, control, move, player, controls) {
    let timer = null;
    const stop = () => {
      const played = timer !== null;
      clearInterval(timer);
      timer = null;
      delete player.dataset.playing;
      button.textContent = "▶";
      button.setAttribute("aria-pressed", "false");
      if (played) announce(player, controls);
    };
    const step = () => {
      const next = Number(control.value) + 1;
      if (next >= sizeOf(control)) return stop();
      control.value = String(next);
      move(control);
    };
    button.addEventListener("click", (event) => {
      event.preventDefault();
      if (timer) return stop();
      if (Number(control.value) >= sizeOf(control) - 1) {
        control.value = "0";
        move(control);
      }
      button.textContent = "❚❚";
      button.setAttribute("aria-pressed", "true");
      player.dataset.playing = "yes";
      timer = setInterval(step, PLAY_MS);
    });
    control.addEventListener("pointerdown", stop);
    control.addEventListener("keydown", stop);
  }

  function setUp(player) {
    const controls = player.querySelector(".posenc-controls");
    const image = player.querySelector("img.posenc-frame");
    const inputs = Array.from(controls.querySelectorAll("[data-kind]"));
    const touch = () => {
      if (player.dataset.touched) return;
      player.dataset.touched = "yes";
      prefetchNeighbours(player, inputs);
    };
    controls.addEventListener("pointerdown", touch);
    controls.addEventListener("focusin", touch);
    const moved = (control) => {
      showLabel(control);
      showValues(player, inputs);
      showFrame(player, image, inputs);
    };
    for (const control of inputs) {
      if (control.dataset.kind === "choice") {
        control.querySelectorAll("button").forEach((button) => {
          button.addEventListener("click", () => {
            control.dataset.index = button.dataset.index;
            moved(control);
          });
        });
        continue;
      }
      control.addEventListener("input", () => moved(control));
      const play = control.closest(".posenc-slider").querySelector(".posenc-play");
      if (play) setUpPlay(play, control, moved, player, inputs);
      // A browser may restore a moved slider when the reader comes back.
      if (control.value !== control.defaultValue) moved(control);
    }
    showValues(player, inputs);
    // Empty at first (a live region announces changes, not what it holds
    // when the page loads), before the controls show.
    const live = document.createElement("div");
    live.className = "posenc-live";
    live.setAttribute("role", "status");
    live.setAttribute("aria-live", "polite");
    controls.after(live);
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
