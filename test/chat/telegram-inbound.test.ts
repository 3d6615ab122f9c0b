// The inbound Telegram channel: the long-poll loop against a local Bot API server,
// gated by the chat allow-list, feeding a recording turn runner.
import assert from "node:assert/strict";
import {
  FAILED_TURN_REPLY,
  INBOUND_BACKOFF_MAX_MS,
  INBOUND_QUEUE_MAX,
  INBOUND_UNCONFIGURED_WAIT_MS,
  NON_TEXT_REPLY,
  TelegramInbound,
  type ChatTurnInput,
} from "../../lib/chat/telegram-inbound.ts";
import { derivePrincipal } from "../../lib/people/principals.ts";
import type { Principal } from "../../lib/registry/principal.ts";
import { memoryCore, type CoreRig } from "../support/memory.ts";
import { TelegramServer, TEST_BOT_TOKEN } from "../support/telegram-server.ts";

/** Polls `check` until it holds (real time: the loop runs over real sockets). */
async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for: ${what}`);
    await new Promise((ok) => setTimeout(ok, 5));
  }
}

interface Rig {
  rig: CoreRig;
  inbound: TelegramInbound;
  turns: Array<{ principal: Principal; input: ChatTurnInput }>;
  sleeps: number[];
  /** What the runner does with each turn (default: echo). */
  answer: (input: ChatTurnInput) => Promise<{ reply: string }>;
}

describe("Telegram inbound channel", () => {
  let server: TelegramServer;
  let r: Rig;

  function build(options: { token?: string | null } = {}): Rig {
    const rig = memoryCore({ core: { baseUrls: { telegram: server.url } } });
    const { core } = rig;
    if (options.token !== null) assert.equal(core.secrets.set("telegram", options.token ?? TEST_BOT_TOKEN), undefined);
    assert.equal(core.chats.replace(["42", "-1001"]), undefined);
    assert.equal(core.people.setRole("42", "user").ok, true);
    // Guest chats spend credit only when the owner allows it (lib/people/rails.ts).
    assert.equal(core.config.apply([["guestCredit", true]], "owner"), undefined);
    const out: Rig = {
      rig,
      turns: [],
      sleeps: [],
      answer: async (input) => ({ reply: `echo: ${input.text}` }),
      inbound: undefined as unknown as TelegramInbound,
    };
    out.inbound = new TelegramInbound({
      telegram: core.telegram.client,
      sendText: (chatId, text) => core.telegram.sendText(chatId, text),
      chats: core.chats,
      principalFor: (chatId) => derivePrincipal(core, "chat", chatId),
      rails: core.rails,
      runner: {
        runTurn: async (principal, input) => {
          out.turns.push({ principal, input });
          return out.answer(input);
        },
      },
      log: rig.log,
      // Waits are recorded; a short real pause keeps a failing loop from spinning.
      sleep: (ms) => {
        out.sleeps.push(ms);
        return new Promise((ok) => setTimeout(ok, 5));
      },
    });
    return out;
  }

  beforeEach(async () => {
    server = await TelegramServer.start();
  });
  afterEach(async () => {
    await r?.inbound.stop();
    await server.close();
  });

  const sentTexts = (): Array<[string, string]> => server.calls("sendMessage").map((q) => [q.params.chat_id, q.params.text]);

  it("runs a turn for an allowed chat and sends the reply back; an unknown chat never reaches the runner", async () => {
    r = build();
    server.message(99, "secret plans from a stranger");
    server.message(42, "hello halo");
    server.message(-1001, "group hello");
    r.inbound.start();
    await until(() => sentTexts().length === 2, "two replies");
    assert.deepEqual(
      r.turns.map((t) => [t.principal.ns, t.principal.role, t.principal.via, t.input]),
      [
        ["42", "user", "turn", { text: "hello halo", channel: "telegram" }],
        ["-1001", "guest", "turn", { text: "group hello", channel: "telegram" }],
      ],
    );
    assert.deepEqual(sentTexts(), [
      ["42", "echo: hello halo"],
      ["-1001", "echo: group hello"],
    ]);
    assert.deepEqual(
      server.calls("sendChatAction").map((q) => q.params),
      [
        { chat_id: "42", action: "typing" },
        { chat_id: "-1001", action: "typing" },
      ],
    );
    const lines = r.rig.log.lines.join("\n");
    assert.match(lines, /telegram: ignored a message from chat 99: it is not on the chat allow-list/);
    assert.ok(!lines.includes("secret plans"), "the unknown chat's text is never logged");
    assert.ok(!sentTexts().some(([chat]) => chat === "99"), "nothing is sent to the unknown chat");
    // Every update was acknowledged: the next poll's offset is past the last one.
    await until(() => server.calls("getUpdates").length >= 2, "a second poll");
    const polls = server.calls("getUpdates");
    assert.equal(polls[0].params.offset, 0);
    assert.equal(polls[polls.length - 1].params.offset, 1003);
  });

  it("logs each unknown chat once, however often it writes", async () => {
    r = build();
    for (let i = 0; i < 5; i++) server.message(99, `spam ${i}`);
    server.message(42, "ok");
    r.inbound.start();
    await until(() => sentTexts().length === 1, "the reply");
    assert.equal(r.rig.log.lines.filter((l) => l.includes("chat 99")).length, 1);
    assert.equal(r.turns.length, 1);
  });

  it("answers a non-text message honestly without a turn, and skips an empty turn reply", async () => {
    r = build();
    server.push({ message: { message_id: 5, chat: { id: 42, type: "private" }, photo: [{ file_id: "f" }] } });
    server.message(42, "   ");
    server.message(42, "say nothing");
    r.answer = async () => ({ reply: "  " });
    r.inbound.start();
    await until(() => r.turns.length === 1, "the turn");
    await new Promise((ok) => setTimeout(ok, 50));
    assert.deepEqual(sentTexts(), [
      ["42", NON_TEXT_REPLY],
      ["42", NON_TEXT_REPLY],
    ]);
  });

  it("sends a short apology when the turn fails, logging only the error's name", async () => {
    r = build();
    r.answer = async () => {
      throw new TypeError("model said something private");
    };
    server.message(42, "break please");
    r.inbound.start();
    await until(() => sentTexts().length === 1, "the apology");
    assert.deepEqual(sentTexts(), [["42", FAILED_TURN_REPLY]]);
    assert.ok(r.rig.log.lines.includes("warning: telegram: the turn for chat 42 failed (TypeError)"));
    assert.ok(!r.rig.log.lines.join("\n").includes("private"));
  });

  it("backs off on polling errors: doubling, Telegram's retry_after, long waits on a refused token", async () => {
    r = build();
    server.fail(
      "getUpdates",
      { status: 500, body: { ok: false, error_code: 500, description: "Internal Server Error" } },
      { status: 502, body: "<html>bad gateway</html>" },
      { status: 200, body: "{not json" },
      {
        status: 429,
        body: { ok: false, error_code: 429, description: "Too Many Requests: retry after 3", parameters: { retry_after: 3 } },
      },
      { status: 409, body: { ok: false, error_code: 409, description: "Conflict: terminated by other getUpdates request" } },
    );
    server.message(42, "after the storm");
    r.inbound.start();
    await until(() => sentTexts().length === 1, "the reply after recovery");
    assert.deepEqual(r.sleeps, [1000, 2000, 4000, 3000, INBOUND_BACKOFF_MAX_MS]);
    const warnings = r.rig.log.lines.filter((l) => l.startsWith("warning: telegram: polling failed"));
    assert.equal(warnings[0], "warning: telegram: polling failed (Telegram failed with HTTP 500: Internal Server Error); retrying in 1 s");
    assert.equal(warnings.length, 5);
  });

  it("never logs the token, even when the token is refused", async () => {
    r = build({ token: "999:WRONGwrongWRONGwrongWRONG" });
    r.inbound.start();
    await until(() => r.sleeps.length >= 2, "two failed polls");
    await r.inbound.stop();
    assert.deepEqual(r.sleeps.slice(0, 2), [INBOUND_BACKOFF_MAX_MS, INBOUND_BACKOFF_MAX_MS]);
    const lines = r.rig.log.lines.join("\n");
    assert.match(lines, /Telegram refused the bot token \(HTTP 401\)/);
    for (const secret of ["999:WRONG", "WRONGwrongWRONG", TEST_BOT_TOKEN, "/bot"]) assert.ok(!lines.includes(secret), secret);
  });

  it("polls nothing without a bot token, and looks again later", async () => {
    r = build({ token: null });
    r.inbound.start();
    await until(() => r.sleeps.length >= 1, "a wait");
    assert.equal(r.sleeps[0], INBOUND_UNCONFIGURED_WAIT_MS);
    assert.equal(server.requests.length, 0);
  });

  it("keeps at most INBOUND_QUEUE_MAX messages waiting and loses none", async () => {
    r = build();
    let release: () => void = () => undefined;
    let gate = new Promise<void>((ok) => (release = ok));
    r.answer = async (input) => {
      await gate;
      return { reply: `done ${input.text}` };
    };
    const total = INBOUND_QUEUE_MAX + 5;
    // The owner's chat: the owner is not rate-limited (a user's chat past RAILS_TURN_BURST is, see below).
    assert.equal(r.rig.core.people.setRole("42", "admin").ok, true);
    for (let i = 0; i < total; i++) server.message(42, `m${i}`);
    r.inbound.start();
    await until(() => r.turns.length === 1, "the first turn");
    await new Promise((ok) => setTimeout(ok, 100));
    // The first poll asked for a full queue's worth; while the queue is full no poll asks for more.
    const limits = server.calls("getUpdates").map((q) => q.params.limit);
    assert.equal(limits[0], INBOUND_QUEUE_MAX);
    assert.ok(
      limits.every((l) => l >= 1 && l <= INBOUND_QUEUE_MAX),
      String(limits),
    );
    const before = server.calls("getUpdates").length;
    await new Promise((ok) => setTimeout(ok, 100));
    assert.equal(server.calls("getUpdates").length, before, "no polling while the queue is full");
    release();
    gate = Promise.resolve();
    await until(() => sentTexts().length === total, "every reply");
    assert.deepEqual(
      sentTexts().map(([, t]) => t),
      Array.from({ length: total }, (_, i) => `done m${i}`),
    );
  });

  it("retries a reply Telegram rate-limits, waiting as asked", async () => {
    r = build();
    server.fail("sendMessage", {
      status: 429,
      body: { ok: false, error_code: 429, description: "Too Many Requests: retry after 2", parameters: { retry_after: 2 } },
    });
    server.message(42, "hi");
    r.inbound.start();
    await until(() => server.calls("sendMessage").length === 2, "the retried reply");
    assert.ok(r.sleeps.includes(2000));
    assert.equal(server.calls("sendMessage")[1].params.text, "echo: hi");
  });

  it("stops at once with a long poll in flight, acknowledging nothing more, and resumes after a restart", async () => {
    r = build();
    r.inbound.start();
    await until(() => server.calls("getUpdates").length === 1, "the first long poll");
    const t0 = Date.now();
    await r.inbound.stop();
    assert.ok(Date.now() - t0 < 1000, "stop does not wait for the long poll");
    assert.equal(r.inbound.running(), false);
    const polls = server.calls("getUpdates").length;
    server.message(42, "while stopped");
    await new Promise((ok) => setTimeout(ok, 100));
    assert.equal(server.calls("getUpdates").length, polls, "no poll after stop");
    assert.equal(r.turns.length, 0);
    r.inbound.start();
    await until(() => sentTexts().length === 1, "the reply after restart");
    assert.deepEqual(sentTexts(), [["42", "echo: while stopped"]]);
  });

  it("drops a message whose chat left the allow-list before its turn ran", async () => {
    r = build();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((ok) => (release = ok));
    r.answer = async (input) => {
      await gate;
      return { reply: `done ${input.text}` };
    };
    server.message(42, "first");
    server.message(-1001, "second");
    r.inbound.start();
    await until(() => r.turns.length === 1, "the first turn");
    r.rig.core.chats.replace(["42"]);
    release();
    await until(() => sentTexts().length === 1, "the first reply");
    await new Promise((ok) => setTimeout(ok, 50));
    assert.deepEqual(
      r.turns.map((t) => t.input.text),
      ["first"],
    );
  });
});
