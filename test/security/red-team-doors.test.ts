// The other red-team items of the rails issue, each against the running simulator: unknown fields refused on
// every body-less action route (approve, reject, check...), framing refused and Host and Origin checked on every
// page (found from the route table, the simulator's /flash/ included), the Host check on
// canonical loopback forms only, the owner's Nostr key checked on the curve, ring streams capped per client
// with one kept for the owner, and spoken replies kept per client.
import assert from "node:assert/strict";
import { request } from "node:http";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { BODIES } from "../../lib/http/bodies.ts";
import { encodeWav } from "../../lib/voice/wav.ts";
import { ownerApi } from "../support/owner-api.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";
import { replyPcm, say, scene } from "../support/speech.ts";
import { VoiceServer } from "../support/voice-server.ts";
import { answer, openAiAnswer } from "../turn/support.ts";

/** GET with a Host header of our choosing (fetch will not send one), and an Origin when given. */
function getWithHost(sim: TestSim, path: string, host: string, origin?: string): Promise<number> {
  const { port } = new URL(sim.url);
  const headers: { [name: string]: string } = { host, authorization: `Bearer ${sim.token}` };
  if (origin !== undefined) headers.origin = origin;
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: Number(port), path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("red-team doors (simulator)", function () {
  this.timeout(120_000);
  let sim: TestSim;
  let stand: VoiceServer;
  let cases = 0;
  const client = async (name: string, role: string): Promise<string> => {
    const r = await ownerApi(sim, "POST", "/api/clients", { name, role, ns: name });
    assert.equal(r.status, 201);
    return r.json.token as string;
  };

  before(async () => {
    stand = await VoiceServer.start();
    sim = await startTestSim({
      baseUrls: { openai: stand.url },
      initialSecrets: { openai: "sk-doors-KEY" },
      portOverrides: { log: memoryLog() },
    });
  });
  after(async () => {
    await sim.stop();
    await stand.close();
    console.log(`      red-team doors: ${cases} hostile cases`);
  });

  it("refuses an unknown field on every route whose body carries nothing (approve, reject, check...)", async () => {
    const routes = sim.halo.http.routes().filter((r) => r.body === BODIES.nothing);
    assert.ok(routes.length >= 6, routes.map((r) => r.pattern).join(" "));
    for (const r of routes) {
      const path = r.pattern.replace(":id", "0123456789abcdef");
      for (const body of [{ approve: true }, { force: 1 }, { __proto__x: "y" }]) {
        const res = await ownerApi(sim, r.method, path, body);
        cases++;
        assert.equal(res.status, 400, `${r.method} ${path} ${JSON.stringify(body)}: ${res.text}`);
        assert.match(res.text, /no body fields|not allowed|unknown/i);
      }
    }
  });

  it("refuses framing on every page, found from the route table (/flash/ included), and checks Host and Origin there", async () => {
    // Every GET route, the host's own (/flash/...) too, with its parameters filled; the ones answering HTML are pages.
    const paths = new Set<string>(["/flash/"]);
    for (const r of sim.halo.http.routes())
      if (r.method === "GET") paths.add(r.pattern.replace(":file", "index.html").replace(/:[a-z]+/g, "0123456789abcdef"));
    const pages: string[] = [];
    for (const path of paths) {
      const res = await fetch(`${sim.url}${path}`, { headers: { authorization: `Bearer ${sim.token}` } });
      // An event stream never ends: only a page's body is read.
      if (!/text\/html/.test(res.headers.get("content-type") ?? "")) {
        await res.body?.cancel();
        continue;
      }
      await res.arrayBuffer();
      pages.push(path);
      cases++;
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get("x-frame-options"), "DENY", path);
      assert.match(res.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/, path);
    }
    for (const page of ["/", "/updates", "/status", "/flash", "/flash/", "/flash/index.html"])
      assert.ok(pages.includes(page), `${page} is served as a page (found: ${pages.join(" ")})`);
    // The Host and Origin check on every GET door, pages and the flashing page's scripts and release files alike.
    const { port } = new URL(sim.url);
    for (const path of [...paths, "/flash/esp-web-tools/install-button.js", "/flash/manifest.json"]) {
      cases += 3;
      assert.equal(await getWithHost(sim, path, "evil.example"), 403, `${path}: a foreign Host`);
      assert.equal(await getWithHost(sim, path, `rebind.example:${port}`), 403, `${path}: a rebinding name`);
      assert.equal(await getWithHost(sim, path, "127.0.0.1", "https://evil.example"), 403, `${path}: a foreign Origin`);
    }
    for (const page of pages) assert.equal(await getWithHost(sim, page, `127.0.0.1:${port}`, `http://127.0.0.1:${port}`), 200, page);
  });

  it("answers to loopback only in its canonical form (127.999.999.999 and friends refused)", async () => {
    assert.notEqual(await getWithHost(sim, "/api/status", "127.0.0.1"), 403);
    assert.notEqual(await getWithHost(sim, "/api/status", "127.0.0.2:8080"), 403);
    for (const host of [
      "127.999.999.999",
      "127.0.0.01",
      "127.000.000.001",
      "127.1",
      "0x7f.0.0.1",
      "2130706433",
      "127.0.0.1.evil.example",
    ]) {
      cases++;
      assert.equal(await getWithHost(sim, "/api/status", host), 403, host);
    }
  });

  it("refuses an owner Nostr key that is not a point on the curve", async () => {
    // x = 5 has no y on secp256k1 (5^3 + 7 = 132 is not a square mod p); x = 1 has one.
    const offCurve = "0000000000000000000000000000000000000000000000000000000000000005";
    const r = await ownerApi(sim, "PUT", "/api/nostr/owner", { pubkey: offCurve });
    cases++;
    assert.equal(r.status, 400, r.text);
    assert.match(r.text, /not a point on secp256k1/);
    assert.doesNotMatch(r.text, /0{20}/, "the refusal does not echo the key");
    const zero = await ownerApi(sim, "PUT", "/api/nostr/owner", { pubkey: "0".repeat(64) });
    cases++;
    assert.equal(zero.status, 400);
    const onCurve = await ownerApi(sim, "PUT", "/api/nostr/owner", { pubkey: `${"0".repeat(63)}1` });
    assert.equal(onCurve.status, 200, onCurve.text);
  });

  it("a guest's four ring streams do not block the owner's", async () => {
    const guest = await client("lurker", "guest");
    const aborts: AbortController[] = [];
    const open = async (token: string): Promise<string> => {
      const stop = new AbortController();
      aborts.push(stop);
      const res = await fetch(`${sim.url}/api/ring/events`, { headers: { authorization: `Bearer ${token}` }, signal: stop.signal });
      const reader = res.body!.getReader();
      const { value } = await reader.read();
      return new TextDecoder().decode(value);
    };
    try {
      const guests = [];
      for (let i = 0; i < 4; i++) guests.push(await open(guest));
      cases += 4;
      assert.equal(guests.filter((t) => t.includes("event: busy")).length, 2, `a client holds at most two: ${JSON.stringify(guests)}`);
      const owner = await open(sim.token);
      assert.ok(!owner.includes("event: busy"), owner);
    } finally {
      for (const a of aborts) a.abort();
    }
  });

  it("keeps spoken replies per client: two members' nine replies do not evict the owner's", async () => {
    const wav = encodeWav({ sampleRate: 16000, samples: scene(say("hello"), 300, 900, 150).samples });
    const speak = async (token: string): Promise<string> => {
      stand.transcripts.push("hello");
      stand.llm.reply(openAiAnswer(answer({ reply: "Hi." })));
      stand.speech.push({ pcm: replyPcm(200) });
      const res = await fetch(`${sim.url}/api/voice`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
        body: wav,
      });
      const json = (await res.json()) as { audio?: string };
      assert.equal(res.status, 200, JSON.stringify(json));
      return json.audio!;
    };
    const ownerReply = await speak(sim.token);
    const kitchen = await client("kitchen-2", "user");
    const hall = await client("hall", "user");
    for (let i = 0; i < 5; i++) await speak(kitchen);
    for (let i = 0; i < 4; i++) await speak(hall);
    cases++;
    const back = await fetch(`${sim.url}${ownerReply}`, { headers: { authorization: `Bearer ${sim.token}` } });
    assert.equal(back.status, 200, "the owner's reply is still there");
    const other = await fetch(`${sim.url}${ownerReply}`, { headers: { authorization: `Bearer ${kitchen}` } });
    assert.equal(other.status, 404, "and only for the owner");
  });
});
