// image.generate against a local server speaking the OpenAI images wire format, and files.send of the result.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { ImageClient } from "../../lib/store/image-client.ts";
import { decodeBase64 } from "../../lib/util/base64.ts";
import { ProviderServer } from "../support/provider-server.ts";
import { principal } from "../support/registry.ts";
import { filesHarness, recordingMessenger, TINY_PNG } from "./support.ts";

const owner = principal("admin", "turn", "owner");
const member = principal("user", "turn", "member");
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");

describe("image.generate", () => {
  let server: ProviderServer;
  beforeEach(async () => {
    server = await ProviderServer.start();
  });
  afterEach(async () => server.close());

  /** `null`: no key set. */
  const harness = (key: string | null = "sk-test-123") => {
    const messenger = recordingMessenger();
    const h = filesHarness({ imageKey: key ?? undefined, imageBaseUrl: server.url, messenger });
    return { h, messenger };
  };

  it("posts the OpenAI request, saves a first-class PNG artifact that list, search and send see", async () => {
    const { h, messenger } = harness();
    server.reply({ body: { created: 1, data: [{ b64_json: b64(TINY_PNG) }] } });
    const r = await h.call("image.generate", { prompt: "a lighthouse at dusk" }, member);
    assert.equal(r.text, `Saved the image as images/image-20260101-000000.png (${TINY_PNG.length} bytes). Deliver it with files.send.`);
    const req = server.seen[0];
    assert.equal(req.method, "POST");
    assert.equal(req.path, "/v1/images/generations");
    assert.equal(req.headers.authorization, "Bearer sk-test-123");
    assert.deepEqual(req.json, { model: "gpt-image-1", prompt: "a lighthouse at dusk", n: 1, size: "1024x1024", quality: "low" });
    assert.match((await h.call("files.list", {}, member)).text, /- images\/image-20260101-000000\.png \(image, 70 bytes, yours\)/);
    assert.match(
      (await h.call("files.search", { query: "lighthouse" }, member)).text,
      /^- images\/image-20260101-000000\.png \(image, score [0-9.]+\)\n {2}a lighthouse at dusk$/,
    );
    assert.match(
      (await h.call("files.stat", { project: "images", name: "image-20260101-000000.png" }, member)).text,
      /kind: image \(image\/png\)/,
    );
    const send = await h.call("files.send", { project: "images", name: "image-20260101-000000.png" }, member);
    assert.equal(send.text, "Sent images/image-20260101-000000.png (70 bytes) as a photo.");
    assert.equal(messenger.sent[0].how, "photo");
    assert.equal(messenger.sent[0].file.mime, "image/png");
    assert.deepEqual(messenger.sent[0].file.bytes, TINY_PNG);
  });

  it("takes a project, a name stem and options; a second default name in the same second gets -2", async () => {
    const { h } = harness();
    server.reply(
      { body: { data: [{ b64_json: b64(TINY_PNG) }] } },
      { body: { data: [{ b64_json: b64(TINY_PNG) }] } },
      { body: { data: [{ b64_json: b64(TINY_PNG) }] } },
    );
    const named = await h.call(
      "image.generate",
      { prompt: "logo", project: "brand", name: "logo-v1", size: "1536x1024", quality: "high", model: "gpt-image-1.5" },
      owner,
    );
    assert.match(named.text, /^Saved the image as brand\/logo-v1\.png /);
    assert.deepEqual(server.seen[0].json, { model: "gpt-image-1.5", prompt: "logo", n: 1, size: "1536x1024", quality: "high" });
    await h.call("image.generate", { prompt: "one" }, owner);
    const second = await h.call("image.generate", { prompt: "two" }, owner);
    assert.match(second.text, /^Saved the image as images\/image-20260101-000000-2\.png /);
  });

  it("reports not-configured without a key and makes no request", async () => {
    const { h } = harness(null);
    const r = await h.call("image.generate", { prompt: "x" }, owner);
    assert.equal(r.text, "not-configured: image.generate needs an OpenAI API key, which the owner sets through the owner API.");
    assert.equal(server.seen.length, 0);
  });

  it("refuses guests, a taken name and an absent card before paying the provider", async () => {
    const { h } = harness();
    const guest = principal("guest", "turn", "guest");
    assert.equal(
      (await h.call("image.generate", { prompt: "x" }, guest)).text,
      "guest-refused: guests cannot generate images (it spends the owner's provider credit).",
    );
    h.artifacts.save(member, "brand", "logo.png", TINY_PNG);
    assert.equal(
      (await h.call("image.generate", { prompt: "x", project: "brand", name: "logo" }, owner)).text,
      "conflict: brand/logo.png cannot be written: the name is taken; choose another name.",
    );
    h.storage.pull();
    assert.equal(
      (await h.call("image.generate", { prompt: "x" }, owner)).text,
      "no-card: the SD card is not inserted; insert it and try again.",
    );
    assert.equal(server.seen.length, 0);
  });

  it("turns provider failures into one sentence that never echoes the key", async () => {
    const { h } = harness();
    server.reply(
      { status: 401, body: { error: { message: "Incorrect API key provided: sk-test-123. You can find your API key at ..." } } },
      { status: 400, body: { error: { message: "Your request was rejected by the safety system. key sk-test-123 noted" } } },
      { status: 500, body: "<html>oops</html>" },
      { body: "not json" },
      { body: { data: [] } },
      { body: { data: [{ b64_json: "***not base64***" }] } },
      { body: { data: [{ b64_json: b64(new TextEncoder().encode("GIF89a not a png")) }] } },
    );
    const texts: string[] = [];
    for (let i = 0; i < 7; i++) texts.push((await h.call("image.generate", { prompt: "x" }, owner)).text);
    assert.deepEqual(texts, [
      "provider-error: the image provider refused the API key (HTTP 401).",
      "provider-error: the image provider answered HTTP 400: Your request was rejected by the safety system. key [key] noted.",
      "provider-error: the image provider answered HTTP 500.",
      "provider-error: the image provider's reply held no base64 image.",
      "provider-error: the image provider's reply held no base64 image.",
      "provider-error: the image provider's base64 image is malformed.",
      "provider-error: the image provider's reply is not a PNG.",
    ]);
    for (const t of texts) assert.ok(!t.includes("sk-test-123"));
    assert.match((await h.call("files.list", {}, owner)).text, /^No files\.$/);
  });

  it("gives up on a provider that does not answer in time", async () => {
    const slow = new ImageClient(nodeHttpClient, { apiKey: () => "k", baseUrl: () => server.url }, 200);
    server.reply({ delayMs: 2000, body: { data: [{ b64_json: b64(TINY_PNG) }] } });
    await assert.rejects(
      slow.generate({ prompt: "x", model: "m", size: "auto", quality: "low" }),
      /^HaloError: provider-error: the image request failed \(no complete answer within 200 ms\)\.$/,
    );
  });

  it("refuses bad arguments", async () => {
    const { h } = harness();
    const cases: Array<[object, RegExp]> = [
      [{}, /'prompt' is required/],
      [{ prompt: "" }, /'prompt' must NOT have fewer than 1 characters/],
      [{ prompt: 42 }, /'prompt' must be string/],
      [{ prompt: "x", size: "4096x4096" }, /'size' must be one of 1024x1024, 1024x1536, 1536x1024, auto/],
      [{ prompt: "x", quality: "ultra" }, /'quality' must be one of low, medium, high/],
      [{ prompt: "x", model: "../../v2" }, /'model' must match pattern/],
      [{ prompt: "x", describe: "yes" }, /'describe' must be boolean/],
      [{ prompt: "x", describe: true, detail: "high" }, /unknown argument 'detail'/],
      [{ prompt: "x", name: "" }, /'name' must NOT have fewer than 1 characters/],
    ];
    for (const [args, re] of cases) assert.match((await h.call("image.generate", args, owner)).text, re, JSON.stringify(args));
    assert.equal(server.seen.length, 0);
  });
});

