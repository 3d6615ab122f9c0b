// The Telegram Bot API client and channel against a local server speaking the Bot API wire format.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { cryptoRandom } from "../../hosts/sim/ports/node-basics.ts";
import { TelegramClient } from "../../lib/chat/telegram.ts";
import { splitForTelegram, TelegramChannel, TELEGRAM_PHOTO_MAX_BYTES } from "../../lib/chat/telegram-channel.ts";
import { TelegramError } from "../../lib/chat/telegram-errors.ts";
import { TelegramServer, TEST_BOT_TOKEN } from "../support/telegram-server.ts";

const SECRET_HALF = TEST_BOT_TOKEN.split(":")[1];

describe("Telegram Bot API client", () => {
  let server: TelegramServer;
  let token: string | undefined;
  let baseUrl: string | undefined;
  let client: TelegramClient;
  beforeEach(async () => {
    server = await TelegramServer.start();
    token = TEST_BOT_TOKEN;
    baseUrl = server.url;
    client = new TelegramClient(nodeHttpClient, cryptoRandom, { token: () => token, baseUrl: () => baseUrl });
  });
  afterEach(async () => server.close());

  /** The TelegramError a call rejects with; fails when it resolves. */
  async function failure(work: Promise<unknown>): Promise<TelegramError> {
    try {
      await work;
    } catch (e) {
      assert.ok(e instanceof TelegramError, String(e));
      assert.ok(!e.message.includes(TEST_BOT_TOKEN) && !e.message.includes(SECRET_HALF), `token in: ${e.message}`);
      assert.ok(!e.message.includes("/bot"), `URL in: ${e.message}`);
      return e;
    }
    assert.fail("the call resolved");
  }

  it("sends a message as a JSON POST to /bot<token>/sendMessage", async () => {
    await client.sendMessage("42", "héllo ✓");
    const [req] = server.requests;
    assert.equal(req.httpMethod, "POST");
    assert.equal(req.path, "/bot<token>/sendMessage");
    assert.equal(req.token, TEST_BOT_TOKEN);
    assert.equal(req.contentType, "application/json");
    assert.deepEqual(req.params, { chat_id: "42", text: "héllo ✓" });
    assert.deepEqual(client.linkState(), { configured: true, lastError: undefined, exchanges: 1 });
  });

  it("uploads a voice note as multipart/form-data with the exact bytes, file name, type and caption", async () => {
    // Every byte value, and the bytes of a multipart delimiter, must survive the upload.
    const bytes = new Uint8Array(1024 + 256);
    for (let i = 0; i < 256; i++) bytes[i] = i;
    bytes.set(new TextEncoder().encode("\r\n--halo-fake-boundary--\r\n"), 300);
    await client.sendVoice("-1001", { name: "reply.ogg", mime: "audio/ogg", bytes, caption: 'a "quoted"\ncaption' });
    const [req] = server.calls("sendVoice");
    assert.match(req.contentType, /^multipart\/form-data; boundary=halo-[0-9a-f]{32}$/);
    assert.deepEqual(req.params, { chat_id: "-1001", caption: 'a "quoted"\ncaption' });
    assert.equal(req.file!.field, "voice");
    assert.equal(req.file!.filename, "reply.ogg");
    assert.equal(req.file!.type, "audio/ogg");
    assert.deepEqual(req.file!.bytes, bytes);
  });

  it("uploads documents and photos under their own field, with header-safe file names", async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    await client.sendDocument("42", { name: 'we"ird\r\nname.md', mime: "text/markdown", bytes });
    await client.sendPhoto("42", { name: "p.png", mime: "image/png", bytes });
    assert.equal(server.calls("sendDocument")[0].file!.field, "document");
    assert.equal(server.calls("sendDocument")[0].file!.filename, "we_ird__name.md");
    assert.equal(server.calls("sendPhoto")[0].file!.field, "photo");
    assert.equal(server.calls("sendPhoto")[0].params.caption, undefined, "no caption field when none is given");
  });

  it("long-polls getUpdates with offset, limit, timeout and allowed_updates, and reads the updates", async () => {
    const first = server.message(42, "hi");
    server.push({ edited_message: { message_id: 9, chat: { id: 42 }, text: "edited" } });
    server.push({ message: { message_id: 10, chat: { id: -77 }, photo: [{ file_id: "x" }] } });
    const updates = await client.getUpdates(0, 5, 1);
    assert.deepEqual(server.calls("getUpdates")[0].params, { offset: 0, limit: 5, timeout: 1, allowed_updates: ["message"] });
    assert.deepEqual(updates, [
      { updateId: first, message: { chatId: "42", messageId: 1, text: "hi" } },
      { updateId: first + 1 },
      { updateId: first + 2, message: { chatId: "-77", messageId: 10 } },
    ]);
    // The offset acknowledges: Telegram forgets what came before it.
    assert.deepEqual(await client.getUpdates(first + 3, 5, 0), []);
    // A long poll waits on Telegram's side until a message arrives.
    const waiting = client.getUpdates(first + 3, 5, 5);
    setTimeout(() => server.message(7, "late"), 100);
    const late = await waiting;
    assert.equal(late.length, 1);
    assert.equal(late[0].message!.text, "late");
  });

  it("clamps the getUpdates limit to 1-100", async () => {
    await client.getUpdates(0, 1000, 0);
    await client.getUpdates(0, 0, 0);
    assert.deepEqual(
      server.calls("getUpdates").map((r) => r.params.limit),
      [100, 1],
    );
  });

  it("maps every Bot API error envelope to a kind and one sentence", async () => {
    server.fail(
      "sendMessage",
      { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: chat not found" } },
      { status: 403, body: { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" } },
      { status: 409, body: { ok: false, error_code: 409, description: "Conflict: terminated by other getUpdates request" } },
      {
        status: 429,
        body: { ok: false, error_code: 429, description: "Too Many Requests: retry after 7", parameters: { retry_after: 7 } },
      },
      { status: 502, body: "<html>Bad Gateway</html>" },
      { status: 200, body: { ok: false, error_code: 400, description: "Bad Request: odd but possible" } },
      { status: 200, body: "not json at all" },
      { status: 200, body: { result: true } },
      { status: 200, body: "" },
    );
    const e400 = await failure(client.sendMessage("1", "x"));
    assert.equal(e400.kind, "bad-request");
    assert.equal(e400.message, "Telegram rejected the request (HTTP 400): Bad Request: chat not found");
    const e403 = await failure(client.sendMessage("1", "x"));
    assert.equal(e403.kind, "forbidden");
    assert.match(e403.message, /blocked by the user/);
    assert.equal((await failure(client.sendMessage("1", "x"))).kind, "conflict");
    const e429 = await failure(client.sendMessage("1", "x"));
    assert.equal(e429.kind, "rate-limit");
    assert.equal(e429.retryAfterMs, 7000);
    assert.equal(e429.message, "Telegram is rate-limiting the bot for 7 s (HTTP 429).");
    const e502 = await failure(client.sendMessage("1", "x"));
    assert.equal(e502.kind, "server");
    assert.equal(e502.message, "Telegram failed with HTTP 502.");
    assert.equal((await failure(client.sendMessage("1", "x"))).kind, "bad-request");
    const garbled = await failure(client.sendMessage("1", "x"));
    assert.equal(garbled.kind, "bad-response");
    assert.equal(garbled.message, "Telegram's answer is not the Bot API's JSON envelope.");
    assert.equal((await failure(client.sendMessage("1", "x"))).kind, "bad-response");
    assert.equal((await failure(client.sendMessage("1", "x"))).message, "Telegram's answer is empty.");
    assert.equal(client.linkState().lastError, "Telegram's answer is empty.");
    await client.sendMessage("1", "recovered");
    assert.equal(client.linkState().lastError, undefined);
  });

  it("reports a refused token without quoting Telegram, and never puts the token in a message", async () => {
    token = "999:WRONGwrongWRONGwrongWRONG";
    const e = await failure(client.sendMessage("1", "x"));
    assert.equal(e.kind, "auth");
    assert.equal(e.message, "Telegram refused the bot token (HTTP 401); the owner can replace it through the owner API.");
    token = TEST_BOT_TOKEN;
    server.fail("sendMessage", {
      status: 400,
      body: { ok: false, error_code: 400, description: `Bad Request: token ${TEST_BOT_TOKEN} and half ${SECRET_HALF}` },
    });
    const echoed = await failure(client.sendMessage("1", "x"));
    assert.equal(echoed.message, "Telegram rejected the request (HTTP 400): Bad Request: token [token] and half [token]");
  });

  it("fails on a getUpdates answer that is not a list of updates", async () => {
    server.fail(
      "getUpdates",
      { status: 200, body: { ok: true, result: { not: "a list" } } },
      { status: 200, body: { ok: true, result: [{ no_id: 1 }] } },
    );
    assert.equal((await failure(client.getUpdates(0, 1, 0))).message, "Telegram's answer to getUpdates is not a list of updates.");
    assert.equal(
      (await failure(client.getUpdates(0, 1, 0))).message,
      "Telegram's answer to getUpdates holds an update without an update_id.",
    );
  });

  it("times out, and reports a dropped or refused connection, without the URL", async () => {
    server.fail("sendMessage", { status: 200, delayMs: 2000, body: { ok: true, result: {} } });
    const slow = await failure(client.call("sendMessage", { chat_id: "1", text: "x" }, 150));
    assert.equal(slow.kind, "timeout");
    assert.equal(slow.message, "Telegram gave no complete answer within 150 ms.");
    server.fail("sendMessage", { raw: (res) => res.socket?.destroy() });
    assert.equal((await failure(client.sendMessage("1", "x"))).message, "The connection to Telegram failed.");
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, "127.0.0.1", () => ok()));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((ok) => closed.close(() => ok()));
    baseUrl = `http://127.0.0.1:${port}`;
    assert.equal((await failure(client.sendMessage("1", "x"))).kind, "network");
  });

  it("sends nothing without a token, with a token not in Telegram's form, or with a bad base URL", async () => {
    token = undefined;
    assert.equal(client.configured(), false);
    assert.equal(
      (await failure(client.sendMessage("1", "x"))).message,
      "Telegram is not set up: the owner sets the bot token through the owner API.",
    );
    for (const bad of ["123456:short", "123456:abcdefghijklmnopqrstuvwxyz/../getMe", "nocolonabcdefghijklmnopqrstuvwxyz"]) {
      token = bad;
      assert.equal(client.configured(), false, bad);
      assert.equal((await failure(client.sendMessage("1", "x"))).kind, "not-configured");
    }
    token = TEST_BOT_TOKEN;
    baseUrl = "ftp://example.com";
    assert.equal((await failure(client.sendMessage("1", "x"))).message, "The Telegram base URL is not a valid http(s) URL.");
    assert.equal(server.requests.length, 0);
  });
});

