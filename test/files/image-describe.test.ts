// image.generate's describe: a vision read-back of the saved PNG, the second call to a local stand-in
// speaking OpenAI's Responses wire format (input_text and input_image parts in, message output_text out).
import assert from "node:assert/strict";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { ImageClient } from "../../lib/store/image-client.ts";
import { ProviderServer } from "../support/provider-server.ts";
import { principal } from "../support/registry.ts";
import { VISION_INSTRUCTION, VISION_MAX_CHARS } from "../../lib/store/image-vision.ts";
import { filesHarness, TINY_PNG } from "./support.ts";

const owner = principal("admin", "turn", "owner");
const member = principal("user", "turn", "member");
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");
const image = { body: { created: 1, data: [{ b64_json: b64(TINY_PNG) }] } };
const SAVED = `Saved the image as images/image-20260101-000000.png (${TINY_PNG.length} bytes). Deliver it with files.send.`;

/** A Responses reply with one message item of output_text parts. */
const described = (...texts: string[]) => ({
  body: {
    id: "resp_1",
    object: "response",
    status: "completed",
    output: [
      { type: "reasoning", id: "rs_1", summary: [] },
      { type: "message", id: "msg_1", role: "assistant", content: texts.map((text) => ({ type: "output_text", text, annotations: [] })) },
    ],
    usage: { input_tokens: 300, output_tokens: 40 },
  },
});

describe("image.generate describe", () => {
  let server: ProviderServer;
  beforeEach(async () => {
    server = await ProviderServer.start();
  });
  afterEach(async () => server.close());
  const harness = () => filesHarness({ imageKey: "sk-test-123", imageBaseUrl: server.url });

  it("reads the saved PNG back through the Responses API and returns the description beside the saved name", async () => {
    const h = harness();
    server.reply(image, described("A white lighthouse on a rocky shore at dusk,", "its lamp lit against an orange sky."));
    const r = await h.call("image.generate", { prompt: "a lighthouse at dusk", describe: true }, member);
    assert.equal(r.text, `${SAVED}\nDescription: A white lighthouse on a rocky shore at dusk, its lamp lit against an orange sky.`);
    assert.equal(server.seen.length, 2, "one image call, one vision call");
    const req = server.seen[1];
    assert.equal(req.method, "POST");
    assert.equal(req.path, "/v1/responses");
    assert.equal(req.headers.authorization, "Bearer sk-test-123");
    assert.equal(req.json.model, "gpt-4.1-mini");
    assert.equal(req.json.max_output_tokens, 300);
    assert.equal(req.json.input.length, 1);
    const [text, picture] = req.json.input[0].content;
    assert.equal(req.json.input[0].role, "user");
    assert.deepEqual(text, { type: "input_text", text: VISION_INSTRUCTION });
    assert.equal(picture.type, "input_image");
    const m = /^data:image\/png;base64,(.+)$/.exec(picture.image_url);
    assert.ok(m, "a PNG data URL");
    assert.deepEqual(new Uint8Array(Buffer.from(m[1], "base64")), TINY_PNG, "the very bytes saved");
    // The image is in the store whatever the read-back said.
    assert.match((await h.call("files.list", {}, member)).text, /images\/image-20260101-000000\.png \(image, 70 bytes/);
  });

  it("makes no second call without describe, or with describe false", async () => {
    const h = harness();
    server.reply(image, image);
    assert.equal((await h.call("image.generate", { prompt: "a" }, owner)).text, SAVED);
    const r = await h.call("image.generate", { prompt: "b", describe: false }, owner);
    assert.doesNotMatch(r.text, /Description/);
    assert.equal(server.seen.length, 2);
    assert.ok(server.seen.every((s) => s.path === "/v1/images/generations"));
  });

  it("keeps the saved image and says why when the read-back fails, never echoing the key", async () => {
    const h = harness();
    const failures = [
      { status: 401, body: { error: { message: "Incorrect API key provided: sk-test-123." } } },
      { status: 400, body: { error: { message: "Invalid image for key sk-test-123" } } },
      { status: 500, body: "<html>oops</html>" },
      { body: "not json" },
      { body: { output: [] } },
      { body: { output: [{ type: "message", content: [{ type: "refusal", refusal: "I can't help with that." }] }] } },
      { body: { output: [{ type: "message", content: [{ type: "output_text", text: "   " }] }] } },
      { body: { output: "nonsense" } },
    ];
    const texts: string[] = [];
    for (const f of failures) {
      server.reply(image, f);
      texts.push((await h.call("image.generate", { prompt: "x", describe: true }, owner)).text);
    }
    const tails = texts.map((t) => t.split("\n")[1]);
    assert.deepEqual(tails, [
      "No description: provider-error: the provider refused the API key (HTTP 401).",
      "No description: provider-error: the provider answered HTTP 400: Invalid image for key [key].",
      "No description: provider-error: the provider answered HTTP 500.",
      "No description: provider-error: the provider's reply held no description.",
      "No description: provider-error: the provider's reply held no description.",
      "No description: provider-error: the provider's reply held no description.",
      "No description: provider-error: the provider's reply held no description.",
      "No description: provider-error: the provider's reply held no description.",
    ]);
    for (const t of texts) {
      assert.match(t, /^Saved the image as images\/image-20260101-000000(-\d)?\.png/);
      assert.ok(!t.includes("sk-test-123"), t);
    }
    const listed = (await h.call("files.list", {}, owner)).text.split("\n").filter((l) => l.includes(".png"));
    assert.equal(listed.length, failures.length, "every image kept");
  });

  it("clips a long description and folds its whitespace", async () => {
    const h = harness();
    server.reply(image, described(`A\n\n  room.${" very".repeat(600)}`));
    const r = await h.call("image.generate", { prompt: "x", describe: true }, owner);
    const line = r.text.split("\n")[1];
    assert.ok(line.startsWith("Description: A room. very very"), line.slice(0, 60));
    assert.ok(line.length <= "Description: ".length + VISION_MAX_CHARS + 3, `${line.length}`);
  });

  it("gives up on a read-back that does not answer in time", async () => {
    const slow = new ImageClient(nodeHttpClient, { apiKey: () => "k", baseUrl: () => server.url }, 200);
    server.reply({ delayMs: 2000, ...described("late") });
    await assert.rejects(
      slow.describe(TINY_PNG),
      /^HaloError: provider-error: the describe request failed \(no complete answer within 200 ms\)\.$/,
    );
  });

  it("says not-configured without a key and sends nothing", async () => {
    const none = new ImageClient(nodeHttpClient, { apiKey: () => undefined, baseUrl: () => server.url });
    await assert.rejects(none.describe(TINY_PNG), /^HaloError: not-configured: /);
    assert.equal(server.seen.length, 0);
  });

  it("refuses a guest before either call", async () => {
    const h = harness();
    const guest = principal("guest", "turn", "guest");
    assert.match((await h.call("image.generate", { prompt: "x", describe: true }, guest)).text, /^guest-refused: /);
    assert.equal(server.seen.length, 0);
  });
});
