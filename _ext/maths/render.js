// TeX to MathML at build time: Temml (pinned in package-lock.json) in Node,
// for _ext/prerender_maths.py.
//
// Reads one JSON object a line on stdin, {"id": n, "tex": "...", "display":
// true|false}, and answers each at once on stdout with {"id": n, "html":
// "<math>...</math>"} (MathML Core, which browsers draw themselves: Chromium
// from version 109, Firefox, Safari), or {"id": n, "error": "..."} for TeX
// that Temml cannot read: an unknown command is an error (throwOnError),
// which fails the build, not red text. Exits when stdin closes.
//
// No <annotation> with the TeX (annotate: false): a screen reader reads the
// MathML itself, and the TeX would add a fifth to every page's maths.
"use strict";
const readline = require("readline");
const temml = require("temml");

const send = (object) => process.stdout.write(JSON.stringify(object) + "\n");
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const { id, tex: source, display } = JSON.parse(line);
  try {
    const html = temml.renderToString(source, {
      displayMode: display,
      annotate: false,
      throwOnError: true,
      strict: false,
      trust: false,
    });
    send({ id, html });
  } catch (error) {
    send({ id, error: String((error && error.message) || error) });
  }
});
