// Skills' context on any engine: `{{...}}` references expanded once (what resolves, what does not, a
// message or a value holding references left as text, the bounds); context blocks rendered, cached,
// refreshed and served stale; the memory note's entries prepended and cut; the wallet's approvals kept on
// the card across a restart. The transcript is compared between Node and the XS host.
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { ContextBlocks, NOSTR_CONTEXT_REFRESH_S } from "../../lib/nostr/context-blocks.ts";
import type { NostrEvent } from "../../lib/nostr/event.ts";
import { entriesOf, NOSTR_MEMORY_MAX_CHARS, prependEntry } from "../../lib/nostr/memory-note.ts";
import { matchesSearch, searchWords } from "../../lib/nostr/search.ts";
import { applyTaskAction, parseTasks, tasksBlock, type Task, type TaskAction } from "../../lib/nostr/task-note.ts";
import { WalletRails } from "../../lib/wallet/rails.ts";
import { WALLET_APPROVALS_PATH } from "../../lib/wallet/approvals-file.ts";
import { NOSTR_SKILL_REFERENCES_MAX, referencesIn, skillTurnText, type ReferenceResolver } from "../../lib/nostr/references.ts";
import type { AdoptedSkill } from "../../lib/nostr/skills.ts";
import { makePrincipal, type Principal } from "../../lib/registry/principal.ts";

function skill(d: string, content: string): AdoptedSkill {
  return {
    id: d.padEnd(16, "0"),
    address: `31123:${"a".repeat(64)}:${d}`,
    author: "a".repeat(64),
    d,
    description: "",
    content,
    requiresTools: [],
    approved: true,
  };
}

/** A resolver with two blocks, one of them the owner's only; it records what it was asked. */
function fakeResolver(asked: string[]): ReferenceResolver {
  return (name: string, p: Principal) => {
    asked.push(name);
    if (name === "agent_identity") return Promise.resolve({ text: "pubkey: abc\nholds {{memory_recall}}" });
    if (name === "owner_notes") return Promise.resolve(p.role === "admin" ? { text: "x".repeat(2500) } : { unavailable: "admin-only" });
    if (name === "boom") return Promise.reject(new Error("boom"));
    return Promise.resolve({ unavailable: "not a context block" });
  };
}

export async function runSkillReferencesScenario(out: string[]): Promise<void> {
  const owner = makePrincipal("owner", "admin", "turn");
  const guest = makePrincipal("nostr-0123456789abcdef", "guest", "turn");
  out.push(`names ${JSON.stringify(referencesIn("a {{x}} b {{ y.z }} {{x}} {{}} {{secret.nostr-key}} {{{{n}}}}"))}`);
  const asked: string[] = [];
  const resolve = fakeResolver(asked);
  const s1 = skill("who", "Me: {{agent_identity}}\nNotes: {{owner_notes}}\nIn: {{message}}\nKey: {{secret.nostr-key}} {{nsec}} {{boom}}");
  for (const [who, p] of [
    ["owner", owner],
    ["guest", guest],
  ] as const) {
    const r = await skillTurnText("hello {{agent_identity}}", [s1], "message", p, resolve);
    out.push(`${who} text ${JSON.stringify(r.text.replace(/x{2000}/, "x*2000"))}`);
    out.push(`${who} unresolved ${JSON.stringify(r.unresolved)}`);
  }
  out.push(`asked ${JSON.stringify(asked)}`);
  // No {{message}}: the message follows under its label, as before references.
  const plain = await skillTurnText("the door is open", [skill("plain", "Report it.")], "fired by webhook", owner, resolve);
  out.push(`plain ${JSON.stringify(plain.text)}`);
  // No resolver (a host without the registry): every reference but the message is unavailable.
  const bare = await skillTurnText("m", [skill("bare", "{{agent_identity}} {{message}}")], "message", owner, undefined);
  out.push(`bare ${JSON.stringify(bare.text)}`);
  // Bounds: past NOSTR_SKILL_REFERENCES_MAX names, the rest are not looked up.
  const many = Array.from({ length: NOSTR_SKILL_REFERENCES_MAX + 3 }, (_, i) => `{{n${i}}}`).join(" ");
  asked.length = 0;
  const bounded = await skillTurnText("m", [skill("many", many)], "message", owner, resolve);
  out.push(
    `bounded asked=${asked.length} unresolved=${bounded.unresolved.length} last=${bounded.unresolved[bounded.unresolved.length - 1]}`,
  );
  out.push(`no skills ${JSON.stringify((await skillTurnText("just text {{message}}", [], "message", owner, resolve)).text)}`);
}

