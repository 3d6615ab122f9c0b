// Issue 27's flood on the SDK's Linux target: boots halo-lin on a fresh data folder, points it at a loopback
// relay (@nostr-relay/core, the Nostr tests' relay, test/support/nostr-relay.ts), sends it 2,000 events in a
// minute (kind-4 DMs to the device from eight strangers' keys, signed beforehand) and asks /mcp for
// `tools/list` four times a second all the while:
//   node hosts/lin/check-flood.mjs <mc.so>            (any release build: hosts/lin/build.sh)
// Prints `lin-flood-*` lines: the slowest and the median tools/list, the calls, the median of ten calls before
// the flood (what the machine gives without it), and device.status's Nostr
// verification line (checked, refused, dropped, relay backoffs) once the queue has drained. Exits 1 when a
// tools/list takes 500 ms or more or fails, or the app stops.
import { finalizeEvent, generateSecretKey } from "nostr-tools/pure";
import { tsImport } from "tsx/esm/api";
import { runHaloLin } from "./run-halo-lin.mjs";

const EVENTS = 2000;
const FLOOD_MS = 60_000;
const LIST_EVERY_MS = 250;
const AIM_MS = 500;
const BASE = "http://127.0.0.1:8080";

const so = process.argv[2];
if (!so) {
  console.error("usage: node hosts/lin/check-flood.mjs <mc.so>");
  process.exit(64);
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** fetch, once more when the socket it reused was closed by the server meanwhile (undici's "other side closed"). */
async function send(url, init) {
  try {
    return await fetch(url, init);
  } catch {
    return await fetch(url, init);
  }
}

async function ownerApi(token, method, path, body) {
  const res = await send(new URL(path, BASE), {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json().catch(() => undefined) };
}

let rpcId = 0;
/** One JSON-RPC request to /mcp; the parsed answer (JSON or one server-sent event) and the time it took. */
async function mcp(token, method, params) {
  const started = performance.now();
  const res = await send(new URL("/mcp", BASE), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params }),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  const json = text.startsWith("{") ? JSON.parse(text) : JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? "null");
  return { status: res.status, json, ms };
}

async function nostrStatusLine(token) {
  const r = await mcp(token, "tools/call", { name: "device.status", arguments: {} });
  const text = r.json?.result?.content?.[0]?.text ?? "";
  return /^Nostr verification: .*$/m.exec(text)?.[0];
}

async function flood(token, finish) {
  const { startTestRelay } = await tsImport("../../test/support/nostr-relay.ts", import.meta.url);
  const relay = await startTestRelay();
  try {
    const set = await ownerApi(token, "PUT", "/api/nostr/relays", { relays: [relay.url] });
    if (set.status !== 200) throw new Error(`PUT /api/nostr/relays answered ${set.status}`);
    const device = (await ownerApi(token, "GET", "/api/nostr")).json?.pubkey;
    if (typeof device !== "string") throw new Error("GET /api/nostr gave no device pubkey");
    for (let i = 0; i < 100 && relay.connections() === 0; i++) await sleep(100);
    if (relay.connections() === 0) throw new Error("halo-lin did not connect to the relay");
    // signed before the clock starts: signing blocks this process
    const strangers = Array.from({ length: 8 }, () => generateSecretKey());
    const now = Math.floor(Date.now() / 1000);
    const frames = Array.from({ length: EVENTS }, (_, i) =>
      JSON.stringify([
        "EVENT",
        "dm-inbox",
        finalizeEvent({ kind: 4, content: `flood ${i}`, tags: [["p", device]], created_at: now }, strangers[i % 8]),
      ]),
    );
    // tools/list with no flood first: what the machine gives an answer at all
    const idle = [];
    for (let i = 0; i < 10; i++) {
      idle.push((await mcp(token, "tools/list", {})).ms);
      await sleep(LIST_EVERY_MS);
    }
    idle.sort((a, b) => a - b);
    const latencies = [];
    let failures = 0;
    let sent = 0;
    const started = performance.now();
    const sender = (async () => {
      while (sent < EVENTS) {
        const due = Math.min(EVENTS, Math.floor(((performance.now() - started) / FLOOD_MS) * EVENTS) + 1);
        while (sent < due) relay.broadcastRaw(frames[sent++]);
        await sleep(10);
      }
    })();
    while (sent < EVENTS) {
      const r = await mcp(token, "tools/list", {});
      latencies.push(r.ms);
      if (r.status !== 200 || !(r.json?.result?.tools?.length > 10)) failures++;
      await sleep(LIST_EVERY_MS);
    }
    await sender;
    const floodSeconds = (performance.now() - started) / 1000;
    // the queue drains at its budget a second: wait for it, then read the counts
    let line;
    for (let i = 0; i < 120; i++) {
      line = await nostrStatusLine(token);
      if (line && /events waiting for a signature check 0 /.test(line)) break;
      await sleep(500);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const slowest = sorted[sorted.length - 1];
    console.log(`lin-flood-events-sent: ${sent} in ${floodSeconds.toFixed(1)} s`);
    console.log(`lin-flood-tools-list-calls: ${latencies.length} (${failures} failed)`);
    console.log(`lin-flood-tools-list-slowest-ms: ${slowest.toFixed(0)}`);
    console.log(`lin-flood-tools-list-median-ms: ${sorted[Math.floor(sorted.length / 2)].toFixed(0)}`);
    console.log(`lin-flood-tools-list-idle-median-ms: ${idle[5].toFixed(0)} (slowest ${idle[9].toFixed(0)}, ten calls before the flood)`);
    console.log(`lin-flood-device-status: ${line ?? "(no Nostr verification line)"}`);
    const ok = failures === 0 && slowest < AIM_MS;
    if (!ok) console.error(`check-flood: tools/list took up to ${slowest.toFixed(0)} ms (aim under ${AIM_MS}), ${failures} failed`);
    await relay.close();
    finish(ok ? 0 : 1);
  } catch (e) {
    const cause = e instanceof Error && e.cause instanceof Error ? ` (${e.cause.message})` : "";
    console.error(`check-flood: ${e instanceof Error ? e.message : String(e)}${cause}`);
    await relay.close();
    finish(1);
  }
}

let token;
runHaloLin({
  so,
  name: "check-flood",
  timeoutMs: 300_000,
  timeoutMessage: "the flood did not finish within 5 minutes",
  exitMessage: "during the flood",
  onLine(line, finish) {
    const shown = /owner token \(shown once\): (halo_\S+)/.exec(line);
    if (shown) token = shown[1];
    else if (line.includes("serving http")) {
      if (!token) {
        console.error("check-flood: no owner token printed (a fresh data folder should print one)");
        finish(1);
        return;
      }
      void flood(token, finish);
    }
  },
});
