// Calls a running halo-lin (or a device) with the official MCP TypeScript
// client and prints what each step returned. Usage:
//   node hosts/lin/check-mcp.mjs <owner token> [base URL, default http://127.0.0.1:8080] [--openai-standin]
// Exits 1 when a step fails. Steps: initialize, every page of tools/list,
// docs.search, memory.write + memory.search, artifact.save + files.read + files.search,
// nostr.encrypt + nostr.decrypt, nostr.post + nostr.query through a loopback relay, device.status, system.health, ota.status, then POST /api/chat with no
// provider key (expects the "add a key" answer). With --openai-standin (for a
// build made with openaiBaseUrl=http://127.0.0.1:8099/v1) it then serves the
// OpenAI Responses API on 127.0.0.1:8099, sets a test key, runs one /api/chat
// turn that calls docs.search and answers, and clears the key again.
import { createServer } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { tsImport } from "tsx/esm/api";

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const withStandin = process.argv.includes("--openai-standin");
const token = args[0];
const base = args[1] ?? "http://127.0.0.1:8080";
const STANDIN_PORT = 8099;
if (!token) {
  console.error("usage: node hosts/lin/check-mcp.mjs <owner token> [base URL]");
  process.exit(64);
}
const auth = { authorization: `Bearer ${token}` };
let failures = 0;

function show(step, ok, detail) {
  if (!ok) failures++;
  console.log(`${ok ? "ok  " : "FAIL"} ${step}: ${detail}`);
}

function textOf(result) {
  return (result.content ?? []).map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
}

async function call(client, name, args, expect) {
  try {
    const result = await client.callTool({ name, arguments: args });
    const text = textOf(result);
    const ok = !result.isError && (expect === undefined || expect.test(text));
    show(name, ok, text.length > 400 ? text.slice(0, 400) + " ..." : text);
    return text;
  } catch (e) {
    show(name, false, e.message);
    return "";
  }
}

/** nostr.post to a loopback relay, then nostr.query for the note (signed, then verified on the device). */
async function nostrThroughRelay(client) {
  const { startTestRelay } = await tsImport("../../test/support/nostr-relay.ts", import.meta.url);
  const relay = await startTestRelay();
  try {
    const put = await fetch(new URL("/api/nostr/relays", base), {
      method: "PUT",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ relays: [relay.url] }),
    });
    show("PUT /api/nostr/relays", put.status === 200, `${put.status}`);
    for (let i = 0; i < 50 && relay.connections() === 0; i++) await new Promise((ok) => setTimeout(ok, 100));
    const posted = await call(client, "nostr.post", { content: "signed on lin" }, /: ok/);
    const id = /^event ([0-9a-f]{64})/.exec(posted)?.[1] ?? "none";
    show("relay holds the note", relay.repository.events.has(id), id);
    await call(client, "nostr.query", { filter: { ids: [id] }, timeout_ms: 3000 }, new RegExp(`${id}.*signed on lin`));
  } finally {
    await relay.close();
  }
}

const client = new Client({ name: "halo-lin-check", version: "1.0.0" });
const transport = new StreamableHTTPClientTransport(new URL("/mcp", base), { requestInit: { headers: auth } });
await client.connect(transport);
const server = client.getServerVersion();
show("initialize", server !== undefined, `${server?.name} ${server?.version}, protocol ${transport.protocolVersion ?? "(default)"}`);

const names = [];
let cursor;
let pages = 0;
do {
  const page = await client.listTools(cursor ? { cursor } : {});
  pages++;
  for (const t of page.tools) names.push(t.name);
  cursor = page.nextCursor;
} while (cursor && pages < 50);
show("tools/list", names.length > 0 && new Set(names).size === names.length, `${names.length} tools in ${pages} page(s)`);