function attempt<T>(f: () => T): T | string {
  try {
    return f();
  } catch (e) {
    return `ERROR ${e instanceof Error ? e.message : String(e)}`;
  }
}

async function attemptAsync(f: () => Promise<string>): Promise<string> {
  try {
    return await f();
  } catch (e) {
    return `ERROR ${e instanceof Error ? e.message : String(e)}`;
  }
}

function event(kind: number, pubkey: string, at: number, content: string, tags: string[][] = []): NostrEvent {
  return { id: at.toString(16).padStart(64, "0"), pubkey, kind, created_at: at, tags, content, sig: "0".repeat(128) };
}

export async function runContextBlocksScenario(out: string[]): Promise<void> {
  const owner = "b".repeat(64);
  const device = "c".repeat(64);
  let now = 1_780_000_000;
  let ownerKey: string | undefined;
  /** What the relays hold; undefined: no relay connected. */
  let relays: NostrEvent[] | undefined = [];
  let queries = 0;
  const blocks = new ContextBlocks({
    settings: memorySettings(),
    nowSeconds: () => now,
    pubkeyOf: (s) => (s === "admin" ? ownerKey : device),
    query: (filters) => {
      if (!relays) return undefined;
      queries++;
      const f = filters[0] as { kinds: number[]; authors: string[] };
      return Promise.resolve(relays.filter((e) => f.kinds.includes(e.kind) && f.authors.includes(e.pubkey)));
    },
  });
  out.push(`no owner ${await attemptAsync(() => blocks.read("admin", "profile"))}`);
  ownerKey = owner;
  out.push(`nothing yet ${await attemptAsync(() => blocks.read("admin", "profile"))}`);
  relays.push(
    event(
      0,
      owner,
      now - 100,
      JSON.stringify({ name: "Ada", about: "Builds {{things}}.\nLine two", secret: "not a field", website: "x".repeat(400) }),
    ),
    event(0, "d".repeat(64), now, JSON.stringify({ name: "Mallory" })),
    event(3, owner, now - 50, "", [...Array.from({ length: 45 }, (_, i) => ["p", i.toString(16).padStart(64, "0")]), ["e", "x"]]),
    event(10002, device, now - 10, "", [
      ["r", "wss://a.example", "read"],
      ["r", "wss://b.example"],
      ["r", ""],
    ]),
  );
  for (let i = 0; i < 7; i++) relays.push(event(1, owner, now - 1000 + i, `note ${i} ${"y".repeat(i === 6 ? 400 : 3)}`));
  out.push(`profile ${JSON.stringify(await blocks.read("admin", "profile"))}`);
  const contacts = await blocks.read("admin", "contacts");
  out.push(
    `contacts ${JSON.stringify(contacts.split("\n").slice(0, 3))} lines=${contacts.split("\n").length} ${contacts.split("\n").pop()}`,
  );
  out.push(`relays ${JSON.stringify(await blocks.read("agent", "relays"))}`);
  out.push(`notes ${JSON.stringify(await blocks.read("admin", "notes"))}`);
  out.push(`queries ${queries}`);
  // Fresh: served from the cache with no query; the relays' newer profile is not asked for yet.
  relays.push(event(0, owner, now + 10, JSON.stringify({ name: "Ada Lovelace" })));
  now += 60;
  out.push(`cached ${(await blocks.read("admin", "profile")).split("\n")[1]} queries=${queries}`);
  now += NOSTR_CONTEXT_REFRESH_S;
  out.push(`refreshed ${(await blocks.read("admin", "profile")).split("\n")[1]} queries=${queries}`);
  // No relay: the stale block, saying so; a block never fetched is unavailable.
  relays = undefined;
  now += 2 * NOSTR_CONTEXT_REFRESH_S;
  out.push(`stale ${JSON.stringify((await blocks.read("admin", "profile")).split("\n").slice(1))}`);
  out.push(`never fetched ${await attemptAsync(() => blocks.read("agent", "notes"))}`);
  // A new owner key: the old owner's blocks are not theirs.
  ownerKey = "e".repeat(64);
  out.push(`new owner ${await attemptAsync(() => blocks.read("admin", "profile"))}`);
}

