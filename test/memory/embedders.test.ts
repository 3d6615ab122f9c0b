// The embedders: the offline feature hasher, and the OpenAI-compatible client
// against a local server speaking POST {base}/embeddings, failures included.
import { SecretStore } from "../../lib/device/secrets.ts";
import assert from "node:assert/strict";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { EMBED_BATCH_MAX } from "../../lib/memory/bounds.ts";
import { EMBEDDER_SECRET_NAME, EMBEDDER_SETTINGS_KEY, selectEmbedder } from "../../lib/memory/embedders/select.ts";
import { hashText, hashingEmbedder } from "../../lib/memory/embedders/hashing.ts";
import { openAiEmbedder } from "../../lib/memory/embedders/openai.ts";
import { normalizeL2 } from "../../lib/memory/store/quantize.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { memoryCore } from "../support/memory.ts";
import { ProviderServer, type ScriptedReply, type SeenRequest } from "../support/provider-server.ts";

const KEY = "sk-test-0123456789abcdef";

/** A correct /embeddings answer (vectors from the feature hasher, listed in reverse index order). */
function embeddingsReply(req: SeenRequest): ScriptedReply {
  const { input, dimensions, model } = req.json;
  const data = (input as string[]).map((t, index) => ({ object: "embedding", index, embedding: Array.from(hashText(t, dimensions)) }));
  return { body: { object: "list", data: data.reverse(), model, usage: { prompt_tokens: 3, total_tokens: 3 } } };
}

const cos = (a: Float32Array, b: Float32Array): number => {
  const x = a.slice();
  const y = b.slice();
  normalizeL2(x);
  normalizeL2(y);
  return x.reduce((s, v, i) => s + v * y[i], 0);
};

describe("offline feature-hashing embedder", () => {
  it("is deterministic, sized, and puts texts that share words closer together", async () => {
    const e = hashingEmbedder(256);
    assert.equal(e.id, "offline-hash-v1/256");
    const [a, a2, b, c] = await e.embed([
      "The red bicycle is in the shed",
      "The red bicycle is in the shed",
      "Where is my bicycle parked?",
      "Tax forms are due in April",
    ]);
    assert.equal(a.length, 256);
    assert.deepEqual(a, a2);
    assert.ok(cos(a, b) > 0.3 && cos(a, c) < 0.15, `${cos(a, b)} ${cos(a, c)}`);
    const [empty] = await e.embed([" ?! ... "]);
    assert.ok(empty.every((x) => x === 0));
    assert.equal((await hashingEmbedder(64).embed(["x"]))[0].length, 64);
  });
});

