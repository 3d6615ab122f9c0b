// A scripted run through the file and skill tools on the device's real core:
// save, list, stat, paged read, search, sharing between people, hostile names,
// a pulled card (also mid-write), a reboot, a scan-quarantined download, an
// image from a scripted provider, skills. It returns a transcript; the Node and
// XS runs must match line for line. No Node imports.
import { tsCurve } from "../../lib/nostr/curve/ts-curve.ts";
import { TEST_HOST } from "../support/halo.ts";
import { tsKernels } from "../../lib/memory/store/kernel-ts.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { NO_BOARD, STILL_TIMERS } from "../support/portable-ports.ts";
import { bufferedAudioHttp } from "../../lib/voice/audio-http.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import type { HttpClient, HttpClientRequest, HttpClientResponse, Ports } from "../../lib/ports.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { zeroDigest } from "../support/digests.ts";

/** A 1x1 PNG as the images endpoint sends it. */
const PNG_B64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** The network as a table: an https file server and an OpenAI-compatible images endpoint. */
const scriptedHttp: HttpClient = {
  async request(req: HttpClientRequest): Promise<HttpClientResponse> {
    const text = (s: string, headers: { [k: string]: string } = {}): HttpClientResponse => ({
      status: 200,
      headers,
      body: new TextEncoder().encode(s),
    });
    if (req.url === "https://files.example/start") return { status: 302, headers: { location: "/notes.md" }, body: new Uint8Array(0) };
    if (req.url === "https://files.example/notes.md") return text("downloaded notes about otters\n", { "content-length": "30" });
    if (req.url === "https://api.openai.com/v1/images/generations" && req.method === "POST") {
      return text(JSON.stringify({ data: [{ b64_json: PNG_B64 }] }));
    }
    return { status: 404, headers: {}, body: new Uint8Array(0) };
  },
};

export async function runFilesScenario(): Promise<string[]> {
  const out: string[] = [];
  const now = Date.UTC(2026, 4, 1, 12);
  let armed = false;
  const storage = memoryStorage(64 * 1024 * 1024, { beforeRename: () => void (armed && storage.pull()) });
  const settings = memorySettings();
  settings.set("files.fetch.policy", "scan");
  settings.set("secret.openai", "sk-scenario");
  let seed = 1;
  const ports: Ports = {
    clock: { now: () => now },
    curve: tsCurve,
    random: {
      fill: (bytes) => {
        for (let i = 0; i < bytes.length; i++) {
          seed = (seed * 1103515245 + 12345) & 0x7fffffff;
          bytes[i] = seed & 0xff;
        }
      },
    },
    digest: zeroDigest(),
    log: { info: () => undefined, warn: () => undefined },
    settings,
    http: scriptedHttp,
    audioHttp: bufferedAudioHttp(scriptedHttp),
    timers: STILL_TIMERS,
    // files.example stands for a site on the internet: its name resolves to a public address.
    resolver: { resolve: () => Promise.resolve(["93.184.215.14"]) },
    storage,
    kernels: tsKernels,
    vectorArena: simVectorArena(),
    ...NO_BOARD,
  };
  let core: Core = buildCore(ports, TEST_HOST);
  const owner = makePrincipal("owner", "admin", "turn");
  const kim = makePrincipal("kim", "user", "mcp");
  const guest = makePrincipal("gus", "guest", "mcp");
  const call = async (tool: string, args: object, who = owner): Promise<string> => {
    const r = await core.registry.dispatch(tool, args, who);
    const line = `${who.ns} ${tool} ${JSON.stringify(args).slice(0, 120)} => ${r.isError ? "ERROR " : ""}${r.text}`;
    out.push(line);
    return r.text;
  };

  const long = Array.from({ length: 300 }, (_, i) => `Zeile ${i}: Grüße aus 日本 ✓`).join("\n");
  await call("artifact.save", { project: "trip", name: "Plan.md", text: "# Trip\nVisit the otters at the bay.\n" });
  await call("artifact.save", { project: "trip", name: "long.txt", text: long });
  await call("artifact.save", { project: "trip", name: "data.json", text: '{"days": 3}' });
  await call("artifact.save", { project: "trip", name: "bad.json", text: "{days" });
  await call("artifact.save", { project: "trip", name: "zero.txt", text: "a\u0000b" });
  await call("files.list", {});
  await call("files.stat", { project: "trip", name: "plan.md" });
  let offset = 0;
  for (let page = 0; page < 10; page++) {
    const text = await call("files.read", { project: "trip", name: "long.txt", offset });
    const more = /offset (\d+) \(/.exec(text);
    if (!more) break;
    offset = Number(more[1]);
  }
  await call("files.search", { query: "otters bay" });
  await call("artifact.save", { project: "kim", name: "diary.md", text: "Kim's private otters diary" }, kim);
  await call("files.read", { project: "kim", name: "diary.md" }, owner);
  await call("artifact.save", { project: "kim", name: "diary.md", text: "taken?" }, owner);
  await call("files.share", { project: "trip", name: "Plan.md" }, guest);
  await call("files.share", { project: "trip", name: "Plan.md" }, owner);
  await call("files.search", { query: "otters" }, kim);
  await call("files.share", { project: "trip", name: "Plan.md", share: false }, kim);
  for (const name of ["../x.md", "/abs.md", "a/b.md", "nul\u0000.md", "CON.md", "n".repeat(10_000)]) {
    await call("artifact.save", { project: "trip", name, text: "x" });
  }
  await call("artifact.save", { project: "../up", name: "x.md", text: "x" });

  storage.pull();
  await call("files.read", { project: "trip", name: "Plan.md" });
  await call("skill.list", {});
  storage.insert();
  armed = true;
  await call("artifact.save", { project: "trip", name: "Plan.md", text: "lost" });
  armed = false;
  storage.insert();
  await call("files.read", { project: "trip", name: "Plan.md" });

  core = buildCore(ports, TEST_HOST);
  out.push("reboot");
  await call("files.list", {}, kim);
  const started = await call("files.fetch", { url: "https://files.example/start", project: "web", name: "notes.md" }, kim);
  const id = /(f[0-9a-f]{8})/.exec(started)![1];
  await core.downloads.settled(id);
  const status = await call("files.fetch", { job: id }, kim);
  if (!/quarantined/.test(status)) return out;
  await call("files.read", { project: "web", name: "notes.md" }, kim);
  core.downloads.setVerdict(id, "safe");
  await call("files.read", { project: "web", name: "notes.md" }, kim);
  await call("files.fetch", { url: "http://files.example/notes.md", project: "web", name: "x.md" }, kim);
  await call("image.generate", { prompt: "an otter in a hat", name: "otter" }, owner);
  await call("files.search", { query: "otter hat" });
  await call("files.send", { project: "images", name: "otter.png" });

  await call("skill.save", { id: "otter-facts", md: "---\ntitle: Otter facts\napproved: true\n---\nOtters hold hands.\n" });
  await call("skill.list", {}, kim);
  await call("skill.get", { id: "otter-facts" }, kim);
  await call("skill.save", { id: "otter-facts", md: "hijack" }, kim);
  await call("skill.delete", { id: "hardware" });
  core.skills.approve("otter-facts");
  await call("skill.list", {}, guest);
  await call("skill.delete", { id: "otter-facts" });
  out.push(`card ${storage.list("").join(" ")} | files ${storage.list("files").join(" ")}`);
  return out;
}
