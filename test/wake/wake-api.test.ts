// Teaching the wake phrase through the owner API over a real socket, with examples spoken by espeak-ng:
// three uploads teach it, bad uploads are refused with a sentence and change nothing, the settings survive
// a restart, device.status says whether a phrase is set (never the audio), and only admins get in.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { encodeWav } from "../../lib/voice/wav.ts";
import { ownerApi } from "../support/owner-api.ts";
import { postMcp, startTestSim, type TestSim } from "../support/sim.ts";
import { ensureEspeak } from "../support/speech.ts";
import { wakeExamples } from "../support/wake-set.ts";

const WAV = { "content-type": "audio/wav" };

function wav(samples: Int16Array, sampleRate = 16000): Uint8Array {
  return encodeWav({ sampleRate, samples });
}

/** 16 kHz samples at `rate` by linear interpolation: an upload from a microphone at another rate. */
function atRate(samples: Int16Array, rate: number): Int16Array {
  const out = new Int16Array(Math.floor((samples.length * rate) / 16000));
  for (let i = 0; i < out.length; i++) out[i] = samples[Math.min(samples.length - 1, Math.floor((i * 16000) / rate))];
  return out;
}

async function deviceStatus(sim: TestSim, token = sim.token): Promise<string> {
  const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "device.status", arguments: {} } });
  return (await postMcp(sim, call, { authorization: `Bearer ${token}` })).json.result.content[0].text;
}

