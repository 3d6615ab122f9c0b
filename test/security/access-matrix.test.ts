// Every registered tool x every role x (turn, /mcp, scheduled turn): the access the
// generated catalog documents is what dispatch does, and what each principal is
// shown (prompt manifest, registry specs, MCP tools/list) is exactly what it may call.
import { callContext } from "../support/registry.ts";
import { TEST_HOST } from "../support/halo.ts";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import { createCashuKit } from "../../lib/wallet/cashu/kit.ts";
import { McpServer } from "../../lib/mcp/server.ts";
import { derivePrincipal } from "../../lib/people/principals.ts";
import { refusalFor } from "../../lib/registry/policy.ts";
import type { Principal, Role } from "../../lib/registry/principal.ts";
import type { ToolDefinition } from "../../lib/registry/types.ts";
import { startFencedNetwork, type FencedNetwork } from "../support/fenced-network.ts";
import { sampleArgs } from "../support/tool-args.ts";

type Mode = "turn" | "mcp" | "scheduled";
const ROLES: Role[] = ["admin", "user", "guest", "unknown"];
const MODES: Mode[] = ["turn", "mcp", "scheduled"];
const POLICY_TAGS = ["not-approved", "admin-only", "turn-only", "scheduled-refused"];

/** The Access column of docs/reference/tool-catalog.md, by tool name. */
function documentedAccess(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of readFileSync("docs/reference/tool-catalog.md", "utf8").split("\n")) {
    const m = /^\| `([^`]+)` \|.* \| ([^|]+) \|$/.exec(line);
    if (m) out.set(m[1], m[2].trim());
  }
  return out;
}

/** The refusal the documentation promises for (role, mode), or undefined when the call is allowed. */
function documentedRefusal(access: string, role: Role, mode: Mode): string | undefined {
  if (role === "unknown") return "not-approved";
  if (/admin-only/.test(access) && role !== "admin") return "admin-only";
  if (/turn-only/.test(access) && mode === "mcp") return "turn-only";
  if (mode === "scheduled" && (/admin-only/.test(access) || /refused in scheduled turns/.test(access))) return "scheduled-refused";
  return undefined;
}

describe("access matrix: every tool x role x path", () => {
  let core: Core;
  let mcp: McpServer;
  let net: FencedNetwork;
  let tools: ToolDefinition[];
  const access = documentedAccess();
  const principals = new Map<string, Principal>();

  before(async () => {
    net = await startFencedNetwork();
    // With the Cashu kit, so the wallet's tools are available too.
    core = buildCore(memoryPorts({ log: memoryLog(), http: net.http }), { ...TEST_HOST, walletKit: createCashuKit });
    mcp = new McpServer(core.registry, { info: { name: "halo", version: "matrix" } });
    tools = core.registry.all();
    // Every tool available (web.search waits for its key), so the matrix is about roles and paths alone.
    core.secrets.set("tavily", "tvly-matrix-placeholder");
    // Real principals, derived the way the device derives them.
    core.people.setRole("alice", "user");
    core.people.setRole("gus", "guest");
    core.chats.replace(["alice", "gus"]);
    core.clients.create("adm", "admin", "owner");
    core.clients.create("usr", "user", "alice");
    core.clients.create("gst", "guest", "gus");
    const turnIdentity: Record<Role, [source: "web" | "chat", id: string]> = {
      admin: ["web", "owner"],
      user: ["chat", "alice"],
      guest: ["chat", "gus"],
      unknown: ["chat", "stranger"],
    };
    const mcpIdentity: Record<Role, string> = { admin: "adm", user: "usr", guest: "gst", unknown: "revoked" };
    for (const role of ROLES) {
      const [source, id] = turnIdentity[role];
      principals.set(`${role}/turn`, derivePrincipal(core, source, id));
      principals.set(`${role}/scheduled`, derivePrincipal(core, source, id, true));
      principals.set(`${role}/mcp`, derivePrincipal(core, "mcp", mcpIdentity[role]));
    }
    for (const [key, p] of principals) assert.equal(p.role, key.split("/")[0], key);
  });
  after(async () => net.close());

  it("covers every registered tool, each documented in the generated catalog", () => {
    assert.ok(tools.length >= 13);
    for (const t of tools) assert.ok(access.has(t.name), `${t.name} is missing from docs/reference/tool-catalog.md (run npm run gen)`);
    assert.ok(tools.some((t) => t.adminOnly) && tools.some((t) => !t.adminOnly));
  });

  async function callVia(mode: Mode, tool: ToolDefinition, p: Principal): Promise<{ text: string; isError: boolean }> {
    const args = sampleArgs(tool.inputSchema);
    if (mode !== "mcp") {
      const r = await core.registry.dispatch(tool.name, args, p);
      return { text: r.text, isError: r.isError === true };
    }
    const reply = await mcp.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool.name, arguments: args } }, p);
    const result = (reply!.response as unknown as { result: { content: Array<{ text: string }>; isError: boolean } }).result;
    return { text: result.content[0].text, isError: result.isError };
  }

  async function mcpListing(p: Principal): Promise<string[]> {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const reply = await mcp.handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params: cursor ? { cursor } : {} }, p);
      const result = (reply!.response as unknown as { result: { tools: Array<{ name: string }>; nextCursor?: string } }).result;
      names.push(...result.tools.map((t) => t.name));
      cursor = result.nextCursor;
    } while (cursor);
    return names;
  }

  it("allows or refuses each call exactly as documented", async function () {
    this.timeout(120_000);
    const mismatches: string[] = [];
    for (const tool of tools) {
      for (const role of ROLES) {
        for (const mode of MODES) {
          const p = principals.get(`${role}/${mode}`)!;
          const expected = documentedRefusal(access.get(tool.name)!, role, mode);
          const r = await callVia(mode, tool, p);
          const policyText = refusalFor(tool, p)?.text;
          const refusedByPolicy =
            r.isError &&
            POLICY_TAGS.some(
              (tag) => r.text.startsWith(`${tag}: ${tool.name} `) || r.text === `${tag}: this conversation is not approved to use tools.`,
            );
          const where = `${tool.name} as ${role} via ${mode}`;
          if (expected) {
            if (!refusedByPolicy || !r.text.startsWith(`${expected}:`))
              mismatches.push(`${where}: expected ${expected}, got ${r.text.slice(0, 80)}`);
            else if (r.text !== policyText) mismatches.push(`${where}: refusal text differs from the registry's`);
          } else if (refusedByPolicy) mismatches.push(`${where}: expected allowed, got ${r.text.slice(0, 80)}`);
        }
      }
    }
    assert.deepEqual(mismatches, []);
  });

  it("advertises to each principal exactly the tools it may call: prompt, registry and MCP tools/list agree", async () => {
    for (const role of ROLES) {
      for (const mode of MODES) {
        const p = principals.get(`${role}/${mode}`)!;
        const allowed = tools.filter((t) => !documentedRefusal(access.get(t.name)!, role, mode)).map((t) => t.name);
        assert.deepEqual(
          core.registry.toolSpecsFor(p).map((s) => s.name),
          allowed,
          `${role}/${mode} specs`,
        );
        const manifest = core.registry.manifest(p);
        const listed = manifest === "" ? [] : manifest.split("\n").map((l) => /^- ([^(]+)\(/.exec(l)![1]);
        assert.deepEqual(listed, allowed, `${role}/${mode} prompt`);
        if (mode === "mcp") assert.deepEqual(await mcpListing(p), allowed, `${role}/mcp tools/list`);
      }
    }
  });

  it("admin-only and turn-only are enforced again by each handler, reached without the registry", async () => {
    const failures: string[] = [];
    for (const tool of tools.filter((t) => t.adminOnly || t.turnOnly)) {
      const denied: Principal[] = [];
      if (tool.adminOnly) denied.push(principals.get("user/turn")!, principals.get("guest/mcp")!, principals.get("admin/scheduled")!);
      if (tool.turnOnly) denied.push(principals.get("admin/mcp")!, principals.get("user/mcp")!);
      for (const p of denied) {
        let text = "";
        try {
          const r = await tool.handler(sampleArgs(tool.inputSchema), callContext(p), {});
          text = `ran: ${r.text.slice(0, 60)}`;
        } catch (e) {
          text = e instanceof Error ? e.message : String(e);
        }
        if (!POLICY_TAGS.some((tag) => text.startsWith(`${tag}:`)))
          failures.push(`${tool.name} as ${p.role}/${p.via}${p.scheduled ? "/scheduled" : ""}: ${text.slice(0, 80)}`);
      }
    }
    assert.deepEqual(failures, []);
  });
});
