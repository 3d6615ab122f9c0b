// Conversation state between turns (folding, persistence, a pulled card) and
// the prompt's bounded sections.
import assert from "node:assert/strict";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import {
  HISTORY_MAX_BYTES,
  HISTORY_MAX_TURNS,
  PROMPT_CAPABILITIES_MAX_BYTES,
  PROMPT_RECALL_MAX_BYTES,
  SUMMARY_MAX_BYTES,
} from "../../lib/turn/bounds.ts";
import { conversationPath, ConversationStore, emptyConversation, parseConversation, recordTurn } from "../../lib/turn/conversation.ts";
import { composePrompt, type PromptInput } from "../../lib/turn/prompt.ts";

const T0 = Date.UTC(2026, 0, 1);
const bytes = (s: string): number => Buffer.byteLength(s, "utf8");

describe("turn: conversation state", () => {
  it("keeps recent turns verbatim and folds older ones into a bounded summary", () => {
    const state = emptyConversation("owner");
    for (let i = 0; i < 40; i++) recordTurn(state, `question ${i} ${"q".repeat(400)}`, `answer ${i} ${"a".repeat(600)}`, T0 + i * 60000);
    assert.ok(state.turns.length <= HISTORY_MAX_TURNS);
    assert.ok(state.turns.reduce((n, t) => n + bytes(t.user) + bytes(t.reply), 0) <= HISTORY_MAX_BYTES);
    assert.equal(state.turns[state.turns.length - 1].user.slice(0, 11), "question 39");
    assert.ok(bytes(state.summary.join("\n")) <= SUMMARY_MAX_BYTES);
    // The summary holds the turns right before the verbatim ones, newest last.
    const firstKept = Number(/question (\d+)/.exec(state.turns[0].user)![1]);
    assert.match(
      state.summary[state.summary.length - 1],
      new RegExp(`they said: question ${firstKept - 1} q+…? / you said: answer ${firstKept - 1}`),
    );
    assert.match(state.summary[0], /^- 2026-01-01T\d\d:\d\dZ they said:/);
  });

  it("keeps a single oversized turn rather than dropping the newest", () => {
    const state = emptyConversation("owner");
    recordTurn(state, "x".repeat(50000), "y".repeat(50000), T0);
    assert.equal(state.turns.length, 1);
    assert.ok(bytes(state.turns[0].user) <= 2048);
  });

  it("survives a reboot on the card and refuses another namespace's or a damaged file", () => {
    const card = memoryStorage();
    const log = memoryLog();
    const store = new ConversationStore(card, log);
    const state = store.load("owner");
    recordTurn(state, "hello", "hi there", T0);
    state.note = "remember the tea";
    state.queryResults = [{ query: "tea", text: "- [80%] green" }];
    assert.equal(store.save(state), undefined);
    const again = new ConversationStore(card, log).load("owner");
    assert.deepEqual(again, state);
    // A file copied under another person's name is not theirs.
    card.files.set(conversationPath("guest"), card.files.get(conversationPath("owner"))!);
    assert.deepEqual(new ConversationStore(card, log).load("guest"), emptyConversation("guest"));
    card.files.set(conversationPath("owner"), new TextEncoder().encode("{torn"));
    assert.deepEqual(new ConversationStore(card, log).load("owner"), emptyConversation("owner"));
    assert.ok(log.lines.some((l) => /turn\/owner\.json is unreadable; starting afresh/.test(l)));
  });

  it("keeps the state in RAM while the card is out, and saves again once it is back", () => {
    const card = memoryStorage();
    const store = new ConversationStore(card, memoryLog());
    const state = store.load("owner");
    card.pull();
    recordTurn(state, "while out", "noted", T0);
    assert.match(store.save(state) ?? "", /not inserted, so this conversation is kept in RAM only/);
    assert.equal(store.load("owner").turns.length, 1);
    card.insert();
    assert.equal(store.save(state), undefined);
    assert.equal(new ConversationStore(card, memoryLog()).load("owner").turns[0].user, "while out");
  });

  it("hashes namespaces that are not safe file names", () => {
    assert.equal(conversationPath("owner"), "turn/owner.json");
    assert.match(conversationPath("../etc/passwd"), /^turn\/h-[0-9a-f]{8}\.json$/);
    assert.match(conversationPath("Ünïcode"), /^turn\/h-[0-9a-f]{8}\.json$/);
  });

  it("re-applies the bounds to a hand-made file", () => {
    const big = {
      ns: "owner",
      note: "n".repeat(5000),
      turns: Array.from({ length: 50 }, (_, i) => ({ user: `u${i}`, reply: "r", at: T0 })),
      summary: ["s".repeat(4000)],
      queryResults: [],
    };
    const state = parseConversation(JSON.stringify(big), "owner")!;
    assert.ok(state.turns.length <= HISTORY_MAX_TURNS);
    assert.ok(bytes(state.note) <= 600);
    assert.ok(bytes(state.summary.join("\n")) <= SUMMARY_MAX_BYTES);
  });
});

