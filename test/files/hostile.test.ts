// Hostile names and contents against every file tool, over the simulator's
// folder card: clear refusals, and nothing written outside the store.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { folderStorage } from "../../hosts/sim/ports/folder-storage.ts";
import { principal } from "../support/registry.ts";
import { filesHarness, recordingMessenger, type FilesHarness } from "./support.ts";

const owner = principal("admin", "turn", "owner");

const HOSTILE_NAMES = [
  "../escape.md",
  "../../etc/passwd.md",
  "..",
  "a/../../b.md",
  "/etc/passwd.md",
  "/abs.md",
  "dir/inner.md",
  "back\\slash.md",
  "nul\u0000.md",
  "tab\tname.md",
  "newline\n.md",
  "esc\u001b.md",
  "c1\u0085.md",
  ".hidden.md",
  "trailing.md ",
  "CON.md",
  "nul.txt",
  "com1.csv",
  "wide\uff41.md",
  "x".repeat(81) + ".md",
  "n".repeat(10_000),
  "no-extension",
  "x.exe",
  "x.md.sh",
];
const HOSTILE_PROJECTS = [
  "..",
  "../up",
  "/abs",
  "a/b",
  "UPPER",
  "x\u0000y",
  "x".repeat(41),
  "p".repeat(10_000),
  ".dot",
  "-dash",
  "con",
  "sp ace",
];

function walk(dir: string, root = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path, root));
    else out.push(relative(root, path));
  }
  return out.sort();
}

describe("files: hostile names and contents", () => {
  let parent: string;
  let h: FilesHarness;
  before(() => {
    parent = mkdtempSync(join(tmpdir(), "halo-hostile-"));
    h = filesHarness({
      storage: folderStorage(join(parent, "sd")),
      messenger: recordingMessenger(),
      imageKey: "sk-test",
      imageBaseUrl: "http://127.0.0.1:9",
    });
    h.downloads.setPolicy("full");
  });
  after(() => rmSync(parent, { recursive: true, force: true }));

  const refusedCleanly = (text: string, label: string): void => {
    assert.match(text, /^invalid (name|project|arguments|url)?:? ?/, `${label}: ${text.slice(0, 120)}`);
    assert.ok(text.length < 300, `${label}: refusal too long`);
    assert.doesNotMatch(text, /[\u0000-\u0008\u000a-\u001f]/, `${label}: control characters echoed`);
  };

  it("refuses every hostile file name in every tool that takes one", async () => {
    await h.call("artifact.save", { project: "safe", name: "ok.md", text: "fine" }, owner);
    for (const name of HOSTILE_NAMES) {
      const label = JSON.stringify(name.slice(0, 30));
      const file = { project: "safe", name };
      const calls: Array<[string, object]> = [
        ["artifact.save", { ...file, text: "pwned" }],
        ["files.stat", file],
        ["files.read", file],
        ["files.share", file],
        ["files.send", file],
        ["files.fetch", { ...file, url: "https://example.com/a" }],
      ];
      for (const [tool, args] of calls) {
        const r = await h.call(tool, args, owner);
        assert.equal(r.isError, true, `${tool} ${label}`);
        refusedCleanly(r.text, `${tool} ${label}`);
      }
    }
  });

  it("refuses every hostile project in every tool that takes one", async () => {
    for (const project of HOSTILE_PROJECTS) {
      const label = JSON.stringify(project.slice(0, 30));
      const calls: Array<[string, object]> = [
        ["artifact.save", { project, name: "a.md", text: "pwned" }],
        ["files.list", { project }],
        ["files.stat", { project, name: "a.md" }],
        ["files.read", { project, name: "a.md" }],
        ["files.search", { query: "pwned", project }],
        ["files.share", { project, name: "a.md" }],
        ["files.send", { project, name: "a.md" }],
        ["files.fetch", { project, name: "a.md", url: "https://example.com/a" }],
        ["image.generate", { prompt: "x", project }],
      ];
      for (const [tool, args] of calls) {
        const r = await h.call(tool, args, owner);
        assert.equal(r.isError, true, `${tool} ${label}`);
        refusedCleanly(r.text, `${tool} ${label}`);
      }
    }
  });

  it("refuses hostile image name stems before any provider call", async () => {
    for (const name of ["../x", "/abs", "a/b", "nul\u0000", "con", ".hidden"]) {
      const r = await h.call("image.generate", { prompt: "a cat", name }, owner);
      refusedCleanly(r.text, JSON.stringify(name));
    }
  });

  it("refuses 10 MB bodies and binary data in text tools", async () => {
    const huge = "x".repeat(10 * 1024 * 1024);
    for (const [tool, args] of [
      ["artifact.save", { project: "safe", name: "big.md", text: huge }],
      ["files.search", { query: huge }],
      ["files.fetch", { project: "safe", name: "big.md", url: "https://example.com/" + huge }],
      ["image.generate", { prompt: huge }],
      ["skill.save", { id: "big", md: huge }],
    ] as Array<[string, object]>) {
      const r = await h.call(tool, args, owner);
      assert.match(r.text, /^invalid arguments: '(text|query|url|prompt|md)' must NOT have more than \d+ characters\.$/, tool);
    }
    const binary = await h.call("artifact.save", { project: "safe", name: "bin.md", text: "PK\u0003\u0004\u0000\u0000binary" }, owner);
    assert.match(binary.text, /^binary: /);
    const skill = await h.call("skill.save", { id: "bin", md: "# x\n\u0000\u0001" }, owner);
    assert.match(skill.text, /^binary: /);
  });

  it("wrote nothing outside the store: the card holds only the indexes and the one good file", () => {
    assert.deepEqual(readdirSync(parent), ["sd"]);
    const written = walk(join(parent, "sd"));
    assert.deepEqual(
      written.filter((f) => !f.startsWith("files/.sx/")),
      ["files/.index", "files/safe/ok.md"],
    );
    assert.ok(written.includes("files/.sx/docs"), "the search index");
  });
});
