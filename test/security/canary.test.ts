// Canary secrets set through the owner API must never appear in any tool output,
// log line, stored result, durable file or owner API reply, over a scripted session
// that calls every registered tool as every role on every path, and attacks the
// protected-key rail with aliases, case changes and nesting.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { runDeviceArray } from "../../lib/device/device-array.ts";
import { SECRET_NAMES, type SecretName } from "../../lib/device/secrets.ts";
import { derivePrincipal } from "../../lib/people/principals.ts";
import type { Principal } from "../../lib/registry/principal.ts";
import { startFencedNetwork, type FencedNetwork } from "../support/fenced-network.ts";
import { OWNER_API_READ_PATHS, ownerApi } from "../support/owner-api.ts";
import { postMcp, startTestSim, type TestSim } from "../support/sim.ts";
import { fullArgs, sampleArgs } from "../support/tool-args.ts";

const CANARIES: Record<SecretName, string> = {
  openai: "sk-proj-CANARY0penai7f3e9a1c",
  anthropic: "sk-ant-CANARYanthr0pic55d2",
  mistral: "CANARYm1stral9b8c7d6e",
  tavily: "tvly-CANARYtav1ly4a4a",
  telegram: "123456:CANARYtelegr4mBotT0ken",
};
const PROTECTED_ALIASES = [
  "oaiKey",
  "OAIKEY",
  "oai_key",
  "Oai-Key",
  "openai",
  "OPENAI_API_KEY",
  "antKey",
  "ANT_KEY",
  "mistralKey",
  "tavilyKey",
  "tgToken",
  "TG_TOKEN",
  "tg.token",
  "tgAllow",
  "providerPriority",
  "provider_priority",
  "PRIORITY",
  "orchHost",
  "ORCH-HOST",
  "fabric",
  "allowlist",
  "AllowList",
  "loops",
  "budget",
  "governor",
  "apiKey",
  "secret",
  "token",
  "x-api-key",
  "botToken",
];