describe("OpenAI-compatible embedder", () => {
  let server: ProviderServer;
  beforeEach(async () => (server = await ProviderServer.start()));
  afterEach(async () => server.close());

  const embedder = (timeoutMs = 2000) =>
    openAiEmbedder({ http: nodeHttpClient, baseUrl: server.url + "/", model: "text-embedding-3-small", dims: 32, apiKey: KEY, timeoutMs });

  it("sends {model, input, dimensions} with the key and returns vectors in input order", async () => {
    server.reply(embeddingsReply);
    const e = embedder();
    assert.equal(e.id, "text-embedding-3-small/32");
    const out = await e.embed(["alpha beta", "gamma delta"]);
    const req = server.seen[0];
    assert.equal(req.method, "POST");
    assert.equal(req.path, "/v1/embeddings");
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    assert.match(String(req.headers["content-type"]), /^application\/json/);
    assert.deepEqual(req.json, { model: "text-embedding-3-small", input: ["alpha beta", "gamma delta"], dimensions: 32 });
    assert.deepEqual(out[0], hashText("alpha beta", 32));
    assert.deepEqual(out[1], hashText("gamma delta", 32));
  });

  it("splits a large input into batches", async () => {
    const texts = Array.from({ length: EMBED_BATCH_MAX + 3 }, (_, i) => `text ${i}`);
    server.reply(embeddingsReply, embeddingsReply);
    const out = await embedder().embed(texts);
    assert.equal(out.length, texts.length);
    assert.deepEqual(
      server.seen.map((s) => s.json.input.length),
      [EMBED_BATCH_MAX, 3],
    );
    assert.deepEqual(out[EMBED_BATCH_MAX + 2], hashText(texts[EMBED_BATCH_MAX + 2], 32));
  });

  const failures: Array<[string, ScriptedReply, RegExp]> = [
    [
      "401 with an error body (its message quotes the key: never repeated)",
      {
        status: 401,
        body: { error: { message: `Incorrect API key provided: ${KEY}`, type: "invalid_request_error", code: "invalid_api_key" } },
      },
      /^the embeddings service answered HTTP 401 \(invalid_request_error, invalid_api_key\)\.$/,
    ],
    [
      "429 rate limit",
      { status: 429, body: { error: { message: "slow down", type: "requests", code: "rate_limit_exceeded" } } },
      /HTTP 429 \(requests, rate_limit_exceeded\)/,
    ],
    ["500 with a non-JSON body", { status: 500, body: "<html>oops</html>" }, /^the embeddings service answered HTTP 500\.$/],
    ["200 with malformed JSON", { body: '{"data": [' }, /not an embeddings list/],
    ["200 without data", { body: { object: "list" } }, /not an embeddings list/],
    ["too few vectors", { body: { data: [{ index: 0, embedding: Array(32).fill(0.1) }] } }, /returned 1 vectors for 2 texts/],
    [
      "a vector of the wrong length",
      { body: { data: [0, 1].map((index) => ({ index, embedding: Array(31).fill(0.1) })) } },
      /wrong length \(expected 32\)/,
    ],
    ["a repeated index", { body: { data: [0, 0].map((index) => ({ index, embedding: Array(32).fill(0.1) })) } }, /bad or repeated index/],
    [
      "a non-number in a vector",
      { body: { data: [0, 1].map((index) => ({ index, embedding: [...Array(31).fill(0.1), "x"] })) } },
      /non-number/,
    ],
  ];
  for (const [name, reply, expected] of failures) {
    it(`rejects ${name} with one clear sentence`, async () => {
      server.reply(reply);
      await assert.rejects(embedder().embed(["a", "b"]), (e: Error) => {
        assert.match(e.message, expected);
        assert.ok(!e.message.includes(KEY) && !e.message.includes("sk-"));
        return true;
      });
    });
  }

  it("gives up after its deadline when the server does not answer", async () => {
    server.reply({ delayMs: 5000, body: {} });
    const started = Date.now();
    await assert.rejects(embedder(300).embed(["a"]), /no complete answer within 300 ms/);
    assert.ok(Date.now() - started < 2000);
  });

  it("refuses an oversized answer", async () => {
    server.reply({ body: { data: [{ index: 0, embedding: Array(32).fill(0.1) }], padding: "x".repeat(200000) } });
    await assert.rejects(embedder().embed(["a"]), /larger than/);
  });

  it("drives the memory tools end to end when the owner set it up (settings + key)", async () => {
    const settings = memorySettings();
    settings.set(
      EMBEDDER_SETTINGS_KEY,
      JSON.stringify({ provider: "openai", model: "text-embedding-3-small", dims: 64, base_url: server.url }),
    );
    new SecretStore(settings, memoryLog()).seed(EMBEDDER_SECRET_NAME, KEY);
    const rig = memoryCore({ settings });
    const { registry, memory } = rig.core;
    assert.equal(memory.embedder.id, "text-embedding-3-small/64");
    const owner = makePrincipal("owner", "admin", "turn");
    server.reply(embeddingsReply, embeddingsReply);
    assert.match((await registry.dispatch("memory.write", { content: "The red bicycle is in the shed" }, owner)).text, /^Remembered/);
    assert.match(
      (await registry.dispatch("memory.search", { query: "red bicycle" }, owner)).text,
      /^- \[\d+%\] The red bicycle is in the shed$/,
    );
    assert.deepEqual(
      server.seen.map((s) => s.json.input),
      [["The red bicycle is in the shed"], ["red bicycle"]],
    );
    server.reply({ status: 503, body: { error: { message: "overloaded", type: "server_error", code: null } } });
    const failed = await registry.dispatch("memory.write", { content: "Another fact" }, owner);
    assert.equal(failed.isError, true);
    assert.equal(failed.text, "unavailable: embedding failed: the embeddings service answered HTTP 503 (server_error).");
    assert.equal(memory.store.count, 1, "nothing stored on failure");
  });
});

describe("embedder selection", () => {
  const http = nodeHttpClient;
  it("is the offline embedder by default, with no key or settings", () => {
    assert.equal(selectEmbedder(memorySettings(), () => undefined, http, memoryLog()).id, "offline-hash-v1/256");
  });

  it("uses the OpenAI-compatible client only with settings and a key; otherwise says why and stays offline", () => {
    const settings = memorySettings();
    settings.set(EMBEDDER_SETTINGS_KEY, JSON.stringify({ provider: "openai", model: "m-1", dims: 128, base_url: "http://127.0.0.1:9/v1" }));
    assert.equal(selectEmbedder(settings, (n) => (n === EMBEDDER_SECRET_NAME ? "k" : undefined), http, memoryLog()).id, "m-1/128");
    const log = memoryLog();
    assert.equal(selectEmbedder(settings, () => undefined, http, log).id, "offline-hash-v1/256");
    assert.match(log.lines.join("\n"), /needs the secret openai; using the offline embedder/);
    for (const bad of [
      "{nope",
      JSON.stringify({ provider: "openai", model: "m", dims: 7, base_url: "http://x" }),
      JSON.stringify({ provider: "ftp" }),
    ]) {
      settings.set(EMBEDDER_SETTINGS_KEY, bad);
      const l = memoryLog();
      assert.equal(selectEmbedder(settings, () => "k", http, l).id, "offline-hash-v1/256");
      assert.equal(l.lines.length, 1);
    }
    settings.set(EMBEDDER_SETTINGS_KEY, JSON.stringify({ provider: "offline", dims: 128 }));
    assert.equal(selectEmbedder(settings, () => undefined, http, memoryLog()).id, "offline-hash-v1/128");
  });
});