await call(client, "docs.search", { query: "memory" }, /#/);
const fact = `The lin check ran at ${new Date().toISOString()}: the kettle is blue.`;
await call(client, "memory.write", { content: fact, importance: 0.7 });
// Without a provider key memory uses the offline hashing embedder: it matches words, not meaning.
await call(client, "memory.search", { query: "kettle blue" }, /kettle is blue/);
await call(client, "artifact.save", { project: "lincheck", name: "note.md", text: "# Lin check\n\nSaved over MCP on XS.\n" });
await call(client, "files.read", { project: "lincheck", name: "note.md" }, /Saved over MCP on XS/);
await call(client, "files.search", { query: "saved over MCP" }, /lincheck\/note\.md/);
// Nostr's curve on the device's engine: NIP-44 to and from the public key of secret key 1 (ECDH both
// ways); then, through a relay on loopback (@nostr-relay/core, the tests' relay), a signed note the relay
// accepts (it checks the signature) and the same note read back (the device verifies what relays send).
const someone = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";
const sealed = await call(client, "nostr.encrypt", { recipient_pubkey: someone, plaintext: "sealed on lin" }, /^A[A-Za-z0-9+/=]{100,}$/);
await call(client, "nostr.decrypt", { sender_pubkey: someone, ciphertext: sealed }, /^sealed on lin$/);
await nostrThroughRelay(client);
await call(client, "device.status", {});
await call(client, "system.health", {});
await call(client, "ota.status", {});
await client.close();

async function chat(text) {
  const res = await fetch(new URL("/api/chat", base), {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ text }),
  });
  const body = await res.text();
  let json;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: res.status, body, json };
}

const noKey = await chat("Hello, what time is it?");
show(
  "POST /api/chat (no key)",
  noKey.status === 200 && noKey.json?.failure === "no-provider" && /key/.test(noKey.json?.reply ?? ""),
  `${noKey.status} ${noKey.body.slice(0, 400)}`,
);

if (withStandin) await standinTurn();

/** One turn against a local OpenAI Responses stand-in: a docs.search call (chunked answer), then the final answer. */
async function standinTurn() {
  const seen = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const json = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      seen.push({ path: req.url, auth: req.headers.authorization, json });
      const wire = (json.tools ?? []).map((t) => t.name).find((n) => /^docs.search$/.test(n));
      const toolResults = (json.input ?? []).filter((i) => i.type === "function_call_output");
      let output;
      if (seen.length === 1 && wire) {
        output = [
          {
            type: "function_call",
            id: "fc_1",
            call_id: "call_1",
            name: wire,
            arguments: JSON.stringify({ query: "memory" }),
            status: "completed",
          },
        ];
      } else {
        const answer = {
          reply: `Gr\u00fc\u00dfe from the stand-in; the tool said ${toolResults.length ? "something" : "nothing"}.`,
          memory: "",
          ask: "",
          mem_write: null,
          mem_query: null,
          session_ops: null,
          device: null,
          scratchpad: null,
        };
        output = [
          {
            type: "message",
            id: "msg_1",
            status: "completed",
            role: "assistant",
            content: [{ type: "output_text", text: JSON.stringify(answer), annotations: [] }],
          },
        ];
      }
      const body = JSON.stringify({
        id: `resp_${seen.length}`,
        object: "response",
        status: "completed",
        error: null,
        incomplete_details: null,
        model: "stand-in",
        output,
        usage: { input_tokens: 10, output_tokens: 5 },
      });
      if (seen.length === 1) {
        res.writeHead(200, { "content-type": "application/json" }); // chunked
        res.write(body.slice(0, 100));
        setTimeout(() => res.end(body.slice(100)), 20);
      } else {
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        res.end(body);
      }
    });
  });
  await new Promise((ok) => server.listen(STANDIN_PORT, "127.0.0.1", ok));
  const key = "sk-lin-standin-KEY";
  const put = await fetch(new URL("/api/secrets/openai", base), {
    method: "PUT",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ value: key }),
  });
  show("PUT /api/secrets/openai", put.status === 200, `${put.status}`);
  const turn = await chat("What does the memory doc say?");
  const reply = turn.json?.reply ?? "";
  show(
    "POST /api/chat (stand-in)",
    turn.status === 200 &&
      turn.json?.ok === true &&
      reply.includes("Gr\u00fc\u00dfe") &&
      reply.includes("said something") &&
      seen.length === 2 &&
      seen[0].path === "/v1/responses" &&
      seen[0].auth === `Bearer ${key}`,
    `${turn.status} ${turn.body.slice(0, 400)}; the stand-in saw ${seen.length} request(s)`,
  );
  const del = await fetch(new URL("/api/secrets/openai", base), { method: "DELETE", headers: auth });
  show("DELETE /api/secrets/openai", del.status === 200, `${del.status}`);
  server.closeAllConnections();
  server.close();
}

process.exit(failures ? 1 : 0);
