// The owner's Telegram commands against the Bot API stand-in and the simulator: decisions on skills,
// routines and downloads, the update engine, status and mute, from the owner's chat (ownerChatId) only.
// Another chat, allow-listed or not, gets nothing useful and changes nothing; no command runs a turn.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildAppImage } from "../../hosts/sim/ports/ota-image.ts";
import { memoryLog, nodeSha256 } from "../../hosts/sim/ports/node-basics.ts";
import { startSimulator, type RunningSim } from "../../hosts/sim/start.ts";
import { NOT_OWNER_REPLY, OWNER_COMMANDS_HELP, parseOwnerCommand } from "../../lib/chat/owner-commands.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { digestWith, signedFeed, signingKey } from "../support/ota-fixtures.ts";
import { startReleaseServer, type ReleaseHttpServer } from "../support/release-http-server.ts";
import { TelegramServer, TEST_BOT_TOKEN } from "../support/telegram-server.ts";

const OWNER_CHAT = 7001;
const MEMBER_CHAT = 42;
const STRANGER_CHAT = 99;

describe("the owner's Telegram commands", function () {
  this.timeout(30_000);
  const key = signingKey(11);
  const log = memoryLog();
  let telegram: TelegramServer;
  let releases: ReleaseHttpServer;
  let dataDir: string;
  let sim: RunningSim;
  let token: string;
  const admin = makePrincipal("owner", "admin", "turn");

  const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const res = await fetch(sim.url + path, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  /** Sends a message from a chat and waits for the bot's next reply to that chat (or for none, briefly). */
  const say = async (chat: number, text: string, expectReply = true): Promise<string | undefined> => {
    const before = telegram.calls("sendMessage").filter((c) => c.params.chat_id === String(chat)).length;
    const id = telegram.message(chat, text);
    const end = Date.now() + (expectReply ? 10_000 : 600);
    for (;;) {
      const sent = telegram.calls("sendMessage").filter((c) => c.params.chat_id === String(chat));
      if (sent.length > before) return String(sent[before].params.text);
      if (Date.now() > end) {
        if (expectReply) assert.fail(`no reply to ${text}`);
        // Polled past: the loop has read the update and answered nothing.
        assert.ok(
          telegram.calls("getUpdates").some((c) => Number(c.params.offset) > id),
          "the update was read",
        );
        return undefined;
      }
      await new Promise((ok) => setTimeout(ok, 10));
    }
  };
  const publish = (version: string): void => {
    const image = buildAppImage(version, 40_000);
    releases.files.set(`/halo-${version}.bin`, image);
    const feed = signedFeed({ version, url: `halo-${version}.bin`, image, key, sha256: digestWith(nodeSha256) });
    releases.files.set("/feed.json", new TextEncoder().encode(JSON.stringify(feed)));
  };

  before(async () => {
    telegram = await TelegramServer.start();
    releases = await startReleaseServer();
    dataDir = mkdtempSync(join(tmpdir(), "halo-cmd-"));
    sim = await startSimulator({
      dataDir,
      host: "127.0.0.1",
      port: 0,
      portOverrides: { log },
      initialSecrets: { telegram: TEST_BOT_TOKEN },
      baseUrls: { telegram: telegram.url },
      ota: { feedUrl: `${releases.url}/feed.json`, trustedKeys: [key.publicHex] },
    });
    token = readFileSync(sim.tokenPath, "utf8").trim();
    // The owner's chat is not on the allow-list; a member's chat is, and may spend credit.
    assert.equal((await api("PUT", "/api/config/ownerChatId", { value: String(OWNER_CHAT) })).status, 200);
    assert.equal((await api("PUT", "/api/chats", { chats: [String(MEMBER_CHAT)] })).status, 200);
    assert.equal((await api("PUT", "/api/config/guestCredit", { value: true })).status, 200);
  });
  after(async () => {
    await sim.close();
    await telegram.close();
    await releases.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("parses the seed's commands, a group's /cmd@bot form, and nothing without a leading slash", () => {
    assert.deepEqual(parseOwnerCommand("/skill approve tea-guide"), { kind: "decide", what: "skill", verb: "approve", id: "tea-guide" });
    assert.deepEqual(parseOwnerCommand("/loop@halo_bot reject r1a2b3c4d"), {
      kind: "decide",
      what: "loop",
      verb: "reject",
      id: "r1a2b3c4d",
    });
    assert.deepEqual(parseOwnerCommand("/fetch"), { kind: "pending", what: "fetch" });
    assert.deepEqual(parseOwnerCommand(" /update install "), { kind: "update", install: true });
    assert.deepEqual(parseOwnerCommand("/MUTE"), { kind: "mute", on: true });
    assert.deepEqual(parseOwnerCommand("/skill approve"), { kind: "unknown", word: "skill" });
    assert.deepEqual(parseOwnerCommand("/reboot now"), { kind: "unknown", word: "reboot" });
    assert.equal(parseOwnerCommand("please /mute"), undefined);
    assert.equal(parseOwnerCommand(""), undefined);
  });

  it("approves and rejects what waits: a skill, a routine, a download link", async () => {
    const core = sim.halo.core;
    assert.equal(
      (await core.registry.dispatch("skill.save", { id: "tea-guide", md: "# Tea\nCite the region." }, admin)).isError,
      undefined,
    );
    assert.equal((await core.registry.dispatch("skill.save", { id: "bad-idea", md: "# No" }, admin)).isError, undefined);
    const loop = await core.registry.dispatch(
      "loop.create",
      { name: "Morning brief", prompt: "Summarise my day.", schedule: { kind: "daily", at: "09:30" } },
      admin,
    );
    const routine = /\b(r[0-9a-f]{8})\b/.exec(loop.text)![1];
    assert.equal((await api("PUT", "/api/downloads/policy", { policy: "ask" })).status, 200);
    const fetched = await core.registry.dispatch("files.fetch", { url: "https://example.com/a.md", project: "dl", name: "a.md" }, admin);
    const link = /\b(f[0-9a-f]{8})\b/.exec(fetched.text)![1];

    assert.equal(await say(OWNER_CHAT, "/skill"), "skill capsules waiting for you:\n- bad-idea: No\n- tea-guide: Tea");
    assert.equal(await say(OWNER_CHAT, "/skill approve tea-guide"), "Skill tea-guide approved.");
    assert.equal(core.skills.injectable("tea-guide"), "# Tea\nCite the region.");
    assert.equal(await say(OWNER_CHAT, "/skill reject bad-idea"), "Skill bad-idea rejected.");
    assert.equal(core.skills.get("bad-idea"), undefined);
    assert.equal(await say(OWNER_CHAT, "/skill approve bad-idea"), "not-found: no skill capsule awaits approval under that id.");

    assert.equal(await say(OWNER_CHAT, "/loop"), `routines waiting for you:\n- ${routine}: Morning brief`);
    assert.equal(await say(OWNER_CHAT, `/loop approve ${routine}`), `Routine ${routine} "Morning brief" approved.`);
    assert.equal(core.routines.list().find((r) => r.id === routine)!.approved, true);
    assert.equal(await say(OWNER_CHAT, `/loop reject ${routine}`), `not-found: no routine ${routine} awaits approval.`);

    assert.match(
      (await say(OWNER_CHAT, "/fetch"))!,
      new RegExp(`^download links waiting for you:\\n- ${link}: dl/a\\.md from https://example\\.com/a\\.md$`),
    );
    assert.equal(await say(OWNER_CHAT, `/fetch reject ${link}`), `Download ${link} (dl/a.md) rejected.`);
    assert.equal(core.downloads.all().find((j) => j.id === link)!.state, "rejected");
    assert.equal(await say(OWNER_CHAT, "/fetch approve ../../etc"), "not-found: no link awaits approval under that id.");
    assert.equal(await say(OWNER_CHAT, "/fetch"), "No download links wait for you.");
    assert.equal(await say(OWNER_CHAT, `/skill approve ${"x".repeat(500)}`), "not-found: nothing waits under that id.");
    assert.match((await say(OWNER_CHAT, "/reboot"))!, /^Unknown command \/reboot\.\n\nOwner commands:/);
    assert.equal(await say(OWNER_CHAT, "/help"), OWNER_COMMANDS_HELP);
  });

  it("mutes and unmutes, and says the status in a few lines", async () => {
    assert.match((await say(OWNER_CHAT, "/mute"))!, /^Muted/);
    assert.equal(sim.halo.core.config.string("profile"), "silent");
    const status = (await say(OWNER_CHAT, "/status"))!;
    assert.match(status, /^Halo 0\.1\.0-sim, update: idle\nWaiting for you: 0 skills, 0 routines, 0 links\nSound: profile silent, /);
    assert.ok(status.length < 400, status);
    assert.match((await say(OWNER_CHAT, "/unmute"))!, /^Sound is back/);
    assert.equal(sim.halo.core.config.string("profile"), "normal");
  });

  it("checks for an update and installs it, replying before the restart", async () => {
    assert.equal(await say(OWNER_CHAT, "/update install"), "conflict: no update is available to install: /update checks for one first.");
    publish("0.2.0");
    assert.equal(await say(OWNER_CHAT, "/update"), "Version 0.2.0 is available (running 0.1.0-sim). /update install installs it.");
    assert.equal(await say(OWNER_CHAT, "/update install"), "Version 0.2.0 is written and verified; restarting into it now.");
    for (let i = 0; i < 100 && (await api("GET", "/api/ota")).json.state !== "restarting"; i++)
      await new Promise((ok) => setTimeout(ok, 20));
    assert.equal((await api("GET", "/api/ota")).json.state, "restarting");
    assert.ok(log.lines.some((l) => /restart requested/.test(l)));
  });

  it("answers other chats nothing useful and changes nothing; a stranger gets no answer at all", async () => {
    const core = sim.halo.core;
    assert.equal((await core.registry.dispatch("skill.save", { id: "sneaky", md: "# Sneaky" }, admin)).isError, undefined);
    for (const text of ["/skill approve sneaky", "/mute", "/update install", "/status", "/fetch"])
      assert.equal(await say(MEMBER_CHAT, text), NOT_OWNER_REPLY, text);
    assert.equal(core.config.string("profile"), "normal");
    assert.equal(core.skills.get("sneaky")!.info.approved, false);
    for (const text of ["/skill approve sneaky", "/mute"]) assert.equal(await say(STRANGER_CHAT, text, false), undefined);
    assert.equal(core.skills.get("sneaky")!.info.approved, false);
    assert.equal(core.config.string("profile"), "normal");
    // The owner moves to another chat: the old one is an ordinary chat from then on.
    assert.equal((await api("PUT", "/api/config/ownerChatId", { value: "7002" })).status, 200);
    assert.equal(await say(OWNER_CHAT, "/skill approve sneaky", false), undefined, "off the allow-list: ignored");
    assert.equal(core.skills.get("sneaky")!.info.approved, false);
  });
});