export function runMemoryNoteScenario(out: string[]): void {
  const t = 1_780_000_000;
  let note = prependEntry("", "User likes coffee.", t).text;
  note = prependEntry(note, "Meeting moved to\r\nFriday\n---\nreally", t + 60).text;
  out.push(`note ${JSON.stringify(note)}`);
  out.push(`entries ${JSON.stringify(entriesOf(note))}`);
  out.push(`empty ${attempt(() => prependEntry(note, "   ", t))}`);
  out.push(`too long ${attempt(() => prependEntry(note, "z".repeat(2001), t))}`);
  let dropped = 0;
  for (let i = 0; i < 20; i++) {
    const r = prependEntry(note, `entry ${i} ${"w".repeat(1500)}`, t + i);
    note = r.text;
    dropped += r.dropped;
  }
  const kept = entriesOf(note);
  out.push(
    `bounded chars=${note.length}<=${NOSTR_MEMORY_MAX_CHARS} entries=${kept.length} dropped=${dropped} newest=${kept[0].slice(0, 27)} oldest=${kept[kept.length - 1].slice(0, 27)}`,
  );
}

export function runApprovalsScenario(out: string[]): void {
  const storage = memoryStorage();
  const settings = memorySettings();
  let now = Date.UTC(2026, 10, 1);
  let seed = 7;
  const random = {
    fill: (b: Uint8Array): void => {
      for (let i = 0; i < b.length; i++) b[i] = seed = (seed * 31 + 11) % 251;
    },
  };
  const warnings: string[] = [];
  const log = { info: () => undefined, warn: (m: string) => void warnings.push(m) };
  const make = (): WalletRails => new WalletRails({ settings, clock: { now: () => now }, random, storage, log });
  const owner = makePrincipal("owner", "admin", "turn");
  let rails = make();
  const pay = rails.gate(owner, { kind: "send", amount: 5000 });
  const held = rails.holdToken("cashuBsecret-token-one", 21, "https://mint.example", "nostr", "a DM from abc");
  const held2 = rails.holdToken("cashuBsecret-token-two", 8, "https://mint.example", "nostr", "a DM from abc");
  out.push(`waiting ${pay.go ? "none" : pay.approval.id} ${held.id} ${held2.id}`);
  const file = new TextDecoder().decode(storage.files.get(WALLET_APPROVALS_PATH));
  out.push(`on the card: ${file.includes("cashuBsecret-token-one")} ${/^[0-9a-f]{8} \{/.test(file)}`);
  // A restart: a new rails object over the same card and settings.
  rails = make();
  out.push(`after restart ${JSON.stringify(rails.list().map((a) => [a.id, a.kind, a.amount, a.state]))}`);
  out.push(`no token shown ${!JSON.stringify(rails.list()).includes("cashuB")}`);
  const redeem = rails.approve(held.id);
  out.push(`approve held: ${redeem.approval.state} token=${redeem.token}`);
  // The power is cut while the token is received: it waits for the owner again, token and all.
  rails = make();
  out.push(`cut mid-redeem ${JSON.stringify(rails.list().map((a) => [a.id, a.state]))}`);
  const again = rails.approve(held.id);
  rails.redeemed(held.id, true);
  out.push(`redeemed ${again.token} left=${rails.list().length}`);
  if (!pay.go) {
    rails.approve(pay.approval.id);
    rails = make();
    out.push(`approved payment kept ${JSON.stringify(rails.list().map((a) => [a.id, a.state]))}`);
    out.push(`used ${JSON.stringify(rails.gate(owner, { kind: "send", amount: 5000 }, pay.approval.id))}`);
    out.push(`used twice ${attempt(() => JSON.stringify(rails.gate(owner, { kind: "send", amount: 5000 }, pay.approval.id)))}`);
  }
  // A pulled card: the change is refused and nothing in memory changes.
  storage.pull();
  out.push(`pulled ${attempt(() => rails.reject(held2.id).id)} still=${rails.list().length}`);
  storage.insert();
  // A damaged file is kept aside and nothing waits (logged), rather than a half-read list.
  storage.files.set(WALLET_APPROVALS_PATH, new TextEncoder().encode('00000000 {"approvals":[]}\n'));
  rails = make();
  out.push(`damaged ${rails.list().length} kept=${storage.files.has("wallet/approvals.bad")} ${warnings.join("; ")}`);
  // Expired after a day: dropped from the card too.
  const late = rails.gate(owner, { kind: "send", amount: 4000 });
  now += 25 * 3600 * 1000;
  out.push(`expired ${late.go ? "-" : rails.list().length} ${make().list().length}`);
}