describe("files.send", () => {
  it("reports not-configured without a messenger, and a messenger failure as one sentence", async () => {
    const plain = filesHarness();
    plain.artifacts.saveText(owner, "p", "a.md", "hello");
    assert.equal(
      (await plain.call("files.send", { project: "p", name: "a.md" }, owner)).text,
      "not-configured: files.send needs the Telegram messenger, which is not configured on this device yet.",
    );
    const failing = filesHarness({ messenger: recordingMessenger("Telegram answered 429: too many requests") });
    failing.artifacts.saveText(owner, "p", "a.md", "hello");
    assert.equal(
      (await failing.call("files.send", { project: "p", name: "a.md" }, owner)).text,
      "send-failed: Telegram answered 429: too many requests",
    );
    const bad: Array<[object, RegExp]> = [
      [{ project: "p" }, /'name' is required/],
      [{ project: "p", name: "a.md", chat_id: "not a chat" }, /'chat_id' must match pattern/],
      [{ project: "p", name: "a.md", chat_id: 5 }, /'chat_id' must be string/],
    ];
    for (const [args, re] of bad) assert.match((await failing.call("files.send", args, owner)).text, re);
  });
});

describe("decodeBase64", () => {
  it("matches Node's decoder for every length and rejects malformed input", () => {
    for (let n = 0; n < 70; n++) {
      const bytes = randomBytes(n);
      const padded = bytes.toString("base64");
      assert.deepEqual(decodeBase64(padded), new Uint8Array(bytes), `length ${n}`);
      assert.deepEqual(decodeBase64(padded.replace(/=+$/, "")), new Uint8Array(bytes), `length ${n} unpadded`);
    }
    const big = randomBytes(3 * 1024 * 1024 + 1);
    assert.deepEqual(decodeBase64(big.toString("base64")), new Uint8Array(big));
    for (const bad of ["A", "AB=C", "A===", "ab$d", "ü123", "AAAA====="]) assert.equal(decodeBase64(bad), undefined, bad);
  });
});
