// The device's preload list (hosts/device/preload.json) holds every lib/ and hosts/device/ module (tools/gen/preload.ts
// refuses one that reaches an npm module that cannot be preloaded). The XS linker runs
// each preloaded module's body, and the npm modules they import, at build time, where no native
// function exists: a module that makes a TextEncoder (or reaches crypto) as it loads cannot be
// preloaded. This loads every npm module lib/ imports and every preloaded lib/ module in a Node
// process with those natives removed; each must load.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { deviceModules, runTimeModules } from "../../tools/gen/preload.ts";
import { libModules } from "../support/lib-sources.ts";

function load(specifiers: string[]): string[] {
  const r = spawnSync(process.execPath, ["--import", "tsx", "test/architecture/fixtures/load-without-natives.ts", ...specifiers], {
    encoding: "utf8",
    timeout: 120_000,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split("\n");
}

describe("preloadable modules load without the host's natives", () => {
  it("fails for a module that makes a TextEncoder as it loads (the check can fail)", () => {
    assert.match(load(["nostr-tools/nip19"])[0], /^FAIL nostr-tools\/nip19: /);
  });

  it("loads every npm module lib/ imports", () => {
    const npm = JSON.parse(readFileSync("hosts/device/npm-modules.json", "utf8")) as {
      modules: Record<string, string>;
      loadedAtRunTime: string[];
    };
    const files = Object.entries(npm.modules)
      .filter(([name]) => !npm.loadedAtRunTime.includes(name))
      .map(([, path]) => pathToFileURL(resolve("hosts/device", `${path}.js`)).href);
    assert.ok(files.length > 5, "the device maps the npm modules lib/ imports");
    const lines = load(files);
    assert.equal(lines.length, files.length);
    assert.deepEqual(
      lines.filter((l) => !l.startsWith("ok ")),
      [],
    );
  });

  it("loads every lib/ module on the device's preload list, which is all of lib/ but lib/wallet/cashu/ (loaded at run time)", () => {
    const preload = (JSON.parse(readFileSync("hosts/device/preload.json", "utf8")) as { preload: string[] }).preload.filter((m) =>
      m.startsWith("lib/"),
    );
    const runTime = runTimeModules();
    assert.ok(runTime.length > 0 && runTime.every((m) => m.startsWith("lib/wallet/cashu/")), runTime.join(", "));
    assert.deepEqual(
      [...preload].sort(),
      libModules()
        .map((f) => f.replace(/\.(ts|js)$/, ""))
        .filter((m) => !runTime.includes(m))
        .sort(),
    );
    const lines = load(preload.map((m) => pathToFileURL(resolve(`${m}${m.startsWith("lib/generated/validators") ? ".js" : ".ts"}`)).href));
    assert.equal(lines.length, preload.length);
    assert.deepEqual(
      lines.filter((l) => !l.startsWith("ok ")),
      [],
    );
  });

  it("preloads every hosts/device/ module, main.ts among them", () => {
    const preload = (JSON.parse(readFileSync("hosts/device/preload.json", "utf8")) as { preload: string[] }).preload;
    const device = preload.filter((m) => !m.startsWith("lib/"));
    assert.ok(device.includes("hosts/device/main") && device.includes("hosts/device/ports/settings"), device.join(", "));
    assert.deepEqual(device, deviceModules());
  });

  it("refuses a hosts/device/ module that reaches cashu-ts, not one that imports only its types (wallet-kit.ts)", () => {
    const lib = libModules().map((f) => f.replace(/\.(ts|js)$/, ""));
    const dir = mkdtempSync(join(tmpdir(), "halo-device-"));
    try {
      writeFileSync(join(dir, "typed.ts"), 'import type { Wallet } from "@cashu/cashu-ts";\nexport type W = Wallet;\n');
      assert.deepEqual(runTimeModules([...lib, ...deviceModules(dir)]), runTimeModules());
      writeFileSync(join(dir, "door.ts"), 'import { Wallet } from "@cashu/cashu-ts";\nexport const w = Wallet;\n');
      assert.throws(
        () => runTimeModules([...lib, ...deviceModules(dir)]),
        /reach @cashu\/cashu-ts from outside lib\/wallet\/cashu\/.*door$/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // The device's own door is preloaded, and what it opens is not.
    const preload = (JSON.parse(readFileSync("hosts/device/preload.json", "utf8")) as { preload: string[] }).preload;
    assert.ok(preload.includes("hosts/device/wallet-kit") && !preload.some((m) => m.startsWith("lib/wallet/cashu/")));
  });

  it("refuses a hosts/device/ module that imports preference statically, not one that imports its type", () => {
    const dir = mkdtempSync(join(tmpdir(), "halo-device-"));
    try {
      writeFileSync(join(dir, "typed.ts"), 'import type Preference from "preference";\nexport type P = typeof Preference;\n');
      assert.deepEqual(deviceModules(dir), [join(dir, "typed")]);
      writeFileSync(join(dir, "settings.ts"), 'import Preference from "preference";\nexport const p = Preference;\n');
      assert.throws(() => deviceModules(dir), /modules import preference, which cannot be preloaded on every target: .*settings$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
