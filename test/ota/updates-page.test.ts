// The owner's updates page (/updates). No browser runs in this suite, so the
// page's own script runs in a Node VM context over a minimal element table and
// the real fetch, against a simulator with a release server: the page's
// calls, its rendering of the status and the approval it sends are checked.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { buildAppImage } from "../../hosts/sim/ports/ota-image.ts";
import { nodeSha256 } from "../../hosts/sim/ports/node-basics.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { startSimulator, type RunningSim } from "../../hosts/sim/start.ts";
import { digestWith, signedFeed, signingKey } from "../support/ota-fixtures.ts";
import { startReleaseServer, type ReleaseHttpServer } from "../support/release-http-server.ts";

interface FakeElement {
  value: string;
  textContent: string;
  hidden: boolean;
  onclick?: () => unknown;
}

describe("the updates page", function () {
  this.timeout(20_000);
  const key = signingKey(11);
  let releases: ReleaseHttpServer;
  let dir: string;
  let sim: RunningSim;
  let html: string;
  const elements = new Map<string, FakeElement>();
  const el = (id: string): FakeElement => {
    if (!elements.has(id)) elements.set(id, { value: "", textContent: "", hidden: false });
    return elements.get(id)!;
  };
  // Clicks a button and waits for the page's fetch to land.
  const click = async (id: string): Promise<void> => {
    el("status").textContent = "";
    await el(id).onclick?.();
    for (let i = 0; i < 100 && el("status").textContent === ""; i++) await new Promise((ok) => setTimeout(ok, 20));
  };

  before(async () => {
    releases = await startReleaseServer();
    const image = buildAppImage("0.5.0", 40_000);
    releases.files.set("/halo.bin", image);
    const feed = signedFeed({
      version: "0.5.0",
      notes: "<b>Bold</b> claims.",
      url: "halo.bin",
      image,
      key,
      sha256: digestWith(nodeSha256),
    });
    releases.files.set("/feed.json", new TextEncoder().encode(JSON.stringify(feed)));
    dir = mkdtempSync(join(tmpdir(), "halo-updates-page-"));
    sim = await startSimulator({
      dataDir: dir,
      host: "127.0.0.1",
      port: 0,
      portOverrides: { log: memoryLog() },
      ota: { trustedKeys: [key.publicHex] },
    });
    html = await (await fetch(`${sim.url}/updates`)).text();
    const script = /<script>([\s\S]*)<\/script>/.exec(html)![1];
    const base = sim.url;
    runInNewContext(script, {
      document: { getElementById: el },
      fetch: (path: string, init: RequestInit) => fetch(base + path, init),
      JSON,
    });
  });
  after(async () => {
    await sim.close();
    await releases.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is served at /updates with every control its script uses", () => {
    for (const id of ["token", "refresh", "check", "status", "offer", "offer-title", "notes", "install", "feed", "save-feed"])
      assert.match(html, new RegExp(`id="${id}"`));
  });

  it("shows the refusal of a wrong token", async () => {
    el("token").value = "wrong";
    await click("refresh");
    assert.match(el("status").textContent, /token|Unauthorized|not valid/i);
  });

  it("sets the feed, checks, shows the notes as text, and installs the offered version", async () => {
    el("token").value = readFileSync(sim.tokenPath, "utf8").trim();
    el("feed").value = `${releases.url}/feed.json`;
    await click("save-feed");
    assert.match(el("status").textContent, /^State: idle\. Running 0\.1\.0-sim \(ota_0\)\./);
    await click("check");
    assert.match(el("status").textContent, /^State: available\./);
    assert.equal(el("offer").hidden, false);
    assert.equal(el("offer-title").textContent, "Version 0.5.0");
    assert.equal(el("notes").textContent, "<b>Bold</b> claims.");
    await click("install");
    assert.match(el("status").textContent, /^State: restarting\./);
    assert.equal(el("offer").hidden, true);
    assert.equal(sim.halo.core.updates?.status().state, "restarting");
  });
});
