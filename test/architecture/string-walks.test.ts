// On XS a string is kept as UTF-8, and reaching index i (charCodeAt(i), s[i], even s.length) walks the
// string from its start: a loop over a long string's indices is quadratic. Measured on the XS host before
// this check: jsonTooDeep over a 64 KB /mcp body took 3.4 s and djb2 3.6 s (about 50 times that on the
// device), utf8Length of a 16 KB prompt 250 ms (0.12 ms through the native encoder). So every
// charCodeAt/codePointAt with a computed index in lib/ is listed here with why its string is short;
// a new one fails until it is (or, better, until it works on bytes or a string iterator instead).
import assert from "node:assert/strict";
import { libModules, parse } from "../support/lib-sources.ts";

/** file -> why its computed-index reads are on short strings. */
const SHORT_STRINGS: { readonly [file: string]: string } = {
  "lib/util/text.ts": "collapseSpaces walks only non-ASCII text, and only strings up to SHORT_CHARS (512) reach it",
  "lib/util/base64.ts": "the 64-character alphabet, once as the module loads",
  "lib/voice/wav.ts": "4-character chunk tags",
  "lib/wallet/shims.ts": "btoa of a Cashu token's binary string (a few hundred bytes)",
  "lib/chat/telegram-channel.ts": "one read at a cut point per message part",
  "lib/store/docs-pack.ts": "edit distance between section ids (at most 160 characters)",
  "lib/store/search-index.ts": "the first two characters of a word",
  "lib/store/artifact-search.ts": "one read per occurrence, at most MAX_COUNT occurrences",
  "lib/memory/recall/lexical.ts": "one space-separated piece of a memory (2,000 bytes at most)",
};

/** The files of lib/ that read a string at a computed index. */
function computedIndexReads(files: string[]): string[] {
  const found = new Set<string>();
  for (const file of files) {
    const text = parse(file).text;
    for (const m of text.matchAll(/\.(charCodeAt|codePointAt)\(([^)]*)\)/g)) if (!/^\s*\d*\s*$/.test(m[2])) found.add(file);
  }
  return [...found].sort();
}

describe("string walks that are quadratic on XS", () => {
  it("reads strings at computed indices only where the list says the string is short", () => {
    const files = libModules().filter((f) => !f.startsWith("lib/generated/"));
    const unlisted = computedIndexReads(files).filter((f) => !(f in SHORT_STRINGS));
    assert.deepEqual(unlisted, []);
    const stale = Object.keys(SHORT_STRINGS).filter((f) => !computedIndexReads(files).includes(f));
    assert.deepEqual(stale, [], "a listed file no longer reads at computed indices: drop it from the list");
  });

  it("the check finds a loop over a string's indices", () => {
    assert.deepEqual(computedIndexReads(["lib/util/text.ts"]), ["lib/util/text.ts"]);
    assert.deepEqual(computedIndexReads(["lib/util/hash.ts"]), []);
  });
});
