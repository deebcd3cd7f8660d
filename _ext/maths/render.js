// TeX to HTML at build time: MathJax 3 (mathjax-full, pinned in
// package-lock.json) in Node, for _ext/prerender_maths.py.
//
// Reads one JSON object a line on stdin, {"id": n, "tex": "...", "display":
// true|false}, and answers each at once on stdout with {"id": n, "html":
// "<mjx-container ...>"} (MathJax's CommonHTML output with MathML inside
// for assistive technology), or {"id": n, "error": "..."} for TeX that
// MathJax cannot read. When stdin closes it writes {"css": [...]}: the
// style sheet's rules for everything rendered (the characters used, the
// layouts of fractions, tables, ...), one rule a string, and exits.
//
// The TeX packages are those the browser's tex-mml-chtml.js had (its
// defaults and the ones it loaded on demand), except noundefined: an
// unknown command is an error here, which fails the build, not red text.
"use strict";
const readline = require("readline");
const { mathjax } = require("mathjax-full/js/mathjax.js");
const { TeX } = require("mathjax-full/js/input/tex.js");
const { CHTML } = require("mathjax-full/js/output/chtml.js");
const { liteAdaptor } = require("mathjax-full/js/adaptors/liteAdaptor.js");
const { RegisterHTMLHandler } = require("mathjax-full/js/handlers/html.js");
const { AssistiveMmlHandler } = require("mathjax-full/js/a11y/assistive-mml.js");
require("mathjax-full/js/input/tex/AllPackages.js");

const PACKAGES = [
  "base", "ams", "newcommand", "configmacros", "action", "amscd", "bbox",
  "boldsymbol", "braket", "cancel", "cases", "color", "enclose", "extpfeil",
  "html", "mhchem", "unicode", "verb",
];
// The fonts' address, relative to the style sheet (argument 1).
const fontURL = process.argv[2] || "mathjax-fonts";

const adaptor = liteAdaptor();
AssistiveMmlHandler(RegisterHTMLHandler(adaptor));
const tex = new TeX({
  packages: PACKAGES,
  formatError: (jax, error) => { throw error; },
});
const chtml = new CHTML({ fontURL, adaptiveCSS: true });
const document = mathjax.document("", { InputJax: tex, OutputJax: chtml });

const send = (object) => process.stdout.write(JSON.stringify(object) + "\n");
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const { id, tex: source, display } = JSON.parse(line);
  try {
    // em and ex as MathJax assumes them; the style sheet scales the maths
    // to the ex-height of the text around it, as MathJax did in the browser.
    const node = document.convert(source, { display, em: 16, ex: 8, containerWidth: 80 * 16 });
    send({ id, html: adaptor.outerHTML(node) });
  } catch (error) {
    send({ id, error: String((error && error.message) || error) });
  }
});
lines.on("close", () => {
  const css = adaptor.textContent(chtml.styleSheet(document));
  send({ css: css.split(/\n\s*\n/).map((rule) => rule.trim()).filter(Boolean) });
});
