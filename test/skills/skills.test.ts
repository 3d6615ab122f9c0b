// skill.list/get/save/delete, the owner's approval functions, and the card faults.
import assert from "node:assert/strict";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { DOCS_SECTION_MAX_BYTES, SKILL_INJECT_WORDS_MAX, SKILLS_MAX_PENDING } from "../../lib/limits.ts";
import { injectMatches, injectWords } from "../../lib/store/skills.ts";
import { BUILTIN_SKILLS } from "../../lib/store/skills-builtin.ts";
import { filesHarness } from "../files/support.ts";
import { principal, callContext } from "../support/registry.ts";

const owner = principal("admin", "turn", "owner");
const member = principal("user", "turn", "member");
const guest = principal("guest", "mcp", "guest");
const text = (b: Uint8Array | undefined): string => new TextDecoder().decode(b);

describe("skills", () => {
  it("lists and reads the four built-in capsules, each within one result page", async () => {
    const h = filesHarness();
    const list = await h.call("skill.list", {}, guest);
    assert.equal(
      list.text,
      [
        "Skill capsules:",
        "- architecture: How Halo is built (built-in)",
        "- deep-research: Deep research playbook (built-in)",
        "- hardware: Halo hardware (built-in)",
        "- tools-guide: Using Halo's tools well (built-in)",
      ].join("\n"),
    );
    for (const b of BUILTIN_SKILLS) {
      const r = await h.call("skill.get", { id: b.id }, guest);
      assert.equal(r.text, b.md);
      assert.equal(r.truncated, undefined);
      assert.ok(new TextEncoder().encode(b.md).length <= DOCS_SECTION_MAX_BYTES, `${b.id} fits one page`);
    }
    assert.equal(
      (await h.call("skill.get", { id: "nope" }, guest)).text,
      "not-found: no capsule 'nope'. Capsules: architecture, deep-research, hardware, tools-guide.",
    );
  });

  it("stamps a saved capsule created_by agent, approved false, whatever its front matter claims", async () => {
    const h = filesHarness();
    const md = "---\ntitle: Weekly report\ninject: report tasks\ncreated_by: owner\napproved: true\n---\n# Steps\n1. Gather.\n";
    const r = await h.call("skill.save", { id: "weekly-report", md }, owner);
    assert.match(
      r.text,
      /^Saved capsule weekly-report \(\d+ bytes\)\. It is inert until the owner approves it \(at most 4 wait at once\); do not count on it in this task\.$/,
    );
    const stored = text(h.storage.read("skills/weekly-report.md"));
    assert.equal(
      stored,
      "---\ntitle: Weekly report\ninject: report tasks\ncreated_by: agent\napproved: false\nsaved: 2026-01-01T00:00:00.000Z\n---\n# Steps\n1. Gather.\n",
    );
    assert.equal(
      (await h.call("skill.get", { id: "weekly-report" }, member)).text,
      stored + "\n\n[this capsule awaits the owner's approval: it is never injected until then]",
    );
    assert.match((await h.call("skill.list", {}, member)).text, /\n- weekly-report: Weekly report \(agent, awaiting approval\)$/);
    assert.equal(h.skills.injectable("weekly-report"), undefined, "inert until approved");
    assert.deepEqual(
      h.skills.listPending().map((s) => [s.id, s.inject]),
      [["weekly-report", "report tasks"]],
    );
    h.skills.approve("weekly-report");
    assert.equal(h.skills.injectable("weekly-report"), "# Steps\n1. Gather.\n");
    assert.match((await h.call("skill.list", {}, member)).text, /- weekly-report: Weekly report \(agent, approved\)$/);
    await h.call("skill.save", { id: "weekly-report", md: "# Changed\nnew steps" }, owner);
    assert.equal(h.skills.injectable("weekly-report"), undefined, "a changed capsule needs approval again");
    assert.match((await h.call("skill.list", {}, member)).text, /- weekly-report: Changed \(agent, awaiting approval\)$/);
  });

  it(`lets at most ${SKILLS_MAX_PENDING} agent capsules await approval`, async () => {
    const h = filesHarness();
    for (let i = 1; i <= SKILLS_MAX_PENDING; i++)
      assert.equal((await h.call("skill.save", { id: `s${i}`, md: `# S${i}` }, owner)).isError, undefined);
    assert.equal(
      (await h.call("skill.save", { id: "s5", md: "# S5" }, owner)).text,
      "limit: 4 capsules already await the owner's approval; wait until they approve or reject one.",
    );
    assert.equal(
      (await h.call("skill.save", { id: "s1", md: "# S1 again" }, owner)).isError,
      undefined,
      "updating a waiting capsule is fine",
    );
    h.skills.reject("s2");
    assert.equal(h.storage.read("skills/s2.md"), undefined);
    assert.equal((await h.call("skill.save", { id: "s5", md: "# S5" }, owner)).isError, undefined);
    h.skills.approve("s3");
    assert.equal((await h.call("skill.save", { id: "s6", md: "# S6" }, owner)).isError, undefined);
    assert.deepEqual(
      h.skills
        .listPending()
        .map((s) => s.id)
        .sort(),
      ["s1", "s4", "s5", "s6"],
    );
    assert.throws(() => h.skills.reject("s3"), /not-found: no capsule s3 awaits approval/);
    assert.throws(() => h.skills.approve("architecture"), /not-found/);
  });

  it("keeps skill.save and skill.delete to the owner, outside scheduled turns", async () => {
    const h = filesHarness();
    for (const p of [member, guest]) {
      assert.equal((await h.call("skill.save", { id: "x", md: "# x" }, p)).text, "admin-only: skill.save needs an admin conversation.");
      assert.equal((await h.call("skill.delete", { id: "x" }, p)).text, "admin-only: skill.delete needs an admin conversation.");
      assert.ok(!h.registry.toolSpecsFor(p).some((t) => t.name === "skill.save" || t.name === "skill.delete"));
    }
    const scheduled = principal("admin", "turn", "owner", true);
    assert.equal(
      (await h.call("skill.save", { id: "x", md: "# x" }, scheduled)).text,
      "scheduled-refused: skill.save is not allowed in a scheduled turn.",
    );
    const save = h.registry.all().find((t) => t.name === "skill.save")!;
    assert.throws(() => save.handler({ id: "x", md: "# x" }, callContext(member), {}), /admin-only/);
    assert.equal(h.storage.list("skills").length, 0);
  });

  it("deletes only agent-authored capsules", async () => {
    const h = filesHarness();
    await h.call("skill.save", { id: "mine", md: "# mine" }, owner);
    h.skills.saveByOwner("owners", "# the owner's own");
    h.storage.writeAtomic("skills/by-hand.md", new TextEncoder().encode("# Copied onto the card"));
    assert.equal((await h.call("skill.delete", { id: "mine" }, owner)).text, "Deleted capsule mine.");
    assert.equal((await h.call("skill.delete", { id: "mine" }, owner)).text, "not-found: no capsule mine.");
    assert.equal(
      (await h.call("skill.delete", { id: "owners" }, owner)).text,
      "owner-created: the capsule owners was written by the owner; only they can delete it (owner API).",
    );
    assert.equal(
      (await h.call("skill.delete", { id: "by-hand" }, owner)).text,
      "owner-created: the capsule by-hand was written by the owner; only they can delete it (owner API).",
    );
    assert.equal(
      (await h.call("skill.delete", { id: "hardware" }, owner)).text,
      "reserved: hardware is a built-in capsule and cannot be replaced.",
    );
    assert.equal(
      (await h.call("skill.save", { id: "owners", md: "# take over" }, owner)).text,
      "owner-created: the capsule owners was written by the owner; choose another id.",
    );
    assert.equal(h.skills.injectable("by-hand"), "# Copied onto the card");
    h.skills.removeByOwner("owners");
    assert.equal(h.storage.read("skills/owners.md"), undefined);
  });

  it("refuses reserved and malformed ids, empty, binary and oversized capsules", async () => {
    const h = filesHarness();
    const cases: Array<[object, string | RegExp]> = [
      [{ id: "tools-guide", md: "# mine now" }, "reserved: tools-guide is a built-in capsule and cannot be replaced."],
      [{ id: "Upper", md: "# x" }, "invalid id: use 1-23 of a-z, 0-9, '-' and '_'."],
      [{ id: "../evil", md: "# x" }, "invalid id: use 1-23 of a-z, 0-9, '-' and '_'."],
      [{ id: "a.b", md: "# x" }, "invalid id: use 1-23 of a-z, 0-9, '-' and '_'."],
      [{ id: "x".repeat(24), md: "# x" }, /'id' must NOT have more than 23 characters/],
      [{ id: "", md: "# x" }, /'id' must NOT have fewer than 1 characters/],
      [{ id: "ok", md: "" }, /'md' must NOT have fewer than 1 characters/],
      [{ id: "ok", md: 3 }, /'md' must be string/],
      [{ id: "ok" }, /'md' is required/],
      [{ id: "ok", md: "---\ntitle: only front matter\n---\n   \n" }, "invalid: the capsule has no text after its front matter."],
      [{ id: "ok", md: "# x\u0000" }, "binary: the capsule contains control characters; write markdown text."],
      [{ id: "ok", md: "é".repeat(4090) }, /^too-large: the capsule is \d+ bytes with its front matter; at most 8192\.$/],
    ];
    for (const [args, expected] of cases) {
      const t = (await h.call("skill.save", args, owner)).text;
      if (typeof expected === "string") assert.equal(t, expected);
      else assert.match(t, expected);
    }
    assert.equal(h.storage.list("skills").length, 0);
    assert.match((await h.call("skill.get", { id: "../x" }, owner)).text, /^not-found: no capsule '\.\.\/x'/);
    assert.match((await h.call("skill.get", {}, owner)).text, /'id' is required/);
  });

  it("with the card out lists the built-ins and refuses writes; a pull mid-write keeps the old capsule", async () => {
    let armed = false;
    const storage = memoryStorage(64 * 1024 * 1024, { beforeRename: () => void (armed && storage.pull()) });
    const h = filesHarness({ storage });
    await h.call("skill.save", { id: "keep", md: "# version one" }, owner);
    armed = true;
    assert.equal(
      (await h.call("skill.save", { id: "keep", md: "# version two" }, owner)).text,
      "no-card: the SD card was removed during the operation; the previous version of the file is intact.",
    );
    armed = false;
    assert.match(
      (await h.call("skill.list", {}, owner)).text,
      /^Skill capsules:\n(- .* \(built-in\)\n){4}The SD card is not available: only the built-in capsules are listed\.$/,
    );
    assert.equal((await h.call("skill.get", { id: "architecture" }, owner)).isError, undefined);
    assert.equal((await h.call("skill.get", { id: "keep" }, owner)).text, "no-card: the SD card is not inserted; insert it and try again.");
    assert.equal(
      (await h.call("skill.delete", { id: "keep" }, owner)).text,
      "no-card: the SD card is not inserted; insert it and try again.",
    );
    assert.deepEqual(h.skills.listPending(), []);
    storage.insert();
    assert.match((await h.call("skill.get", { id: "keep" }, owner)).text, /# version one/);
  });
});

describe("a capsule's inject: words", () => {
  it("match a task as whole words or phrases, case-insensitive; always matches every task; bounded", () => {
    assert.deepEqual(injectWords(" Oolong, green tea ;; x ,weekly report"), ["oolong", "green tea", "weekly report"]);
    assert.equal(injectWords(Array.from({ length: 20 }, (_, i) => `w${i}`).join(",")).length, SKILL_INJECT_WORDS_MAX);
    assert.equal(injectMatches("oolong, green tea", "Compare OOLONG teas"), true);
    assert.equal(injectMatches("oolong, green tea", "a Green,  tea"), true, "the phrase's words in order");
    assert.equal(injectMatches("oolong, green tea", "tea, green"), false);
    assert.equal(injectMatches("oolong, green tea", "my green tea."), true);
    assert.equal(injectMatches("tea", "steady"), false, "inside a word is no match");
    assert.equal(injectMatches("tea", "teas"), false);
    assert.equal(injectMatches("always", "anything"), true);
    assert.equal(injectMatches("", "anything"), false);
    assert.equal(injectMatches("a(b", "x a(b y"), true, "words are text, not patterns");
  });
});