export function runTasksScenario(out: string[]): void {
  let tasks: Task[] = parseTasks("");
  const t = 1_780_000_000;
  const steps: TaskAction[] = [
    { action: "add", text: "Finish documentation", status: "active" },
    { action: "add", text: "Water\nthe plants" },
    { action: "update", id: "t2", status: "done" },
    { action: "update", id: "t1" },
    { action: "update", id: "t9", status: "done" },
    { action: "remove", id: "t1" },
    { action: "add", text: "Call the plumber", status: "blocked" },
    { action: "add", text: "   " },
    { action: "add", text: "q".repeat(501) },
    { action: "list" },
  ];
  for (const a of steps) {
    const r = attempt(() => applyTaskAction(tasks, a, t));
    if (typeof r === "string") out.push(`task ${a.action} ${r}`);
    else {
      tasks = r.tasks;
      out.push(`task ${a.action} ${r.summary} ${JSON.stringify(tasks.map((x) => [x.id, x.status, x.text]))}`);
    }
  }
  out.push(`block ${JSON.stringify(tasksBlock(tasks))}`);
  const full = attempt(() => {
    let list = tasks;
    for (let i = 0; i < 60; i++) list = applyTaskAction(list, { action: "add", text: `task ${i}` }, t).tasks;
    return list.length;
  });
  out.push(`full ${full}`);
  const replaced = applyTaskAction(tasks, { action: "replace", tasks: [{ text: "one" }, { text: "two", status: "active" }] }, t);
  out.push(`replace ${replaced.summary} ${JSON.stringify(replaced.tasks.map((x) => x.id))}`);
  out.push(`clear ${applyTaskAction(replaced.tasks, { action: "clear" }, t).summary}`);
  out.push(`not a list ${attempt(() => parseTasks("User likes coffee."))}`);
  out.push(
    `foreign entries ${JSON.stringify(parseTasks('{"tasks":[{"id":"t1","text":"ok","status":"done","updated":1},{"id":5},{"id":"t2","text":"x","status":"evil"}]}').map((x) => x.id))}`,
  );
  // NIP-50: plain words matched locally, extensions left to the relay.
  const words = searchWords("  Bitcoin  DESK language:en include:spam ");
  const note = (content: string): NostrEvent => event(1, "a".repeat(64), t, content);
  out.push(
    `search ${JSON.stringify(words)} ${matchesSearch(note("A bitcoin desk lamp"), words)} ${matchesSearch(note("bitcoin only"), words)} ${matchesSearch(note("x"), [])}`,
  );
}

/** Every part of the scenario, in order. */
export async function runSkillContextScenario(): Promise<string[]> {
  const out: string[] = [];
  await runSkillReferencesScenario(out);
  await runContextBlocksScenario(out);
  runMemoryNoteScenario(out);
  runTasksScenario(out);
  runApprovalsScenario(out);
  return out;
}
