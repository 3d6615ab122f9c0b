// POST /api/chat on the simulator over a real socket, its providers pointed at
// a local OpenAI stand-in; and `npm run chat` (tools/chat.mjs) against it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { optionsFromEnv } from "../../hosts/sim/start.ts";
import { CHAT_TOOL_RESULT_BYTES, shownResult } from "../../lib/http/chat-api.ts";
import { NO_PROVIDER_KEY_REPLY } from "../../lib/turn/engine.ts";
import { ProviderServer } from "../support/provider-server.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";
import { answer, openAiAnswer, openAiTools, person } from "./support.ts";

async function chat(
  sim: TestSim,
  body: unknown,
  headers: Record<string, string | undefined> = {},
  method = "POST",
): Promise<{ status: number; json: any; headers: Headers }> {
  const merged: Record<string, string | undefined> = {
    authorization: `Bearer ${sim.token}`,
    "content-type": "application/json",
    ...headers,
  };
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(merged)) if (v !== undefined) clean[k] = v;
  const res = await fetch(`${sim.url}/api/chat`, {
    method,
    headers: clean,
    body: method === "GET" ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json(), headers: res.headers };
}

/** Runs tools/chat.mjs with `stdin` and returns what it printed. */
function runChatClient(
  sim: TestSim,
  args: string[],
  stdin: string,
  env: Record<string, string> = { HALO_URL: sim.url },
): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ["tools/chat.mjs", ...args], {
      env: { ...process.env, HALO_URL: "", HALO_PORT: "", HALO_HOST: "", HALO_DATA: sim.dataDir, HALO_TOKEN: "", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("close", (code) => done({ code, out }));
    child.stdin.end(stdin);
  });
}