/** Config actions that carry a canary under a protected key, in every shape the rail must see through. */
function attacks(): unknown[] {
  const out: unknown[] = [];
  const values = Object.values(CANARIES);
  PROTECTED_ALIASES.forEach((alias, i) => {
    const v = values[i % values.length];
    out.push(
      { config: { [alias]: v } },
      { config: { theme: "ember", [alias]: v } },
      { config: { nested: { deeper: { [alias]: v } } } },
      { config: { list: [{ ok: 1 }, { [alias.toUpperCase()]: v }] } },
      { config: { sfxVol: 10, settings: { [alias.toLowerCase()]: { value: v } } } },
    );
  });
  return out;
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

describe("canary secrets stay secret through a session that calls every tool", () => {
  let sim: TestSim;
  let net: FencedNetwork;
  const log = memoryLog();
  const seen: Array<{ where: string; text: string }> = [];
  const record = (where: string, text: unknown): void =>
    void seen.push({ where, text: typeof text === "string" ? text : (JSON.stringify(text) ?? "") });
  let tokens: { admin: string; user: string; guest: string };

  before(async function () {
    this.timeout(120_000);
    net = await startFencedNetwork();
    sim = await startTestSim({ portOverrides: { log, http: net.http } });
    for (const name of SECRET_NAMES) {
      const r = await ownerApi(sim, "PUT", `/api/secrets/${name}`, { value: CANARIES[name] });
      assert.equal(r.status, 200);
      record(`PUT /api/secrets/${name}`, r.text);
    }
    const user = await ownerApi(sim, "POST", "/api/clients", { name: "phone", role: "user", ns: "alice" });
    const guest = await ownerApi(sim, "POST", "/api/clients", { name: "kiosk", role: "guest", ns: "gus" });
    tokens = { admin: sim.token, user: user.json.token, guest: guest.json.token };
    await ownerApi(sim, "PUT", "/api/people/alice", { role: "user" });
    await ownerApi(sim, "PUT", "/api/chats", { chats: ["alice", "gus"] });
  });
  after(async () => {
    await sim.stop();
    await net.close();
  });

  const core = () => sim.halo.core;
  const turnPrincipals = (): Array<[string, Principal]> => [
    ["admin/turn", derivePrincipal(core(), "web", "owner")],
    ["user/turn", derivePrincipal(core(), "chat", "alice")],
    ["guest/turn", derivePrincipal(core(), "chat", "gus")],
    ["admin/scheduled", derivePrincipal(core(), "web", "owner", true)],
  ];

  async function mcpCall(token: string, name: string, args: unknown): Promise<string> {
    const r = await postMcp(sim, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }), {
      authorization: `Bearer ${token}`,
    });
    record(`/mcp ${name}`, r.text);
    return r.text;
  }

  it("refuses every protected-key attack with protected-BLOCKED, on every path", async function () {
    this.timeout(120_000);
    const admin = derivePrincipal(core(), "web", "owner");
    for (const action of attacks()) {
      const turn = await core().registry.dispatch("device.control", { action }, admin);
      record("device.control turn", turn);
      assert.equal(turn.isError, true);
      assert.match(turn.text, /^protected-BLOCKED: /);
      for (const token of [tokens.admin, tokens.guest]) {
        const text = await mcpCall(token, "device.control", { action });
        assert.match(JSON.parse(text).result.content[0].text, /^protected-BLOCKED: /);
      }
    }
    const lines = await runDeviceArray(attacks(), { principal: admin, config: core().config }, core().actuator);
    record("device[]", lines);
    assert.ok(lines.slice(0, 8).every((l) => !l.ok && l.text.startsWith("protected-BLOCKED: ")));
    assert.equal(core().config.get("theme"), "aurora", "no attack changed anything");
  });

  it("calls every registered tool as every role on every path", async function () {
    this.timeout(300_000);
    const tools = core().registry.all();
    assert.ok(tools.length >= 13);
    for (const tool of tools) {
      for (const args of [sampleArgs(tool.inputSchema), fullArgs(tool.inputSchema)]) {
        for (const [label, p] of turnPrincipals()) record(`${tool.name} ${label}`, await core().registry.dispatch(tool.name, args, p));
        for (const token of Object.values(tokens)) await mcpCall(token, tool.name, args);
      }
    }
    for (const [label, p] of turnPrincipals()) {
      for (const entry of core().ring.list(p.ns))
        record(`results.get ${label}`, await core().registry.dispatch("results.get", { tag: entry.tag }, p));
    }
    const status = await core().registry.dispatch("device.status", {}, derivePrincipal(core(), "web", "owner"));
    assert.match(status.text, /^Secrets: openai set, anthropic set, mistral set, tavily set, telegram set$/m);
    await new Promise((ok) => setTimeout(ok, 300)); // let background jobs (downloads) settle
  });

  it("runs conversation turns as every role; the turns and their episodic rows are checked too", async function () {
    this.timeout(60_000);
    for (const [label, p] of turnPrincipals())
      record(`turn ${label}`, await core().turn.runTurn(p, { text: `hello from ${label}`, channel: "web" }));
    const rows = core().episodic!.query({ namespaces: ["owner", "alice", "gus"] }, 100).rows;
    assert.ok(
      rows.some((r) => r.kind === "message" && r.text === "hello from user/turn"),
      "the turns were recorded",
    );
    assert.ok(
      rows.some((r) => r.kind === "log" && r.text.startsWith("turn failed (")),
      "the fenced providers' refusals were recorded",
    );
    for (const row of rows) record(`episodic ${row.ns} ${row.kind}`, row.text);
  });

  it("no canary appears in any output, log line, stored result, durable file or owner API reply", async () => {
    for (const path of OWNER_API_READ_PATHS) {
      const r = await ownerApi(sim, "GET", path);
      assert.equal(r.status, 200, path);
      record(`GET ${path}`, r.text);
    }
    for (const line of log.lines) record("log", line);
    for (const ns of ["owner", "alice", "gus"]) for (const entry of core().ring.list(ns)) record(`ring ${ns}`, entry.text);
    for (const file of filesUnder(sim.dataDir)) {
      const rel = relative(sim.dataDir, file);
      if (/^flash\/secret\.[a-z]+$/.test(rel)) continue;
      record(`file ${rel}`, readFileSync(file, "latin1"));
    }
    const leaks: string[] = [];
    for (const { where, text } of seen) {
      for (const [name, canary] of Object.entries(CANARIES)) {
        if (text.includes(canary) || text.includes(canary.slice(-12))) leaks.push(`${name} in ${where}: ${text.slice(0, 120)}`);
      }
    }
    assert.deepEqual(leaks, []);
    if (core().registry.has("image.generate")) {
      assert.ok(
        net.requests.some((r) => r.authorization?.includes(CANARIES.openai)),
        "control: the key was really used, and echoed back by the fenced network",
      );
    }
    assert.ok(seen.length > 500, `${seen.length} outputs checked`);
    const holders = readdirSync(join(sim.dataDir, "flash")).filter((f) =>
      Object.values(CANARIES).some((c) => readFileSync(join(sim.dataDir, "flash", f), "utf8").includes(c)),
    );
    assert.deepEqual(holders.sort(), SECRET_NAMES.map((n) => `secret.${n}`).sort(), "each canary lives only in its own record");
  });

  it("no tool wrote the human-web-only settings", async () => {
    assert.deepEqual(core().chats.list(), ["alice", "gus"]);
    assert.deepEqual(core().priority.get(), ["openai", "anthropic", "mistral"]);
    for (const name of SECRET_NAMES) assert.equal(core().secrets.getSecret(name), CANARIES[name]);
    assert.deepEqual(
      core()
        .clients.list()
        .map((c) => c.name)
        .sort(),
      ["kiosk", "owner", "phone"],
    );
  });
});
