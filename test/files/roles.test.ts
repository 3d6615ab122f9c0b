// The owner, a member and a guest each try every file tool on their own and on
// each other's files, private and shared: exactly the outcomes docs/files-and-skills.md lists.
import assert from "node:assert/strict";
import type { Principal } from "../../lib/registry/principal.ts";
import { principal, callContext } from "../support/registry.ts";
import { filesHarness, recordingMessenger, type FilesHarness } from "./support.ts";

const people: { [who: string]: Principal } = {
  owner: principal("admin", "turn", "owner"),
  member: principal("user", "turn", "member"),
  guest: principal("guest", "turn", "guest"),
};

interface Target {
  by: string;
  name: string;
  shared: boolean;
}

/** Each person's private file, and the shared ones (guests cannot share, so they have none). */
const targets: Target[] = [
  { by: "owner", name: "owner-private.md", shared: false },
  { by: "owner", name: "owner-shared.md", shared: true },
  { by: "member", name: "member-private.md", shared: false },
  { by: "member", name: "member-shared.md", shared: true },
  { by: "guest", name: "guest-private.md", shared: false },
];

async function setUp(): Promise<{ h: FilesHarness; sent: ReturnType<typeof recordingMessenger>["sent"] }> {
  const messenger = recordingMessenger();
  const h = filesHarness({ messenger });
  for (const t of targets) {
    const p = people[t.by];
    assert.equal((await h.call("artifact.save", { project: "team", name: t.name, text: `text of ${t.name} zebra` }, p)).isError, undefined);
    if (t.shared) assert.equal((await h.call("files.share", { project: "team", name: t.name }, p)).isError, undefined);
  }
  return { h, sent: messenger.sent };
}

const notFound = (name: string): string => `not-found: no file team/${name}.`;

describe("files: who may do what to whose file", () => {
  it("a real miss and another person's private file read the same", async () => {
    const { h } = await setUp();
    assert.equal((await h.call("files.read", { project: "team", name: "nobody.md" }, people.guest)).text, notFound("nobody.md"));
    assert.equal(
      (await h.call("files.read", { project: "team", name: "owner-private.md" }, people.guest)).text,
      notFound("owner-private.md"),
    );
  });

  for (const who of Object.keys(people)) {
    for (const t of targets) {
      const mine = t.by === who;
      const visible = mine || t.shared;
      it(`${who} on ${t.by}'s ${t.shared ? "shared" : "private"} file`, async () => {
        const { h, sent } = await setUp();
        const p = people[who];
        const file = { project: "team", name: t.name };

        const stat = await h.call("files.stat", file, p);
        assert.equal(stat.isError ? stat.text : "ok", visible ? "ok" : notFound(t.name), "files.stat");
        if (visible)
          assert.match(stat.text, new RegExp(`owner: ${mine ? (t.shared ? "yours, shared" : "yours") : "shared with you, read-only"}`));

        const read = await h.call("files.read", file, p);
        assert.equal(read.text, visible ? `text of ${t.name} zebra` : notFound(t.name), "files.read");

        const listed = (await h.call("files.list", { project: "team" }, p)).text.includes(`team/${t.name} `);
        assert.equal(listed, visible, "files.list");

        const found = (await h.call("files.search", { query: "zebra" }, p)).text.includes(`team/${t.name} `);
        assert.equal(found, visible, "files.search");

        const send = await h.call("files.send", file, p);
        assert.equal(
          send.text,
          visible ? `Sent team/${t.name} (${`text of ${t.name} zebra`.length} bytes) as a document.` : notFound(t.name),
          "files.send",
        );
        assert.equal(sent.length, visible ? 1 : 0);

        const save = await h.call("artifact.save", { ...file, text: "overwrite" }, p);
        assert.equal(
          save.text,
          mine
            ? `Saved team/${t.name}: 9 bytes (replaced your earlier version).`
            : `conflict: team/${t.name} cannot be written: the name is taken; choose another name.`,
          "artifact.save",
        );

        const share = await h.call("files.share", { ...file, share: false }, p);
        const expected =
          who === "guest"
            ? "guest-refused: guests cannot share files."
            : mine
              ? `team/${t.name} is private to you.`
              : t.shared
                ? `read-only: team/${t.name} was shared with you; only its owner can change its sharing.`
                : notFound(t.name);
        assert.equal(share.text, expected, "files.share");

        const after = await h.call("files.read", file, people[t.by]);
        assert.equal(after.text, mine ? "overwrite" : `text of ${t.name} zebra`, "nobody else changed the file");
      });
    }
  }

  it("files.send and image.generate are refused over /mcp; chat_id is the owner's alone", async () => {
    const { h } = await setUp();
    for (const who of Object.keys(people)) {
      const overMcp = { ...people[who], via: "mcp" as const };
      const send = await h.call("files.send", { project: "team", name: `${who}-private.md` }, overMcp);
      assert.equal(send.text, "turn-only: files.send runs only inside a conversation turn, not over /mcp.");
      const image = await h.call("image.generate", { prompt: "a cat" }, overMcp);
      assert.equal(image.text, "turn-only: image.generate runs only inside a conversation turn, not over /mcp.");
      assert.ok(!h.registry.toolSpecsFor(overMcp).some((t) => t.name === "files.send" || t.name === "image.generate"));
    }
    const chat = await h.call("files.send", { project: "team", name: "member-private.md", chat_id: "12345" }, people.member);
    assert.equal(chat.text, "admin-only: only the owner may choose chat_id; leave it out to send to the owner.");
    assert.equal(
      (await h.call("files.send", { project: "team", name: "owner-private.md", chat_id: "-100123" }, people.owner)).isError,
      undefined,
    );
  });

  it("refuses everything to an unapproved caller, and files.share in a scheduled turn", async () => {
    const { h } = await setUp();
    const stranger = principal("unknown", "turn", "stranger");
    for (const name of [
      "files.list",
      "files.stat",
      "files.read",
      "files.search",
      "artifact.save",
      "files.share",
      "files.send",
      "files.fetch",
      "image.generate",
      "skill.list",
    ]) {
      const r = await h.call(name, {}, stranger);
      assert.equal(r.text, "not-approved: this conversation is not approved to use tools.", name);
    }
    const scheduled = principal("user", "turn", "member", true);
    assert.equal(
      (await h.call("files.share", { project: "team", name: "member-private.md" }, scheduled)).text,
      "scheduled-refused: files.share is not allowed in a scheduled turn.",
    );
    assert.equal(
      (await h.call("files.read", { project: "team", name: "member-private.md" }, scheduled)).text,
      "text of member-private.md zebra",
      "files.read works in scheduled turns",
    );
  });

  it("the handlers re-check the caller when called past the registry", async () => {
    const { h } = await setUp();
    const share = h.registry.all().find((t) => t.name === "files.share")!;
    await assert.rejects(
      async () => share.handler({ project: "team", name: "member-private.md" }, callContext(principal("user", "turn", "member", true)), {}),
      /scheduled-refused/,
    );
    const send = h.registry.all().find((t) => t.name === "files.send")!;
    await assert.rejects(
      async () => send.handler({ project: "team", name: "owner-private.md" }, callContext({ ...people.owner, via: "mcp" }), {}),
      /turn-only/,
    );
  });
});