describe("POST /api/chat on the simulator", () => {
  let openai: ProviderServer;
  let sim: TestSim;
  before(async () => {
    openai = await ProviderServer.start();
    sim = await startTestSim({
      baseUrls: { openai: openai.url },
      initialSecrets: { openai: "sk-sim-test-KEY" },
      portOverrides: { log: memoryLog() },
    });
  });
  after(async () => {
    await sim.stop();
    await openai.close();
  });

  it("runs a turn as the owner and answers with the reply and what the turn did", async () => {
    openai.reply(
      openAiTools(["docs_search", '{"query":"memory"}']),
      openAiAnswer(
        answer({
          reply: "Hello from the device.",
          ask: "Anything else?",
          mem_write: [{ content: "The owner said hello over the chat API.", importance: null, permanent: null, ttl: null }],
          device: [
            {
              led: { mode: "solid", r: 0, g: 255, b: 0, brightness: null },
              lights: null,
              config: null,
              orch_model: null,
              reboot: null,
              tts: null,
            },
          ],
        }),
      ),
    );
    const r = await chat(sim, { text: "hello" });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.equal(r.json.ok, true);
    assert.equal(r.json.reply, "Hello from the device.");
    assert.equal(r.json.ask, "Anything else?");
    assert.deepEqual(
      r.json.toolCalls.map((c: any) => c.name),
      ["docs.search"],
    );
    assert.equal(r.json.memoryWritten[0].ok, true);
    assert.match(r.json.device[0].text, /^ring: solid 0,255,0/);
    assert.equal(r.json.provider, "openai");
    assert.equal(openai.seen[0].headers.authorization, "Bearer sk-sim-test-KEY");
    assert.match(openai.seen[0].json.instructions, /You are talking with "owner" \(role admin\) via api\./);
  });

  it("answers each tool call's result text, cut to 2 KB with a marker, and whether it failed", async () => {
    const long = `${"The long line of the plan. ".repeat(120)}END-OF-PLAN`;
    sim.halo.core.artifacts.saveText(person("admin"), "notes", "long.md", long);
    openai.reply(
      openAiTools(["files_read", '{"project":"notes","name":"long.md"}'], ["files_read", '{"project":"notes","name":"missing.md"}']),
      openAiAnswer(answer({ reply: "Read it." })),
    );
    const r = await chat(sim, { text: "read my long plan" });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    const [read, missing] = r.json.toolCalls;
    assert.equal(read.ok, true);
    assert.match(read.result, /The long line of the plan\./);
    assert.doesNotMatch(read.result, /END-OF-PLAN/, "the end of a long result is cut");
    assert.match(read.result, /\n\[cut: \d+ more bytes\]$/);
    assert.ok(new TextEncoder().encode(read.result).length <= CHAT_TOOL_RESULT_BYTES + 40);
    assert.equal(missing.ok, false);
    assert.match(missing.result, /^not-found: no file notes\/missing\.md/);
  });

  it("runs the turn as the client whose token was sent", async () => {
    const created = await fetch(`${sim.url}/api/clients`, {
      method: "POST",
      headers: { authorization: `Bearer ${sim.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "kitchen", role: "user", ns: "kitchen" }),
    });
    const { token } = (await created.json()) as { token: string };
    openai.reply(openAiAnswer(answer({ reply: "hi kitchen" })));
    const r = await chat(sim, { text: "hi" }, { authorization: `Bearer ${token}` });
    assert.equal(r.json.reply, "hi kitchen");
    const prompt = openai.seen[openai.seen.length - 1].json.instructions as string;
    assert.match(prompt, /You are talking with "kitchen" \(role user\)/);
    assert.doesNotMatch(prompt, /tenant\.set_role/);
  });

  it("refuses what is not a well-formed request by a known client", async () => {
    const before = openai.seen.length;
    assert.equal((await chat(sim, { text: "hi" }, { authorization: undefined })).status, 401);
    assert.equal((await chat(sim, { text: "hi" }, { authorization: "Bearer halo_wrong" })).status, 401);
    const get = await chat(sim, undefined, {}, "GET");
    assert.equal(get.status, 405);
    assert.equal(get.headers.get("allow"), "POST");
    assert.equal((await chat(sim, { text: "hi" }, { "content-type": "text/plain" })).status, 415);
    assert.equal((await chat(sim, "{not json")).status, 400);
    assert.match((await chat(sim, { text: "hi", role: "admin" })).json.error, /unknown field/);
    assert.match((await chat(sim, { text: "" })).json.error, /'text' must be a non-empty string/);
    assert.match((await chat(sim, { text: 5 })).json.error, /'text' must be string/);
    assert.match((await chat(sim, { text: "x".repeat(9000) })).json.error, /longer than 8192 bytes/);
    assert.equal((await chat(sim, "x".repeat(20000))).status, 413);
    const inQuery = await fetch(`${sim.url}/api/chat?token=${sim.token}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(inQuery.status, 400);
    assert.equal(openai.seen.length, before);
  });

  it("works from the terminal client, one shot and line by line", async () => {
    openai.reply(openAiAnswer(answer({ reply: "one-shot reply" })), openAiAnswer(answer({ reply: "first line reply", ask: "more?" })));
    const oneShot = await runChatClient(sim, ["hello", "there"], "");
    assert.equal(oneShot.code, 0, oneShot.out);
    assert.match(oneShot.out, /^halo> one-shot reply$/m);
    const lines = await runChatClient(sim, [], "first line\n/quit\n");
    assert.equal(lines.code, 0, lines.out);
    assert.match(lines.out, /halo> first line reply\n {2}\(asks\) more\?/);
  });

  it("finds the simulator by HALO_PORT, and exits non-zero when refused or unreachable", async () => {
    openai.reply(openAiAnswer(answer({ reply: "found by port" })));
    const port = new URL(sim.url).port;
    const byPort = await runChatClient(sim, ["hello"], "", { HALO_PORT: port, HALO_HOST: "127.0.0.1" });
    assert.equal(byPort.code, 0, byPort.out);
    assert.match(byPort.out, /^halo> found by port$/m);
    const refused = await runChatClient(sim, ["hello"], "", { HALO_PORT: port, HALO_TOKEN: "halo_not_a_client" });
    assert.equal(refused.code, 1, refused.out);
    assert.match(refused.out, /HTTP 401: Unauthorized: unknown or revoked token/);
    const refusedLines = await runChatClient(sim, [], "hello\nsecond\n", { HALO_PORT: port, HALO_TOKEN: "halo_not_a_client" });
    assert.equal(refusedLines.code, 1, refusedLines.out);
    const closed = await new Promise<number>((ok) => {
      const probe = createServer();
      probe.listen(0, "127.0.0.1", () => {
        const p = (probe.address() as AddressInfo).port;
        probe.close(() => ok(p));
      });
    });
    const unreachable = await runChatClient(sim, ["hello"], "", { HALO_PORT: String(closed) });
    assert.equal(unreachable.code, 1, unreachable.out);
    assert.match(unreachable.out, /cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });
});

describe("the chat API's shown tool result", () => {
  it("keeps a short result whole and cuts a long one on a character boundary, naming the ring tag when there is one", () => {
    assert.equal(shownResult("short"), "short");
    const exact = "a".repeat(CHAT_TOOL_RESULT_BYTES);
    assert.equal(shownResult(exact), exact);
    const wide = "é".repeat(CHAT_TOOL_RESULT_BYTES);
    const cut = shownResult(wide, "r7");
    const [kept, marker] = cut.split("\n");
    assert.equal(kept, "é".repeat(CHAT_TOOL_RESULT_BYTES / 2));
    assert.equal(marker, `[cut: ${CHAT_TOOL_RESULT_BYTES} more bytes; the whole result is in the results ring, tag r7]`);
  });
});

describe("POST /api/chat without a provider key", () => {
  it("answers with how to add one", async () => {
    const sim = await startTestSim({ portOverrides: { log: memoryLog() } });
    try {
      const r = await chat(sim, { text: "hello" });
      assert.equal(r.status, 200);
      assert.equal(r.json.ok, false);
      assert.equal(r.json.failure, "no-provider");
      assert.equal(r.json.reply, NO_PROVIDER_KEY_REPLY);
    } finally {
      await sim.stop();
    }
  });
});

describe("simulator options", () => {
  it("reads the providers' base URLs from HALO_*_BASE_URL next to the other services'", () => {
    const o = optionsFromEnv({
      HALO_OPENAI_BASE_URL: "http://127.0.0.1:1/v1",
      HALO_ANTHROPIC_BASE_URL: "http://127.0.0.1:2/v1",
      HALO_MISTRAL_BASE_URL: "http://127.0.0.1:3/v1",
      HALO_TAVILY_BASE_URL: "http://127.0.0.1:4",
    });
    assert.deepEqual(o.baseUrls, {
      openai: "http://127.0.0.1:1/v1",
      anthropic: "http://127.0.0.1:2/v1",
      mistral: "http://127.0.0.1:3/v1",
      tavily: "http://127.0.0.1:4",
    });
    assert.deepEqual(optionsFromEnv({}).baseUrls, {});
  });
});