function promptInput(overrides: Partial<PromptInput> = {}): PromptInput {
  return {
    principal: makePrincipal("owner", "admin", "turn"),
    text: "hello",
    deviceName: "Halo",
    now: T0,
    timeZone: "Europe/Berlin",
    manifest: "- docs.list(file?): Browse the docs.",
    sessionOps: true,
    maxRounds: 4,
    recalled: "",
    state: emptyConversation("owner"),
    ...overrides,
  };
}

describe("turn: the prompt", () => {
  it("has the World, the contract, CAPABILITIES and the recalled memories, in that order", () => {
    const { system, messages } = composePrompt(
      promptInput({ recalled: "- [90%] likes tea", channel: "telegram", scratchpad: "Active task: (none)" }),
    );
    const order = ["# WORLD", "## HOW TO ANSWER", "## CAPABILITIES", "## SCRATCHPAD", "## RECALLED MEMORIES"].map((h) => system.indexOf(h));
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
    );
    assert.ok(order.every((i) => i >= 0));
    assert.match(
      system,
      /You are Halo, .*\nNow: 2026-01-01T00:00:00\.000Z \(the device's time zone is Europe\/Berlin\)\.\nYou are talking with "owner" \(role admin\) via telegram\./,
    );
    assert.match(system, /- docs\.list\(file\?\): Browse the docs\./);
    assert.deepEqual(messages, [{ role: "user", content: "hello" }]);
  });

  it("cuts oversized sections and says so", () => {
    const manifest = Array.from({ length: 400 }, (_, i) => `- tool.${i}(a, b?): ${"d".repeat(60)}`).join("\n");
    const { system } = composePrompt(promptInput({ manifest, recalled: "m".repeat(10000) }));
    const caps = system.slice(
      system.indexOf("## CAPABILITIES"),
      system.indexOf("## SCRATCHPAD") >= 0 ? system.indexOf("## SCRATCHPAD") : system.indexOf("## RECALLED"),
    );
    assert.ok(bytes(caps) <= PROMPT_CAPABILITIES_MAX_BYTES + 100);
    assert.match(caps, /\[cut: \d+ bytes in all\]/);
    const recall = system.slice(system.indexOf("## RECALLED MEMORIES"));
    assert.ok(bytes(recall) <= PROMPT_RECALL_MAX_BYTES + 100);
  });

  it("says what is not available to a guest and marks a scheduled turn", () => {
    const { system } = composePrompt(promptInput({ principal: makePrincipal("visitor", "guest", "turn", true), sessionOps: false }));
    assert.match(system, /session_ops: not available in this conversation/);
    assert.match(system, /scratchpad: not available in this conversation/);
    assert.match(system, /This is a scheduled turn/);
    assert.doesNotMatch(system, /## SCRATCHPAD/);
  });
});
