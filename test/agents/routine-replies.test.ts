// A fired routine's or wakeup's reply is delivered: over Telegram (a local Bot API
// stand-in) to the routine's chat while it is allowed, else to the owner's chat;
// kept as an owner alert when it cannot be sent; never sent twice; recorded in the
// episodic history. Real core, fake clock, the turn's provider on a local server.
import { nodeTimers } from "../../hosts/sim/ports/timers.ts";
import assert from "node:assert/strict";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { fakeClock, memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { AlertLog } from "../../lib/agents/alerts.ts";
import { deliverScheduledReply, type ReplyChannel } from "../../lib/agents/reply-delivery.ts";
import { memoryCore, type CoreRig } from "../support/memory.ts";
import { ProviderServer, recordingSleep } from "../support/provider-server.ts";
import { TelegramServer, TEST_BOT_TOKEN } from "../support/telegram-server.ts";
import { answer, openAiAnswer, openAiTools } from "../turn/support.ts";
import { MINUTE, owner } from "./support.ts";

const START = Date.UTC(2026, 0, 5, 9, 0); // a Monday
const OWNER_CHAT = "1001";
const TEAM_CHAT = "-2002";

describe("routines: the reply is delivered", () => {
  let openai: ProviderServer;
  let telegram: TelegramServer;
  let rig: CoreRig;
  beforeEach(async () => {
    openai = await ProviderServer.start();
    telegram = await TelegramServer.start();
    rig = memoryCore({
      core: { baseUrls: { openai: openai.url, telegram: telegram.url } },
      ports: { timers: { every: nodeTimers.every, sleep: recordingSleep().sleep } },
    });
    rig.clock.set(START);
    rig.core.secrets.set("openai", "sk-test-openai-ROUTINES");
    rig.core.secrets.set("telegram", TEST_BOT_TOKEN);
    assert.equal(rig.core.config.apply([["ownerChatId", OWNER_CHAT]], "owner"), undefined);
    assert.equal(rig.core.chats.replace([TEAM_CHAT]), undefined);
  });
  afterEach(async () => {
    await openai.close();
    await telegram.close();
  });

  const call = (name: string, args: object) => rig.core.registry.dispatch(name, args, owner);
  /** Creates and approves a daily 09:30 routine; returns its id. */
  async function routine(chatId?: string): Promise<string> {
    const args: { [k: string]: unknown } = { name: "Morning brief", prompt: "Summarise my day.", schedule: { kind: "daily", at: "09:30" } };
    if (chatId) args.chat_id = chatId;
    const id = /\b(r[0-9a-f]{8})\b/.exec((await call("loop.create", args)).text)![1];
    rig.core.routines.approve(id);
    return id;
  }
  /** Moves the clock to the next 09:30 and fires what is due. */
  async function fireAt930(day = 0): Promise<void> {
    rig.clock.set(START + day * 24 * 60 * MINUTE + 30 * MINUTE);
    await rig.core.scheduler.tick();
  }
  const sent = (): Array<[string, string]> => telegram.calls("sendMessage").map((r) => [String(r.params.chat_id), r.params.text]);

  it("sends the routine's reply to its allow-listed chat, then to the owner's chat once that chat is dropped", async () => {
    const id = await routine(TEAM_CHAT);
    openai.reply(
      openAiAnswer(answer({ reply: "Good morning: three meetings today." })),
      openAiAnswer(answer({ reply: "Tuesday: one meeting." })),
    );
    await fireAt930();
    assert.deepEqual(sent(), [[TEAM_CHAT, "Good morning: three meetings today."]]);
    assert.match(rig.core.routines.get(id)!.lastResult!, /^ok at 2026-01-05 09:30/);
    assert.match(
      openai.seen[0].json.instructions,
      /the device delivers your reply to the routine's chat or the owner's, so do not also send it with reply\.telegram\./,
    );

    rig.core.chats.replace([]);
    await fireAt930(1);
    assert.deepEqual(sent()[1], [OWNER_CHAT, "Tuesday: one meeting."]);
    assert.ok(rig.log.lines.includes(`loops: ${id}'s chat is no longer allowed; its reply goes to the owner's chat`));
    assert.deepEqual(rig.core.alerts.list(), []);

    // The whole reply is in the creator's episodic history, in the routine's session.
    const history = rig.core
      .episodic!.query({ namespaces: ["owner"], session: `routine:${id}` }, 10)
      .rows.map((r) => [r.kind, r.text.split("\n")[0]]);
    assert.deepEqual(history.slice(0, 2), [
      ["llm_response", "Tuesday: one meeting."],
      ["message", `Scheduled routine ${id} "Morning brief" (daily at 09:30), running unattended:`],
    ]);
  });

  it("sends a wakeup's reply to the owner's chat", async () => {
    await call("wakeup.set", { minutes: 2, note: "Check the oven timer." });
    openai.reply(openAiAnswer(answer({ reply: "The oven timer is done." })));
    rig.clock.advance(2 * MINUTE);
    await rig.core.scheduler.tick();
    assert.deepEqual(sent(), [[OWNER_CHAT, "The oven timer is done."]]);
    assert.deepEqual(rig.core.routines.list(), [], "the wakeup retired");
  });

  it("keeps the reply as an owner alert when Telegram is not set up, or no owner chat is set", async () => {
    const id = await routine();
    rig.core.secrets.clear("telegram");
    openai.reply(openAiAnswer(answer({ reply: "Line one.\nLine two." })), openAiAnswer(answer({ reply: "Second day." })));
    await fireAt930();
    assert.equal(telegram.requests.length, 0);
    assert.deepEqual(
      rig.core.alerts.list().map((a) => [a.source, a.message]),
      [[`routine ${id}`, "Reply not sent (Telegram is not set up): Line one. Line two."]],
    );
    assert.match(rig.core.routines.get(id)!.lastResult!, /^ok at /, "the turn itself succeeded");

    rig.core.secrets.set("telegram", TEST_BOT_TOKEN);
    rig.core.config.apply([["ownerChatId", ""]], "owner");
    await fireAt930(1);
    assert.equal(telegram.calls("sendMessage").length, 0);
    assert.equal(rig.core.alerts.list()[1].message, "Reply not sent (no owner chat is set): Second day.");
  });

  it("keeps the reply as an owner alert when Telegram refuses it", async () => {
    const id = await routine(TEAM_CHAT);
    telegram.fail("sendMessage", {
      status: 403,
      body: { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" },
    });
    openai.reply(openAiAnswer(answer({ reply: "Nobody will see this in the chat." })));
    await fireAt930();
    const [alert] = rig.core.alerts.list();
    assert.equal(alert.source, `routine ${id}`);
    assert.match(
      alert.message,
      /^Reply not sent \(Telegram refused to deliver to that chat \(HTTP 403\): Forbidden: bot was blocked by the user\): Nobody will see this in the chat\.$/,
    );
    assert.ok(!alert.message.includes(TEST_BOT_TOKEN.split(":")[1]), "the bot token is never in an alert");
  });

  it("does not send the reply again when the turn reported with reply.telegram, nor an empty reply, nor a failed turn's", async () => {
    const id = await routine();
    openai.reply(openAiTools(["reply_telegram", '{"text":"Report: all quiet."}']), openAiAnswer(answer({ reply: "Sent the report." })));
    await fireAt930();
    assert.deepEqual(sent(), [[OWNER_CHAT, "Report: all quiet."]]);

    openai.reply(openAiAnswer(answer({ reply: "" })));
    await fireAt930(1);
    openai.reply(
      { status: 500, body: { error: { message: "overloaded" } } },
      { status: 500, body: { error: { message: "overloaded" } } },
      { status: 500, body: { error: { message: "overloaded" } } },
    );
    await fireAt930(2);
    assert.equal(sent().length, 1);
    assert.deepEqual(rig.core.alerts.list(), []);
    assert.match(rig.core.routines.get(id)!.lastResult!, /^failed at 2026-01-07 09:30/);
  });
});

describe("deliverScheduledReply", () => {
  const channel = (over: Partial<ReplyChannel> = {}): ReplyChannel & { sent: Array<[string, string]> } => {
    const sent: Array<[string, string]> = [];
    return {
      sent,
      configured: () => true,
      ownerChat: () => OWNER_CHAT,
      targetProblem: (id) => (id === TEAM_CHAT || id === OWNER_CHAT ? undefined : "that chat is not on the owner's chat allow-list."),
      sendText: async (id, text) => (sent.push([id, text]), 1),
      ...over,
    };
  };
  const deps = (c: ReplyChannel) => {
    const log = memoryLog();
    return { channel: c, alerts: new AlertLog(memorySettings(), fakeClock(), log), log };
  };

  it("never throws and says what it did", async () => {
    const ok = deps(channel());
    assert.equal(
      await deliverScheduledReply(ok, { routineId: "r00000001", chatId: TEAM_CHAT, reply: "hi", reportedItself: false }),
      "sent",
    );
    assert.equal(await deliverScheduledReply(ok, { routineId: "r00000001", chatId: "-999", reply: "hi", reportedItself: false }), "sent");
    assert.deepEqual((ok.channel as ReturnType<typeof channel>).sent, [
      [TEAM_CHAT, "hi"],
      [OWNER_CHAT, "hi"],
    ]);
    assert.equal(await deliverScheduledReply(ok, { routineId: "r00000001", reply: "   ", reportedItself: false }), "nothing");
    const thrower = deps(channel({ sendText: () => Promise.reject("not an Error") }));
    assert.equal(await deliverScheduledReply(thrower, { routineId: "w00000002", reply: "x".repeat(5000), reportedItself: false }), "kept");
    const [alert] = thrower.alerts.list();
    assert.equal(alert.source, "wakeup w00000002");
    assert.ok(alert.message.startsWith("Reply not sent (the Telegram send failed): xxx"));
    assert.ok(alert.message.length <= 201, "the alert log's bound holds");
  });
});