describe("simulator: the owner teaches a wake phrase over the owner API", () => {
  let sim: TestSim;
  let takes: Int16Array[];
  let other: Int16Array[];
  let dataDir: string;
  before(async () => {
    ensureEspeak();
    takes = wakeExamples("hey halo");
    other = wakeExamples("okay nova");
    dataDir = mkdtempSync(join(tmpdir(), "halo-wake-"));
    sim = await startTestSim({ dataDir, portOverrides: { log: memoryLog() } });
  });
  after(async () => {
    await sim.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (body: Uint8Array | string, headers: Record<string, string> = WAV) =>
    ownerApi(sim, "POST", "/api/wake/examples", body, headers);
  const state = async () => (await ownerApi(sim, "GET", "/api/wake")).json;

  it("has no phrase at first, and device.status says so", async () => {
    assert.deepEqual(await state(), { set: false, enabled: false, sensitivity: 0.5, pending: 0, needed: 3 });
    assert.match(await deviceStatus(sim), /^Wake phrase: not set \(the owner teaches one with 3 examples\)$/m);
    const put = await ownerApi(sim, "PUT", "/api/wake", { enabled: true });
    assert.equal(put.status, 409);
    assert.match(put.json.error, /record three examples first/);
  });

  it("refuses bad uploads with a sentence, keeps nothing, and keeps serving /mcp", async () => {
    const square = new Int16Array(16000);
    for (let i = 0; i < square.length; i++) square[i] = (i >> 4) & 1 ? 32767 : -32768;
    const cases: Array<{ name: string; body: Uint8Array | string; headers?: Record<string, string>; status: number; error: RegExp }> = [
      { name: "silence", body: wav(new Int16Array(16000)), status: 400, error: /silent/ },
      { name: "a full-scale square wave", body: wav(square), status: 400, error: /clips/ },
      { name: "a tenth of a second", body: wav(takes[0].subarray(4800, 6400)), status: 400, error: /too short|silent|steady/ },
      { name: "five seconds", body: wav(new Int16Array(80000).fill(900)), status: 400, error: /too long/ },
      { name: "not a WAV", body: "hello", status: 400, error: /not a usable WAV file/ },
      { name: "a header alone", body: wav(new Int16Array(0)), status: 400, error: /no samples/ },
      { name: "JSON", body: "{}", headers: { "content-type": "application/json" }, status: 415, error: /audio\/wav/ },
      { name: "over the size cap", body: new Uint8Array(1024 * 1024), status: 413, error: /./ },
    ];
    for (const c of cases) {
      const r = await post(c.body, c.headers);
      assert.equal(r.status, c.status, `${c.name}: ${r.text}`);
      assert.match(r.json?.error ?? r.text, c.error, c.name);
    }
    assert.equal((await state()).pending, 0);
    assert.equal((await postMcp(sim, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }))).status, 200);
  });

  it("refuses other clients and bad settings bodies", async () => {
    const user = (await ownerApi(sim, "POST", "/api/clients", { name: "phone", role: "user", ns: "alice" })).json.token as string;
    for (const [method, path, body] of [
      ["GET", "/api/wake", undefined],
      ["PUT", "/api/wake", { enabled: true }],
      ["DELETE", "/api/wake", undefined],
      ["POST", "/api/wake/examples", wav(takes[0])],
    ] as const) {
      const r = await ownerApi(sim, method, path, body, { authorization: `Bearer ${user}`, ...(method === "POST" ? WAV : {}) });
      assert.equal(r.status, 403, `${method} ${path}`);
    }
    assert.equal((await ownerApi(sim, "GET", "/api/wake", undefined, { authorization: undefined })).status, 401);
    assert.equal((await ownerApi(sim, "PUT", "/api/wake", { enabled: true, extra: 1 })).status, 400);
    assert.equal((await ownerApi(sim, "PUT", "/api/wake", { sensitivity: 1.5 })).status, 400);
    assert.equal((await ownerApi(sim, "PUT", "/api/wake", { sensitivity: "high" })).status, 400);
    assert.match(await deviceStatus(sim, user), /^Wake phrase: not set/m);
  });

  it("drops the examples when the third is another phrase, then teaches three takes (one at 44.1 kHz)", async () => {
    assert.equal((await post(wav(takes[0]))).json.pending, 1);
    assert.equal((await post(wav(takes[1]))).json.pending, 2);
    const unlike = await post(wav(other[2]));
    assert.equal(unlike.status, 400);
    assert.match(unlike.json.error, /too unlike each other/);
    assert.equal((await state()).pending, 0);

    const first = await post(wav(takes[0]));
    assert.equal(first.status, 201);
    assert.deepEqual(first.json, { set: false, enabled: false, sensitivity: 0.5, pending: 1, needed: 3 });
    assert.equal((await post(wav(atRate(takes[1], 44100), 44100))).json.pending, 2);
    const third = await post(wav(takes[2]));
    assert.deepEqual(third.json, { set: true, enabled: true, sensitivity: 0.5, pending: 0, needed: 3 });
    assert.match(await deviceStatus(sim), /^Wake phrase: set, on, sensitivity 0.5$/m);
  });

  it("the taught detector hears the phrase in the room and not the other phrase", async () => {
    const detector = sim.halo.core.wake!.detector()!;
    const hears = (samples: Int16Array): boolean => {
      detector.reset();
      let heard = false;
      for (let at = 0; at < samples.length; at += 320) heard = detector.push(samples.subarray(at, at + 320)) !== null || heard;
      return heard;
    };
    assert.equal(hears(takes[1]), true);
    assert.equal(hears(other[0]), false);
  });

  it("turns off and changes sensitivity, and both survive a restart; DELETE forgets the phrase", async () => {
    const put = await ownerApi(sim, "PUT", "/api/wake", { enabled: false, sensitivity: 0.7 });
    assert.deepEqual(put.json, { set: true, enabled: false, sensitivity: 0.7, pending: 0, needed: 3 });
    assert.equal(sim.halo.core.wake!.detector(), undefined);
    await sim.stop();
    sim = await startTestSim({ dataDir, portOverrides: { log: memoryLog() } });
    assert.deepEqual(await state(), { set: true, enabled: false, sensitivity: 0.7, pending: 0, needed: 3 });
    assert.match(await deviceStatus(sim), /^Wake phrase: set, off, sensitivity 0.7$/m);
    assert.ok(
      readdirSync(`${dataDir}/flash`).some((f) => f.startsWith("wake.")),
      "the phrase is in the device's settings",
    );

    assert.deepEqual((await ownerApi(sim, "DELETE", "/api/wake")).json, {
      set: false,
      enabled: false,
      sensitivity: 0.5,
      pending: 0,
      needed: 3,
    });
    await sim.stop();
    sim = await startTestSim({ dataDir, portOverrides: { log: memoryLog() } });
    assert.equal((await state()).set, false);
    assert.deepEqual(
      readdirSync(`${dataDir}/flash`).filter((f) => f.startsWith("wake.")),
      [],
    );
  });
});
