// The simulator's Telegram channel end to end: its own long-poll loop against a local
// Bot API server, the owner's allow-list set over the owner API, a real turn per message.
import assert from "node:assert/strict";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { ownerApi } from "../support/owner-api.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";
import { TelegramServer, TEST_BOT_TOKEN } from "../support/telegram-server.ts";

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for: ${what}`);
    await new Promise((ok) => setTimeout(ok, 10));
  }
}

describe("the simulator's Telegram channel", () => {
  let telegram: TelegramServer;
  let sim: TestSim;
  const log = memoryLog();

  before(async () => {
    telegram = await TelegramServer.start();
    sim = await startTestSim({
      initialSecrets: { telegram: TEST_BOT_TOKEN },
      baseUrls: { telegram: telegram.url },
      portOverrides: { log },
    });
  });
  after(async () => {
    await sim.stop();
    await telegram.close();
  });

  it("answers an allow-listed chat with a real turn and ignores every other chat", async () => {
    assert.equal((await ownerApi(sim, "PUT", "/api/chats", { chats: ["42"] })).status, 200);
    // The chat is a guest's: it reaches a turn once the owner lets guests spend credit (lib/people/rails.ts).
    assert.equal((await ownerApi(sim, "PUT", "/api/config/guestCredit", { value: true })).status, 200);
    telegram.message(99, "let me in");
    telegram.message(42, "hello from telegram");
    await until(() => telegram.calls("sendMessage").length >= 1, "the reply");
    const [reply] = telegram.calls("sendMessage");
    assert.equal(reply.params.chat_id, "42");
    // No language-model key is set in this simulator: the turn says so, in the chat.
    assert.match(reply.params.text, /^No language-model key is set yet/);
    assert.ok(!telegram.calls("sendMessage").some((r) => r.params.chat_id === "99"));
    assert.ok(log.lines.includes("telegram: ignored a message from chat 99: it is not on the chat allow-list"));
    assert.ok(!log.lines.join("\n").includes("let me in"));
    assert.ok(!log.lines.join("\n").includes(TEST_BOT_TOKEN.split(":")[1]));
  });

  it("reports the chat link in system.health, and stops the loop with the simulator", async () => {
    const health = await sim.halo.core.registry.dispatch(
      "system.health",
      {},
      { ns: "owner", role: "admin", via: "turn", scheduled: false, quota: { vectors: 1, bytes: 1, ttlHours: 0, pins: 1 } },
    );
    assert.match(health.text, /^- chat link: OK \(owner chat not set; the last exchange succeeded\)$/m);
    assert.equal(sim.halo.running(), true);
    const t0 = Date.now();
    await sim.halo.stop();
    assert.ok(Date.now() - t0 < 2000);
    assert.equal(sim.halo.running(), false);
  });
});