describe("Telegram channel (the Messenger of files.send)", () => {
  let server: TelegramServer;
  let owner: string | undefined;
  const allowed = new Set(["42", "-1001"]);
  let channel: TelegramChannel;
  beforeEach(async () => {
    server = await TelegramServer.start();
    owner = "7";
    const client = new TelegramClient(nodeHttpClient, cryptoRandom, { token: () => TEST_BOT_TOKEN, baseUrl: () => server.url });
    channel = new TelegramChannel({ client, chats: { has: (id) => allowed.has(id) }, ownerChat: () => owner });
  });
  afterEach(async () => server.close());

  const file = { name: "report.md", mime: "text/markdown", bytes: new Uint8Array([35, 32, 104, 105]), caption: "docs/report.md" };

  it("delivers to the owner's chat by default and to allow-listed chats when named", async () => {
    await channel.sendDocument(file);
    await channel.sendPhoto({ ...file, name: "p.png", mime: "image/png" }, "42");
    assert.equal(server.calls("sendDocument")[0].params.chat_id, "7");
    assert.equal(server.calls("sendDocument")[0].params.caption, "docs/report.md");
    assert.equal(server.calls("sendPhoto")[0].params.chat_id, "42");
  });

  it("refuses a chat off the allow-list, a non-numeric chat and a missing owner chat, sending nothing", async () => {
    await assert.rejects(channel.sendDocument(file, "99"), /^TelegramError: Not sent: that chat is not on the owner's chat allow-list\.$/);
    await assert.rejects(channel.sendDocument(file, "@channel"), /not a Telegram chat id/);
    owner = undefined;
    await assert.rejects(channel.sendDocument(file), /No owner chat is set: the owner sets ownerChatId through the owner API\./);
    owner = "not-a-number";
    assert.equal(channel.ownerChat(), undefined);
    assert.equal(server.requests.length, 0);
  });

  it("sends a photo over Telegram's photo limit as a document", async () => {
    await channel.sendPhoto({ name: "big.png", mime: "image/png", bytes: new Uint8Array(TELEGRAM_PHOTO_MAX_BYTES + 1) });
    assert.equal(server.calls("sendPhoto").length, 0);
    assert.equal(server.calls("sendDocument")[0].file!.bytes.length, TELEGRAM_PHOTO_MAX_BYTES + 1);
  });

  it("splits long text into Telegram-sized messages, in order, losing nothing", async () => {
    const text = "line one\n" + "word ".repeat(1800);
    assert.equal(await channel.sendText("42", text), 3);
    const sent = server.calls("sendMessage").map((r) => r.params.text as string);
    assert.equal(sent.join(""), text);
    assert.ok(sent.every((t) => t.length <= 4096));
  });

  it("reports its link health without a secret", async () => {
    assert.deepEqual(channel.linkHealth(), { configured: true, ok: true, detail: "owner chat set; no exchange yet" });
    server.fail("sendMessage", { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: chat not found" } });
    await assert.rejects(channel.sendText("42", "x"));
    assert.deepEqual(channel.linkHealth(), {
      configured: true,
      ok: false,
      detail: "owner chat set; the last exchange failed: Telegram rejected the request (HTTP 400): Bad Request: chat not found",
    });
  });
});

describe("splitForTelegram", () => {
  it("keeps a short text whole and an empty one empty", () => {
    assert.deepEqual(splitForTelegram("hi"), ["hi"]);
    assert.deepEqual(splitForTelegram(""), []);
    assert.deepEqual(splitForTelegram("x".repeat(4096)), ["x".repeat(4096)]);
  });

  it("prefers a line break, then a space, near the end of each part", () => {
    const a = "a".repeat(17);
    const b = "b".repeat(17);
    assert.deepEqual(splitForTelegram(`${a}\n${b} ccccc`, 20), [`${a}\n`, `${b} `, "ccccc"]);
    // No break in the last fifth: a hard cut at the limit.
    assert.deepEqual(splitForTelegram("x".repeat(10) + " " + "x".repeat(14), 20), ["x".repeat(10) + " " + "x".repeat(9), "x".repeat(5)]);
  });

  it("never splits a surrogate pair", () => {
    const text = "a" + "😀".repeat(20);
    const parts = splitForTelegram(text, 10);
    assert.equal(parts.join(""), text);
    for (const p of parts) assert.ok(!/[\ud800-\udbff]$/.test(p) && !/^[\udc00-\udfff]/.test(p), JSON.stringify(p));
  });

  it("cuts past the part limit and says how much was cut", () => {
    const parts = splitForTelegram("y".repeat(100 * 20), 100, 3);
    assert.equal(parts.length, 3);
    assert.ok(parts.every((p) => p.length <= 100));
    const kept = parts.join("").replace(/\n\[cut: \d+ more characters\]$/, "");
    const cut = Number(/\[cut: (\d+) more/.exec(parts[2])![1]);
    assert.equal(kept.length + cut, 2000);
  });
});
