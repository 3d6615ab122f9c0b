// The string helpers that run over long text on every request and turn, on the XS host, one `name: value`
// line each. On XS reaching a string's index i walks it from the start, so these must work on bytes or a
// string iterator (test/architecture/string-walks.test.ts): before they did, a 64 KB /mcp body's depth
// check took 3.4 s here and a 16 KB prompt's UTF-8 length 250 ms.
//
//   strings-json-depth-ms-64k-xs    the JSON depth check of a 64 KB request body
//   strings-djb2-ms-16k-xs          djb2 of a 16 KB prompt with non-ASCII text
//   strings-utf8-length-ms-16k-xs   its UTF-8 length
//   strings-truncate-ms-16k-xs      cutting it to 8 KB
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export async function runStringsBench() {
  const { runOnXs } = await import("../hosts/xs/run.mjs");
  const r = await runOnXs("bench/strings.xs.ts", { timeoutMs: 300_000 });
  const line = /STRINGS (\{.*\})/.exec(r.stdout);
  if (r.code !== 0 || !line) throw new Error(`the XS strings bench failed (exit ${r.code}): ${(r.stderr + r.stdout).slice(0, 400)}`);
  const f = JSON.parse(line[1]);
  return [
    ["strings-json-depth-ms-64k-xs", f.jsonDepth64k],
    ["strings-djb2-ms-16k-xs", f.djb2Prompt16k],
    ["strings-utf8-length-ms-16k-xs", f.utf8Length16k],
    ["strings-truncate-ms-16k-xs", f.truncate16k],
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [name, value] of await runStringsBench()) console.log(`${name}: ${value.toFixed(3)}`);
}
