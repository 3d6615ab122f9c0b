import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DOCS_PACK } from "../../lib/generated/docs-pack.ts";
import { DOCS_SECTION_MAX_BYTES } from "../../lib/limits.ts";
import { DocsLibrary, queryTerms } from "../../lib/store/docs-pack.ts";
import { utf8Length } from "../../lib/util/utf8.ts";
import { buildDocsPack } from "../../tools/gen/docs-pack.ts";
import { deviceRegistry, principal } from "../support/registry.ts";

function docsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "halo-docs-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe("docs pack generation", () => {
  it("splits at ## and ### headings with file-slug#heading-slug ids", () => {
    const dir = docsDir({
      "guide.md": "# The Guide\n\nIntro text.\n\n## First Part\n\nAlpha beta.\n\n### Sub Part!\n\nGamma.\n\n```\n## not a heading\n```\n",
      "reference/api.md": "# API\n\n## Calls\n\nDelta.\n",
    });
    const pack = buildDocsPack(dir);
    assert.deepEqual(pack.files, [
      { slug: "guide", title: "The Guide" },
      { slug: "reference-api", title: "API" },
    ]);
    assert.deepEqual(
      pack.sections.map((s) => s.id),
      ["guide#the-guide", "guide#first-part", "guide#sub-part", "reference-api#calls"],
    );
    assert.match(pack.sections[2].body, /## not a heading/);
  });

  it("cuts long sections into paragraphs, each at most the section cap", () => {
    const para = "word ".repeat(200).trim(); // 999 bytes
    const long = "ü".repeat(5000); // one paragraph of 10,000 bytes
    const dir = docsDir({ "big.md": `# Big\n\n## Long\n\n${Array(12).fill(para).join("\n\n")}\n\n${long}\n` });
    const pack = buildDocsPack(dir);
    assert.ok(pack.sections.length >= 6);
    for (const s of pack.sections) assert.ok(utf8Length(s.body) <= DOCS_SECTION_MAX_BYTES, `${s.id} is ${utf8Length(s.body)}`);
    assert.equal(new Set(pack.sections.map((s) => s.id)).size, pack.sections.length, "ids are unique");
    assert.equal(
      pack.sections
        .map((s) => s.body)
        .join("")
        .replace(/\s/g, ""),
      (Array(12).fill(para).join("") + long).replace(/\s/g, ""),
    );
  });

  it("is deterministic", () => {
    assert.deepEqual(buildDocsPack(), buildDocsPack());
  });

  it("the committed pack keeps every section under the cap", () => {
    assert.ok(DOCS_PACK.sections.length > 5);
    for (const s of DOCS_PACK.sections) assert.ok(utf8Length(s.body) <= DOCS_SECTION_MAX_BYTES, s.id);
  });
});

describe("docs tools", () => {
  const lib = new DocsLibrary({
    files: [{ slug: "a", title: "A" }],
    sections: [
      { id: "a#wifi", file: "a", title: "Wi-Fi setup", body: "Join the network. The LED ring spins." },
      { id: "a#led", file: "a", title: "LED ring", body: "The ring has twelve LEDs. Brightness is capped." },
      { id: "a#mcp", file: "a", title: "MCP", body: "Connect a client to /mcp with a token." },
    ],
  });

  it("search is an AND match over titles and bodies, title hits first", () => {
    assert.deepEqual(
      lib.search(queryTerms("ring")).map((h) => h.id),
      ["a#led", "a#wifi"],
    );
    assert.deepEqual(
      lib.search(queryTerms("ring network")).map((h) => h.id),
      ["a#wifi"],
    );
    assert.deepEqual(lib.search(queryTerms("ring token")), []);
    assert.deepEqual(lib.search(queryTerms("  !!  ")), []);
  });

  it("unknown ids fail with the nearest ids", () => {
    assert.deepEqual(lib.nearestIds("a#led-ring").slice(0, 1), ["a#led"]);
    assert.equal(lib.read("a#nope"), undefined);
  });

  it("docs.search, docs.read and docs.list over the device's own pack", async () => {
    const { registry } = deviceRegistry();
    const p = principal("guest", "mcp");
    const search = await registry.dispatch("docs.search", { query: "mcp token" }, p);
    assert.ok(!search.isError, search.text);
    const hits = (search.structured as { hits: Array<{ id: string }> }).hits;
    assert.ok(hits.length > 0);
    const read = await registry.dispatch("docs.read", { id: hits[0].id }, p);
    assert.ok(!read.isError);
    assert.match(read.text.toLowerCase(), /mcp/);
    const miss = await registry.dispatch("docs.read", { id: hits[0].id + "x" }, p);
    assert.equal(miss.isError, true);
    assert.match(miss.text, new RegExp(`^not-found: .*Nearest: ${hits[0].id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    const files = await registry.dispatch("docs.list", {}, p);
    assert.match(files.text, /reference-tool-catalog/);
    const sections = await registry.dispatch("docs.list", { file: "reference-tool-catalog" }, p);
    assert.match(sections.text, /reference-tool-catalog#docs/);
    const bad = await registry.dispatch("docs.list", { file: "../../etc" }, p);
    assert.equal(bad.isError, true);
    assert.match(bad.text, /^not-found: no doc file/);
  });

  it("refuses hostile docs arguments clearly", async () => {
    const { registry } = deviceRegistry();
    const p = principal("user");
    const cases: Array<[string, unknown]> = [
      ["docs.search", { query: "" }],
      ["docs.search", { query: "x".repeat(201) }],
      ["docs.search", { query: ["a"] }],
      ["docs.search", { query: "!!!" }],
      ["docs.read", { id: "x".repeat(10000) }],
      ["docs.read", { id: 42 }],
      ["docs.list", { file: "" }],
    ];
    for (const [name, args] of cases) {
      const r = await registry.dispatch(name, args, p);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args).slice(0, 40)}`);
      assert.ok(r.text.length < 200);
    }
  });
});
