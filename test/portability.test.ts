// lib/ must run unchanged on XS 13.3 (the test host) and XS 17 (the Moddable SDK): these are the
// constructs that have broken that before. The device manifest must map every lib/ folder.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.(ts|js)$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

// The third entry lists files allowed the construct, with the reason beside it.
const FORBIDDEN: Array<[RegExp, string, string[]?]> = [
  [/from\s+["'](node:|fs|path|http|https|os|child_process|crypto|net|url|util)["']/, "a Node built-in import"],
  [/\brequire\(/, "require()"],
  [/\bBuffer\./, "Buffer"],
  [/\bprocess\.(env|argv|exit)/, "process"],
  [/\beval\(|new Function\(/, "eval or new Function"],
  [/\\p\{/, "a Unicode property escape (the Moddable SDK's compiler rejects it)"],
  [/\.fromBase64\(|\.toBase64\(|Float16Array/, "an API newer than XS 13.3"],
  [/^\s*(await\s+)?using\s+\w+\s*=/m, "a using declaration (not in XS 13.3)"],
  [/\bimport\(\s*[^"'`]/, "a dynamic import of a computed name"],
  [/\bDate\.now\(|Math\.random\(/, "ambient time or randomness (use the Clock and Random ports)"],
  // lib/util/json.ts is toJson itself; updates-page.ts holds the page's own browser script; nostr/event.ts
  // hashes an event verifyEvent has just rebuilt from parsed JSON (freshIdBytes), where toJson's replacer
  // would cost a call into JavaScript per value on every event received.
  [
    /\bJSON\.stringify\(/,
    "JSON.stringify (preloaded constants are read-only on the device: use toJson)",
    ["lib/util/json.ts", "lib/http/updates-page.ts", "lib/nostr/event.ts"],
  ],
  [/\bthis\.name\s*=[^=]/, "an error named by assignment (the device's frozen Error.prototype refuses it: use nameError)"],
];

describe("portability of lib/", () => {
  const files = sources("lib").map((path) => ({ path, text: readFileSync(path, "utf8") }));
  for (const [pattern, what, allowed = []] of FORBIDDEN) {
    it(`no file uses ${what}`, () => {
      assert.ok(files.length > 20);
      assert.deepEqual(
        files.filter((f) => pattern.test(f.text) && !allowed.includes(f.path)).map((f) => f.path),
        [],
      );
    });
  }

  it("the device manifest maps every lib/ and hosts/device/ folder", () => {
    const r = spawnSync("node", ["hosts/device/check-manifest.mjs"], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});
