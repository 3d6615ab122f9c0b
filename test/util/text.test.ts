// The regex-free short-string paths of lib/util/text.ts (XS runs regexes slowly) give exactly what the regexes give.
import assert from "node:assert/strict";
import { clipForMessage, collapseSpaces, snippetAround } from "../../lib/util/text.ts";
import { mulberry32 } from "../support/prng.ts";

const UNITS = [
  " ",
  "\t",
  "\n",
  "\v",
  "\f",
  "\r",
  "\u00a0",
  "\u1680",
  "\u2000",
  "\u200a",
  "\u2028",
  "\u2029",
  "\u202f",
  "\u205f",
  "\u3000",
  "\ufeff",
];
const OTHERS = ["\u0085", "\u200b", "a", "B", "é", "\u0000", "\u001f", "\u007f", "x", "\ud83d\ude00", "-"];

describe("text helpers without regexes", () => {
  it("collapseSpaces is replace(/\\s+/g, ' ').trim() for every code unit and seeded mixes", () => {
    for (let c = 0; c < 0x10000; c++) {
      const s = `a${String.fromCharCode(c)}${String.fromCharCode(c)}b `;
      assert.equal(collapseSpaces(s), s.replace(/\s+/g, " ").trim(), c.toString(16));
    }
    const prng = mulberry32(11);
    const all = [...UNITS, ...OTHERS];
    for (let k = 0; k < 5000; k++) {
      let s = "";
      for (let n = prng.int(0, 30); n > 0; n--) s += all[prng.int(0, all.length - 1)];
      assert.equal(collapseSpaces(s), s.replace(/\s+/g, " ").trim(), JSON.stringify(s));
      const clipped = s.replace(/[\u0000-\u001f\u007f]/g, "?");
      assert.equal(clipForMessage(s, 12), clipped.length > 12 ? clipped.slice(0, 12) + "…" : clipped, JSON.stringify(s));
    }
  });

  it("ASCII text (the native-pass path) gives what the regexes give, controls and runs of breaks included", () => {
    const ascii = [" ", "  ", "\t", "\n", "\v", "\f", "\r", "\r\n", "a", "Bc", "\u0000", "\u0008", "\u000e", "\u001f", "\u007f", "-", "."];
    const prng = mulberry32(12);
    for (let k = 0; k < 5000; k++) {
      let s = "";
      for (let n = prng.int(0, 40); n > 0; n--) s += ascii[prng.int(0, ascii.length - 1)];
      assert.equal(collapseSpaces(s), s.replace(/\s+/g, " ").trim(), JSON.stringify(s));
      const clipped = s.replace(/[\u0000-\u001f\u007f]/g, "?");
      assert.equal(clipForMessage(s, 12), clipped.length > 12 ? clipped.slice(0, 12) + "…" : clipped, JSON.stringify(s));
    }
  });

  it("snippets and clips of long strings still take the regex path", () => {
    const body = "x ".repeat(400) + "needle\n\n here" + "\t y".repeat(300);
    assert.equal(snippetAround(body, "needle", 600).includes("\n"), false);
    assert.equal(clipForMessage("\u0001".repeat(600), 3), "???…");
  });
});
