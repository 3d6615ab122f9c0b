// The artifact store end to end: the running simulator (its SD card is a folder),
// the official MCP client, and a card pulled and reinserted mid-session.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RemovableStorage } from "../../hosts/sim/ports/removable.ts";
import { postMcp, startTestSim, type TestSim } from "../support/sim.ts";

type CallResult = { isError?: boolean; content: Array<{ type: string; text: string }> };

describe("simulator: files over /mcp with the official MCP client", () => {
  let sim: TestSim;
  let client: Client;
  const call = async (name: string, args: object): Promise<{ isError: boolean; text: string }> => {
    const r = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallResult;
    return { isError: r.isError === true, text: r.content[0].text };
  };

  before(async () => {
    sim = await startTestSim();
    client = new Client({ name: "halo-files-e2e", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${sim.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${sim.token}` } } }),
    );
  });
  after(async () => {
    await client.close();
    await sim.stop();
  });

  it("advertises the file and skill tools, but not the turn-only ones", async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor);
    for (const n of [
      "artifact.save",
      "files.list",
      "files.stat",
      "files.read",
      "files.search",
      "files.share",
      "files.fetch",
      "skill.list",
      "skill.get",
      "skill.save",
      "skill.delete",
    ]) {
      assert.ok(names.includes(n), n);
    }
    assert.ok(!names.includes("files.send") && !names.includes("image.generate"));
    const send = await call("files.send", { project: "notes", name: "plan.md" });
    assert.deepEqual(send, { isError: true, text: "turn-only: files.send runs only inside a conversation turn, not over /mcp." });
  });

  it("saves, lists, reads and searches a file, which lands in the card folder", async () => {
    const saved = await call("artifact.save", { project: "notes", name: "plan.md", text: "# Plan\nBuy a lighthouse lamp.\n" });
    assert.deepEqual(saved, { isError: false, text: "Saved notes/plan.md: 30 bytes." });
    assert.equal(readFileSync(join(sim.dataDir, "sd/files/notes/plan.md"), "utf8"), "# Plan\nBuy a lighthouse lamp.\n");
    assert.equal((await call("files.list", {})).text, "Files (1):\n- notes/plan.md (text, 30 bytes, yours)");
    assert.equal((await call("files.read", { project: "notes", name: "plan.md" })).text, "# Plan\nBuy a lighthouse lamp.\n");
    assert.match(
      (await call("files.search", { query: "lighthouse" })).text,
      /^- notes\/plan\.md \(text, score [0-9.]+\)\n {2}# Plan Buy a lighthouse lamp\.$/,
    );
  });

  it("refuses cleanly with the card pulled, keeps serving, and works again once it is back", async () => {
    const card = sim.halo.core.ports.storage as RemovableStorage;
    card.pull();
    const noCard = "no-card: the SD card is not inserted; insert it and try again.";
    assert.deepEqual(await call("files.read", { project: "notes", name: "plan.md" }), { isError: true, text: noCard });
    assert.deepEqual(await call("artifact.save", { project: "notes", name: "later.md", text: "x" }), { isError: true, text: noCard });
    assert.deepEqual(await call("files.list", {}), { isError: true, text: noCard });
    await client.ping();
    assert.equal((await call("docs.list", {})).isError, false);
    assert.match((await call("skill.list", {})).text, /only the built-in capsules are listed/);
    assert.ok(!existsSync(join(sim.dataDir, "sd/files/notes/later.md")));
    card.insert();
    assert.equal((await call("files.read", { project: "notes", name: "plan.md" })).text, "# Plan\nBuy a lighthouse lamp.\n");
    assert.deepEqual(await call("artifact.save", { project: "notes", name: "later.md", text: "back" }), {
      isError: false,
      text: "Saved notes/later.md: 4 bytes.",
    });
    assert.match((await call("files.list", {})).text, /^Files \(2\):/);
  });

  it("answers a 10 MB artifact.save body with 413 and keeps serving", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "artifact.save", arguments: { project: "notes", name: "huge.md", text: "x".repeat(10 * 1024 * 1024) } },
    });
    const r = await postMcp(sim, body, { "mcp-protocol-version": "2025-06-18" });
    assert.equal(r.status, 413);
    assert.ok(!existsSync(join(sim.dataDir, "sd/files/notes/huge.md")));
    assert.equal((await call("files.stat", { project: "notes", name: "plan.md" })).isError, false);
  });
});
