#!/usr/bin/env node
// `npm run chat`: talk to a running Halo (the simulator or a device) from a terminal.
//
//   npm run chat                  interactive: type a line, read the reply; /quit or Ctrl-D ends
//   npm run chat -- "hello"       one turn, then exit
//
// The token comes from $HALO_TOKEN, else $HALO_DATA/admin-token (default ./.halo-data/admin-token,
// where the simulator writes the owner's token); the device from $HALO_URL, else $HALO_HOST and $HALO_PORT
// as the simulator reads them (default http://127.0.0.1:8787).
// Exits 1 when the device cannot be reached or refuses the request (a bad token: HTTP 401), 2 without a token.
// Each line is one POST /api/chat {"text": ...}; the turn's reply is printed, then one short line for
// each thing the turn did (tool calls, memory written, device actions, sub-agents, problems).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";

/** Where the device is: $HALO_URL, else the simulator's own $HALO_HOST and $HALO_PORT. */
export function deviceUrl(env) {
  if (env.HALO_URL) return env.HALO_URL.replace(/\/+$/, "");
  const host = env.HALO_HOST || "127.0.0.1";
  return `http://${host.includes(":") ? `[${host}]` : host}:${env.HALO_PORT || 8787}`;
}

const url = deviceUrl(process.env);

function readToken() {
  if (process.env.HALO_TOKEN) return process.env.HALO_TOKEN.trim();
  const path = join(resolve(process.env.HALO_DATA || "./.halo-data"), "admin-token");
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    console.error(`chat: no token: set HALO_TOKEN, or HALO_DATA to the folder holding admin-token (tried ${path}).`);
    process.exit(2);
  }
}

/** The lines printed for one turn's result. */
export function describe(result) {
  const lines = [`halo> ${result.reply}`];
  if (result.ask) lines.push(`  (asks) ${result.ask}`);
  for (const c of result.toolCalls ?? [])
    lines.push(`  · tool ${c.name}${c.ok ? "" : " (error)"}${c.truncated ? ` (cut; results.get ${c.tag})` : ""}`);
  for (const m of result.memoryWritten ?? []) lines.push(`  · memory: ${m.text}`);
  for (const d of result.device ?? []) lines.push(`  · device[${d.index}]: ${d.text}`);
  for (const s of result.sessionOps ?? []) lines.push(`  · ${s.op}: ${s.text}`);
  if (result.scratchpad) lines.push(`  · ${result.scratchpad.text}`);
  for (const p of result.problems ?? []) lines.push(`  · answer problem: ${p}`);
  for (const n of result.notes ?? []) lines.push(`  · note: ${n}`);
  return lines;
}

async function send(token, text) {
  let res;
  try {
    res = await fetch(`${url}/api/chat`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ text }),
    });
  } catch (error) {
    return {
      failed: true,
      lines: [`chat: cannot reach ${url} (${error.cause?.code || error.message}); is the simulator running (npm start)?`],
    };
  }
  const body = await res.json().catch(() => ({}));
  if (!res.ok) return { failed: true, lines: [`chat: HTTP ${res.status}: ${body.error || "no details"}`] };
  return { failed: false, lines: describe(body) };
}

async function main() {
  const token = readToken();
  const oneShot = process.argv.slice(2).join(" ").trim();
  if (oneShot) {
    const { failed, lines } = await send(token, oneShot);
    for (const line of lines) (failed ? console.error : console.log)(line);
    if (failed) process.exitCode = 1;
    return;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  const ask = () => process.stdin.isTTY && rl.prompt();
  rl.setPrompt("you> ");
  console.log(`Talking to ${url}. /quit to leave.`);
  ask();
  // One turn at a time: lines typed while a turn runs wait their turn.
  let queue = Promise.resolve();
  rl.on("line", (line) => {
    const text = line.trim();
    if (text === "/quit") return rl.close();
    if (!text) return ask();
    queue = queue.then(async () => {
      const { failed, lines } = await send(token, text);
      for (const out of lines) (failed ? console.error : console.log)(out);
      // Unreachable or refused: later lines would fail the same way, so the session ends with an error.
      if (failed) {
        process.exitCode = 1;
        return rl.close();
      }
      ask();
    });
  });
  await new Promise((done) => rl.on("close", done));
  await queue;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  await main();
}
