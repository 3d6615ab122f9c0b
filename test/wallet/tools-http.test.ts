// The wallet behind the device's HTTP pipeline: the owner API (limits, spenders, the mint allow-list,
// approvals) with hostile bodies, the tools over /mcp by the seed's names against the stand-in mint on a
// loopback socket, guests kept out, a long call given up when its signal aborts, and no token in any log
// line or stored file but the wallet's own ledger after a send.
import assert from "node:assert/strict";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import type { Halo } from "../../lib/app/halo.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { Abort } from "../../lib/util/abort.ts";
import { encodeUtf8 } from "../../lib/util/utf8.ts";
import { createCashuKit } from "../../lib/wallet/cashu/kit.ts";
import { WALLET_LOG_PATH } from "../../lib/wallet/ledger.ts";
import { type LoopbackMint, startStandInMint } from "../support/cashu-mint.ts";
import { testHalo } from "../support/halo.ts";

describe("wallet: owner API and tools over /mcp", () => {
  let mint: LoopbackMint;
  let halo: Halo;
  let token: string;
  const log = memoryLog();
  const storage = memoryStorage();

  before(async () => {
    mint = await startStandInMint({ height: 12 });
    halo = testHalo(memoryPorts({ log, storage }), { core: { baseUrls: {}, otaBuild: undefined, walletKit: createCashuKit } });
    token = halo.ensureOwnerToken()!;
  });
  after(() => mint.close());

  async function api(method: string, path: string, body?: unknown, bearer = token): Promise<{ status: number; json: any; text: string }> {
    const res = await halo.handleHttp({
      method,
      path,
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: body === undefined ? undefined : encodeUtf8(typeof body === "string" ? body : JSON.stringify(body)),
    });
    const text = typeof res.body === "string" ? res.body : new TextDecoder().decode(res.body);
    return { status: res.status, json: JSON.parse(text), text };
  }

  let rpcId = 0;
  async function mcp(name: string, args: unknown, bearer = token): Promise<{ text: string; isError: boolean; structured?: any }> {
    const r = await api("POST", "/mcp", { jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params: { name, arguments: args } }, bearer);
    const result = r.json.result;
    assert.ok(result, r.text);
    return { text: result.content[0].text, isError: result.isError === true, structured: result.structuredContent };
  }

  it("the owner sets the allow-list, the limits and the spenders; hostile bodies change nothing", async () => {
    const first = await api("GET", "/api/wallet");
    assert.equal(first.status, 200);
    assert.deepEqual(first.json.limits, { per_payment_sats: 1000, daily_sats: 5000 });
    assert.deepEqual(first.json.allowed_mints, []);
    assert.equal((await api("PUT", "/api/wallet/mints", { allowed: [mint.url] })).status, 200);
    for (const bad of [
      { per_payment_sats: -1, daily_sats: 10 },
      { per_payment_sats: "100", daily_sats: 10 },
      { per_payment_sats: 1e12, daily_sats: 10 },
      { per_payment_sats: 10 },
      { per_payment_sats: 10, daily_sats: 10, extra: true },
    ]) {
      const r = await api("PUT", "/api/wallet/limits", bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.ok(!r.text.includes("1000000000000"), "a refusal never echoes the value");
    }
    assert.equal((await api("PUT", "/api/wallet/limits", "{not json")).status, 400);
    assert.equal((await api("PUT", "/api/wallet/spenders", { spenders: ["../etc"] })).status, 400);
    assert.equal((await api("PUT", "/api/wallet/mints", { allowed: ["ftp://mint.example"] })).status, 400);
    assert.equal((await api("PUT", "/api/wallet/mints", { allowed: Array(9).fill(mint.url) })).status, 400);
    const now = await api("GET", "/api/wallet");
    assert.deepEqual(now.json.limits, { per_payment_sats: 1000, daily_sats: 5000 });
    assert.deepEqual(now.json.allowed_mints, [mint.url]);
    assert.deepEqual((await api("PUT", "/api/wallet/limits", { per_payment_sats: 50, daily_sats: 500 })).json.limits, {
      per_payment_sats: 50,
      daily_sats: 500,
    });
    assert.deepEqual((await api("PUT", "/api/wallet/spenders", { spenders: ["alice"] })).json.spenders, ["alice"]);
  });

  it("mints, claims and sends by the seed's names over /mcp; the token is in no log line and no stored file but the ledger", async () => {
    assert.match((await mcp("cashu_wallet_mints_set", { target: "wallet", wallet_mints: [mint.url] })).text, /"mints":\[/);
    const quote = JSON.parse((await mcp("cashu_wallet_mint_quote", { amount: 200, unit: "sat" })).text);
    mint.mint.payQuote(quote.quote);
    const claimed = await mcp("cashu_wallet_mint_claim", { quote: quote.quote });
    assert.equal(claimed.isError, false, claimed.text);
    assert.match((await mcp("cashu_wallet_balance", {})).text, /"total":200/);
    const sent = await mcp("cashu_wallet_send_token", { amount: 21 });
    assert.match(sent.text, /^cashuB[A-Za-z0-9_-]{100,}$/);
    const secretPart = sent.text.slice(6, 60);
    for (const line of log.lines) assert.ok(!line.includes(secretPart), line);
    for (const [path, bytes] of storage.files) {
      if (path === WALLET_LOG_PATH) continue;
      assert.ok(!new TextDecoder().decode(bytes).includes("cashuB"), `${path} holds a token`);
    }
    // The episodic history redacts a token written there (a tool output, a reply quoting it).
    const episodic = halo.core.episodic!;
    episodic.append({ ns: "owner", session: "t", role: "tool", kind: "tool_output", text: `here: ${sent.text} ok` });
    for (const [path, bytes] of storage.files) {
      if (path === WALLET_LOG_PATH) continue;
      assert.ok(!new TextDecoder().decode(bytes).includes(secretPart), `${path} holds a token`);
    }
    assert.ok(
      [...storage.files.keys()].some((p) => p.startsWith("memory/episodic/")),
      "the history was written",
    );
  });

  it("a payment over the limit waits for the owner's approval on the Approvals list, then goes once", async () => {
    const asked = await mcp("wallet.send_token", { amount: 60 });
    assert.equal(asked.isError, false);
    const id = asked.structured?.awaiting_approval ?? /\((w[0-9a-f]{8});/.exec(asked.text)![1];
    const list = (await api("GET", "/api/wallet/approvals")).json.approvals;
    assert.deepEqual(
      list.map((a: any) => [a.id, a.kind, a.by, a.amount, a.state]),
      [[id, "send", "owner", 60, "awaiting-approval"]],
    );
    assert.ok(!JSON.stringify(list).includes("cashu"));
    assert.equal((await api("POST", "/api/wallet/approvals/w12345678/approve", {})).status, 404);
    assert.ok([400, 404].includes((await api("POST", "/api/wallet/approvals/..%2f/approve", {})).status));
    assert.equal((await api("POST", `/api/wallet/approvals/${id}/approve`, {})).json.decision, "approved");
    assert.equal((await api("POST", `/api/wallet/approvals/${id}/approve`, {})).status, 404, "approved once");
    assert.match((await mcp("wallet.send_token", { amount: 60, approval: id })).text, /^cashuB/);
    assert.match((await mcp("wallet.send_token", { amount: 60, approval: id })).text, /not-found/);
    assert.deepEqual((await api("GET", "/api/wallet/approvals")).json.approvals, []);
  });

  it("guests and user clients the owner has not allowed see no balance; an allowed one does; none reach the rails", async () => {
    const guest = (await api("POST", "/api/clients", { name: "visitor", role: "guest" })).json.token;
    const bob = (await api("POST", "/api/clients", { name: "bob", role: "user" })).json.token;
    const alice = (await api("POST", "/api/clients", { name: "alice", role: "user" })).json.token;
    for (const t of [guest, bob]) {
      const r = await mcp("wallet.balance", {}, t);
      assert.ok(r.isError && /not-allowed/.test(r.text), r.text);
      assert.ok(!/\d{2,}/.test(r.text), "no amount shown");
    }
    assert.match((await mcp("wallet.balance", {}, alice)).text, /"total":/);
    assert.equal((await api("GET", "/api/wallet", undefined, alice)).status, 403);
    assert.equal((await api("PUT", "/api/wallet/limits", { per_payment_sats: 1e6, daily_sats: 1e6 }, alice)).status, 403);
    // No tool reads or writes the limits, spenders or the allow-list.
    const names = halo.core.registry.all().map((t) => t.name);
    assert.ok(!names.some((n) => /limit|spender|allow/.test(n)), names.join(","));
  });

  it("a call whose signal aborts stops waiting for a silent mint; the wallet keeps serving", async () => {
    mint.faults.failNext("info", "hang");
    const abort = new Abort();
    const owner = makePrincipal("owner", "admin", "mcp");
    const call = halo.core.registry.dispatch("wallet.info", {}, owner, { signal: abort.signal, deadline: Date.now() + 60_000 });
    setTimeout(() => abort.abort("gave up"), 50);
    const started = Date.now();
    const r = await call;
    assert.ok(Date.now() - started < 5_000);
    assert.ok(r.isError, r.text);
    assert.match(r.text, /timeout: the call was cancelled/);
    assert.match((await halo.core.registry.dispatch("wallet.balance", {}, owner)).text, /"total":/);
  });
});
