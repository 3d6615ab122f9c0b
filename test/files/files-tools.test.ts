// artifact.save, files.list/stat/read/search/share through the registry, over the memory card.
import assert from "node:assert/strict";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { ARTIFACT_TEXT_MAX_BYTES, ARTIFACTS_MAX_COUNT, FILES_READ_PAGE_BYTES } from "../../lib/limits.ts";
import { ArtifactStore } from "../../lib/store/artifact-store.ts";
import { filesUsageSource } from "../../lib/store/artifact-usage.ts";
import { principal } from "../support/registry.ts";
import { filesHarness, TINY_PNG } from "./support.ts";

const owner = principal("admin", "mcp", "owner");

describe("artifact store tools", () => {
  it("saves, lists, stats, reads and searches a document", async () => {
    const h = filesHarness();
    const saved = await h.call(
      "artifact.save",
      { project: "research", name: "Report.md", text: "# Solar\nPanels convert sunlight." },
      owner,
    );
    assert.equal(saved.isError, undefined, saved.text);
    assert.equal(saved.text, "Saved research/Report.md: 32 bytes.");
    assert.match((await h.call("files.list", {}, owner)).text, /^Files \(1\):\n- research\/Report\.md \(text, 32 bytes, yours\)$/);
    const stat = await h.call("files.stat", { project: "research", name: "report.md" }, owner);
    assert.match(stat.text, /^research\/Report\.md\nkind: text \(text\/markdown\)\nsize: 32 bytes\ncreated: 2026-01-01T00:00:00\.000Z/);
    assert.equal((await h.call("files.read", { project: "research", name: "Report.md" }, owner)).text, "# Solar\nPanels convert sunlight.");
    const search = await h.call("files.search", { query: "sunlight" }, owner);
    assert.match(search.text, /^- research\/Report\.md \(text, score [0-9.]+\)\n {2}# Solar Panels convert sunlight\.$/);
  });

  it("overwrites the caller's own file (names ignore case, the first spelling stays), keeping its created time", async () => {
    const h = filesHarness();
    await h.call("artifact.save", { project: "p", name: "Notes.txt", text: "one" }, owner);
    h.clock.advance(60_000);
    const again = await h.call("artifact.save", { project: "p", name: "notes.TXT", text: "two!" }, owner);
    assert.equal(again.text, "Saved p/Notes.txt: 4 bytes (replaced your earlier version).");
    const stat = (await h.call("files.stat", { project: "p", name: "NOTES.txt" }, owner)).text;
    assert.match(stat, /created: 2026-01-01T00:00:00\.000Z\nupdated: 2026-01-01T00:01:00\.000Z/);
    assert.equal((await h.call("files.read", { project: "p", name: "notes.txt" }, owner)).text, "two!");
    assert.deepEqual(h.storage.list("files/p"), ["Notes.txt"]);
  });

  it("pages a long document by byte offset without splitting characters", async () => {
    const h = filesHarness();
    const text = Array.from({ length: 700 }, (_, i) => `Zeile ${i}: Grüße, 日本語 ✓`)
      .join("\n")
      .slice(0, 20_000);
    await h.call("artifact.save", { project: "p", name: "long.md", text }, owner);
    let offset = 0;
    let assembled = "";
    let pages = 0;
    for (;;) {
      const r = await h.call("files.read", { project: "p", name: "long.md", offset }, owner);
      assert.equal(r.isError, undefined, r.text);
      const more = /\n\[more: call files\.read with offset (\d+) \((\d+) bytes in all\)\]$/.exec(r.text);
      const page = more ? r.text.slice(0, more.index) : r.text;
      assert.ok(new TextEncoder().encode(page).length <= FILES_READ_PAGE_BYTES);
      assert.ok(!page.includes("\ufffd"));
      assembled += page;
      pages++;
      if (!more) break;
      offset = Number(more[1]);
    }
    assert.equal(assembled, text);
    assert.ok(pages >= 6, `${pages} pages`);
    const past = await h.call("files.read", { project: "p", name: "long.md", offset: 1_000_000 }, owner);
    assert.match(past.text, /^invalid arguments: offset is past the end \(\d+ bytes\)\.$/);
  });

  it("refuses binary files in files.read and binary content in artifact.save", async () => {
    const h = filesHarness();
    h.artifacts.save(owner, "img", "dot.png", TINY_PNG);
    const r = await h.call("files.read", { project: "img", name: "dot.png" }, owner);
    assert.equal(r.text, "binary: img/dot.png is an image; files.read serves text files only (deliver it with files.send).");
    for (const bad of ["a\u0000b", "bell\u0007", "esc\u001b[31m", "del\u007f"]) {
      const s = await h.call("artifact.save", { project: "p", name: "x.txt", text: bad }, owner);
      assert.equal(s.text, "binary: the text contains control characters (such as NUL); artifact.save stores text only.");
    }
    assert.deepEqual(h.storage.list("files"), [".index", ".sx", "img"]);
    const tabs = await h.call("artifact.save", { project: "p", name: "ok.csv", text: "a\tb\r\nc\td\n" }, owner);
    assert.equal(tabs.isError, undefined);
  });

  it("takes exactly the per-call byte limit, counted in UTF-8 bytes", async () => {
    const h = filesHarness();
    const atLimit = await h.call("artifact.save", { project: "p", name: "max.txt", text: "x".repeat(ARTIFACT_TEXT_MAX_BYTES) }, owner);
    assert.equal(atLimit.isError, undefined, atLimit.text);
    const wide = await h.call(
      "artifact.save",
      { project: "p", name: "wide.txt", text: "é".repeat(ARTIFACT_TEXT_MAX_BYTES / 2 + 1) },
      owner,
    );
    assert.equal(
      wide.text,
      `too-large: the text is ${ARTIFACT_TEXT_MAX_BYTES + 2} bytes; artifact.save takes at most ${ARTIFACT_TEXT_MAX_BYTES} per call.`,
    );
    const long = await h.call("artifact.save", { project: "p", name: "long.txt", text: "x".repeat(ARTIFACT_TEXT_MAX_BYTES + 1) }, owner);
    assert.equal(long.text, `invalid arguments: 'text' must NOT have more than ${ARTIFACT_TEXT_MAX_BYTES} characters.`);
  });

  it("checks .json documents parse, and saves only .md .txt .csv .json", async () => {
    const h = filesHarness();
    assert.equal(
      (await h.call("artifact.save", { project: "p", name: "d.json", text: "{oops" }, owner)).text,
      "invalid: the text is not valid JSON, and the name ends in .json.",
    );
    assert.equal((await h.call("artifact.save", { project: "p", name: "d.json", text: '{"ok":true}' }, owner)).isError, undefined);
    for (const name of ["page.html", "noext", "run.sh", "x.png", "x.log"]) {
      const r = await h.call("artifact.save", { project: "p", name, text: "t" }, owner);
      assert.equal(r.text, "invalid name: it must end in one of .md .txt .csv .json.", name);
    }
  });

  it("counts saves against the caller's quota; the owner's replacement frees what it replaces", async () => {
    const h = filesHarness();
    const guest = principal("guest", "mcp", "guest-1");
    const chunk = "g".repeat(ARTIFACT_TEXT_MAX_BYTES);
    let saved = 0;
    let refusal = "";
    for (let i = 0; i < 60 && !refusal; i++) {
      const r = await h.call("artifact.save", { project: "g", name: `part-${i}.txt`, text: chunk }, guest);
      if (r.isError) refusal = r.text;
      else saved++;
    }
    assert.equal(saved, Math.floor(guest.quota.bytes / ARTIFACT_TEXT_MAX_BYTES));
    assert.equal(
      refusal,
      `quota: this file (${ARTIFACT_TEXT_MAX_BYTES} bytes) would exceed your file storage quota (${saved * ARTIFACT_TEXT_MAX_BYTES} of ${guest.quota.bytes} bytes used).`,
    );
    assert.equal(h.artifacts.usage("guest-1"), saved * ARTIFACT_TEXT_MAX_BYTES);
    const replace = await h.call("artifact.save", { project: "g", name: "part-0.txt", text: chunk }, guest);
    assert.equal(replace.isError, undefined, "replacing a file of the same size fits");
  });

  it("survives a restart: a new store over the same card sees the same files, owners and sharing", async () => {
    const storage = memoryStorage();
    const h = filesHarness({ storage });
    const alice = principal("user", "mcp", "alice");
    await h.call("artifact.save", { project: "a", name: "mine.md", text: "alice's" }, alice);
    await h.call("files.share", { project: "a", name: "mine.md" }, alice);
    await h.call("artifact.save", { project: "a", name: "secret.md", text: "private" }, alice);
    const again = filesHarness({ storage });
    const bob = principal("user", "mcp", "bob");
    assert.match(
      (await again.call("files.list", {}, bob)).text,
      /^Files \(1\):\n- a\/mine\.md \(text, 7 bytes, shared with you, read-only\)$/,
    );
    assert.equal((await again.call("files.read", { project: "a", name: "secret.md" }, alice)).text, "private");
  });

  it("drops a torn index tail (power cut mid-append) and keeps every complete record", async () => {
    const storage = memoryStorage();
    const h = filesHarness({ storage });
    await h.call("artifact.save", { project: "p", name: "a.md", text: "A" }, owner);
    await h.call("artifact.save", { project: "p", name: "b.md", text: "B" }, owner);
    storage.append("files/.index", new TextEncoder().encode('0badc0de {"t":"put","r":{"project":"p","name":"c.md"'));
    const after = filesHarness({ storage });
    assert.match((await after.call("files.list", {}, owner)).text, /^Files \(2\):\n- p\/a\.md .*\n- p\/b\.md /);
    const log = new TextDecoder().decode(storage.read("files/.index"));
    assert.ok(log.endsWith("\n") && !log.includes("0badc0de"), "the torn line was rewritten away");
    assert.equal((await after.call("artifact.save", { project: "p", name: "c.md", text: "C" }, owner)).isError, undefined);
  });

  it("keeps the index log compact under many rewrites", async () => {
    const storage = memoryStorage();
    const h = filesHarness({ storage });
    for (let i = 0; i < 400; i++) await h.call("artifact.save", { project: "p", name: `f${i % 3}.md`, text: `v${i}` }, owner);
    const lines = new TextDecoder().decode(storage.read("files/.index")).split("\n").length - 1;
    assert.ok(lines <= 2 * 3 + 256 + 1, `${lines} lines`);
    assert.equal((await filesHarness({ storage }).call("files.read", { project: "p", name: "f0.md" }, owner)).text, "v399");
  });

  it(`refuses a new file past ${ARTIFACTS_MAX_COUNT} files in the store`, () => {
    const h = filesHarness();
    for (let i = 0; i < ARTIFACTS_MAX_COUNT; i++) h.artifacts.saveText(owner, `p${i % 40}`, `f${i}.txt`, "x");
    assert.throws(() => h.artifacts.saveText(owner, "p0", "one-more.txt", "x"), {
      message: `limit: the store holds ${ARTIFACTS_MAX_COUNT} files, its maximum.`,
    });
    assert.equal(h.artifacts.saveText(owner, "p0", "f0.txt", "replace is fine").replaced, true);
  });

  it("lists at most a page of files and filters by project, showing downloads too", async () => {
    const h = filesHarness();
    for (let i = 0; i < 120; i++) h.artifacts.saveText(owner, i < 110 ? "many" : "few", `f${String(i).padStart(3, "0")}.txt`, "x");
    const all = (await h.call("files.list", {}, owner)).text;
    assert.match(all, /^Files \(120\):/);
    assert.match(all, /\n… and 20 more: filter by project\.$/);
    const few = (await h.call("files.list", { project: "few" }, owner)).text;
    assert.equal(few.split("\n").length, 11);
    assert.equal((await h.call("files.list", { project: "none" }, owner)).text, "No files.");
  });

  it("ranks search hits by term frequency and rarity, filters by project and finds images by prompt", async () => {
    const h = filesHarness();
    h.artifacts.saveText(owner, "garden", "tomatoes.md", "Tomatoes need sun. Tomatoes need water. Tomatoes everywhere.");
    h.artifacts.saveText(owner, "garden", "beans.md", "Beans need sun and a tomato or two nearby.");
    h.artifacts.saveText(owner, "kitchen", "sauce.md", "A tomato sauce recipe with basil.");
    h.artifacts.saveText(owner, "kitchen", "bread.md", "Flour, water, salt, yeast. No sun needed.");
    h.artifacts.save(owner, "images", "sunset.png", TINY_PNG, { note: "a red sunset over tomato fields" });
    const hits = (await h.call("files.search", { query: "tomato" }, owner)).text.split("\n").filter((l) => l.startsWith("- "));
    assert.equal(hits.length, 4, "a term matches at word starts: 'tomato' finds 'tomatoes'");
    assert.match(hits[0], /^- garden\/tomatoes\.md /, "three occurrences outrank one");
    const exact = (await h.call("files.search", { query: "tomatoes" }, owner)).text.split("\n").filter((l) => l.startsWith("- "));
    assert.deepEqual(
      exact.map((l) => l.split(" ")[1]),
      ["garden/tomatoes.md"],
    );
    const kitchen = (await h.call("files.search", { query: "tomato", project: "kitchen" }, owner)).text;
    assert.match(kitchen, /^- kitchen\/sauce\.md \(text, score [0-9.]+\)\n {2}A tomato sauce recipe with basil\.$/);
    const image = (await h.call("files.search", { query: "sunset" }, owner)).text;
    assert.match(image, /^- images\/sunset\.png \(image, score/);
    const rare = (await h.call("files.search", { query: "sun basil" }, owner)).text.split("\n")[0];
    assert.match(rare, /kitchen\/sauce\.md/, "the rarer term outweighs the common one");
    assert.equal((await h.call("files.search", { query: "zeppelin" }, owner)).text, "No file you can read contains any of: zeppelin.");
    assert.equal(
      (await h.call("files.search", { query: "!!! ???" }, owner)).text,
      "invalid arguments: the query has no words to search for.",
    );
  });
});

describe("artifact store on a pulled card", () => {
  it("refuses every tool with no-card while the card is out, keeps serving, and works again on reinsertion", async () => {
    const h = filesHarness();
    await h.call("artifact.save", { project: "p", name: "a.md", text: "alpha" }, owner);
    h.storage.pull();
    const calls: Array<[string, object]> = [
      ["artifact.save", { project: "p", name: "b.md", text: "beta" }],
      ["files.list", {}],
      ["files.stat", { project: "p", name: "a.md" }],
      ["files.read", { project: "p", name: "a.md" }],
      ["files.search", { query: "alpha" }],
      ["files.share", { project: "p", name: "a.md" }],
    ];
    for (const [name, args] of calls) {
      const r = await h.call(name, args, owner);
      assert.deepEqual([name, r.isError, r.text], [name, true, "no-card: the SD card is not inserted; insert it and try again."]);
    }
    assert.match(
      (await h.call("skill.list", {}, owner)).text,
      /^Skill capsules:\n- architecture: .*\nThe SD card is not available/s,
      "the server keeps serving",
    );
    h.storage.insert();
    assert.equal((await h.call("files.read", { project: "p", name: "a.md" }, owner)).text, "alpha");
    assert.equal((await h.call("artifact.save", { project: "p", name: "b.md", text: "beta" }, owner)).isError, undefined);
  });

  it("a card pulled mid-write leaves the old file intact and refuses with a clear sentence", async () => {
    let armed = false;
    const storage = memoryStorage(64 * 1024 * 1024, { beforeRename: () => void (armed && storage.pull()) });
    const h = filesHarness({ storage });
    await h.call("artifact.save", { project: "p", name: "doc.md", text: "old version" }, owner);
    armed = true;
    const r = await h.call("artifact.save", { project: "p", name: "doc.md", text: "new version" }, owner);
    assert.deepEqual(
      [r.isError, r.text],
      [true, "no-card: the SD card was removed during the operation; the previous version of the file is intact."],
    );
    armed = false;
    storage.insert();
    assert.equal((await h.call("files.read", { project: "p", name: "doc.md" }, owner)).text, "old version");
    assert.equal((await h.call("artifact.save", { project: "p", name: "doc.md", text: "new version" }, owner)).isError, undefined);
    assert.equal((await h.call("files.read", { project: "p", name: "doc.md" }, owner)).text, "new version");
  });

  it("notices a different card inserted while it was out", async () => {
    const h = filesHarness();
    await h.call("artifact.save", { project: "p", name: "a.md", text: "card one" }, owner);
    const other = new ArtifactStore(h.storage, h.clock);
    h.storage.pull();
    await h.call("files.list", {}, owner);
    h.storage.insert();
    other.remove(owner, "p", "a.md");
    other.saveText(owner, "q", "b.md", "card two");
    assert.match((await h.call("files.list", {}, owner)).text, /^Files \(1\):\n- q\/b\.md/);
  });

  it("reports its usage to device.status, and fails that report while the card is out", () => {
    const h = filesHarness({ storage: memoryStorage(1024 * 1024) });
    h.artifacts.saveText(owner, "p", "a.md", "12345");
    h.artifacts.saveText(principal("user", "mcp", "kim"), "p", "k.md", "kim");
    const gauges = filesUsageSource(h.artifacts).gauges(owner);
    assert.deepEqual(gauges.slice(0, 2), [
      { label: "your files", used: 1, unit: "count" },
      { label: "your file storage", used: 5, cap: owner.quota.bytes, unit: "bytes" },
    ]);
    assert.equal(gauges[2].label, "SD card free");
    assert.equal(gauges[2].used, h.storage.freeBytes());
    h.storage.pull();
    assert.throws(() => filesUsageSource(h.artifacts).gauges(owner), /no-card/);
  });

  it("reports no storage at all on a host without a card slot", async () => {
    const store = new ArtifactStore(undefined, { now: () => 0 });
    assert.throws(() => store.list(owner), { message: "no-card: this device has no SD card storage." });
  });
});
