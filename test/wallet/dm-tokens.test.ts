// Tokens and skills that arrive over Nostr, end to end in the simulator (real relay, the stand-in mint on
// loopback, real turns against a provider stand-in): a cashuB token in a stranger's DM is held for the owner
// and redeemed only when they approve; a followed key's DM reaches the model without its token; a skill
// written with the reference agent's tool names (nostr_post, cashu_wallet_balance) is adopted and its turn
// sees Halo's tools of those names.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { encrypt as nip04Encrypt } from "nostr-tools/nip04";
import { npubEncode } from "nostr-tools/nip19";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import type { CashuWallet } from "../../lib/wallet/wallet.ts";
import { type LoopbackMint, startStandInMint } from "../support/cashu-mint.ts";
import { openWallet, seededRandom } from "../support/cashu-wallet.ts";
import { startTestRelay, type TestRelay } from "../support/nostr-relay.ts";
import { ownerApi } from "../support/owner-api.ts";
import { ProviderServer } from "../support/provider-server.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";
import { answer, openAiAnswer, openAiTools } from "../turn/support.ts";
import { publishAsClient, until } from "../nostr/support.ts";

describe("wallet: tokens in DMs and skills by the seed's tool names (simulator, real relay and mint)", () => {
  let relay: TestRelay;
  let provider: ProviderServer;
  let mint: LoopbackMint;
  let sim: TestSim;
  let device: string;
  let payer: CashuWallet;
  const log = memoryLog();
  const ownerSk = generateSecretKey();
  const owner = getPublicKey(ownerSk);
  const friendSk = generateSecretKey();
  const friend = getPublicKey(friendSk);
  const strangerSk = generateSecretKey();
  const now = (): number => Math.floor(Date.now() / 1000);
  const dm = (sk: Uint8Array, text: string) =>
    finalizeEvent({ kind: 4, content: nip04Encrypt(sk, device, text), tags: [["p", device]], created_at: now() }, sk);

  before(async () => {
    relay = await startTestRelay();
    provider = await ProviderServer.start();
    mint = await startStandInMint({ height: 12 });
    sim = await startTestSim({
      initialSecrets: { openai: "sk-test-openai-KEY" },
      baseUrls: { openai: provider.url },
      portOverrides: { log },
    });
    assert.equal((await ownerApi(sim, "PUT", "/api/nostr/relays", { relays: [relay.url] })).status, 200);
    device = (await ownerApi(sim, "PUT", "/api/nostr/owner", { pubkey: npubEncode(owner) })).json.pubkey;
    assert.equal((await ownerApi(sim, "PUT", "/api/wallet/mints", { allowed: [mint.url] })).status, 200);
    await until(() => sim.halo.core.nostr.pool!.connectedCount() === 1, 5000, "the relay connection");
    await until(() => relay.received.some((f) => f.includes('"dm-inbox"')), 5000, "the inbox subscription");
    payer = await openWallet({ http: nodeHttpClient, storage: memoryStorage(), random: seededRandom(9) }, [mint.url]);
    const q = await payer.mintQuote(100);
    mint.mint.payQuote(q.quote);
    await payer.mintClaim(q.quote);
  });
  after(async () => {
    await sim.stop();
    await provider.close();
    await mint.close();
    await relay.close();
  });

  const balance = async (): Promise<number> => (await ownerApi(sim, "GET", "/api/wallet")).json.balance.total;

  it("holds a stranger's token for the owner: nothing is redeemed until the owner approves", async () => {
    const { token } = await payer.sendToken(13);
    assert.equal(await publishAsClient(relay.url, dm(strangerSk, `a gift for you: ${token}`)), true);
    await until(() => sim.halo.core.nostrChannel.stats().strangers === 1, 5000, "the stranger's DM handled");
    const approvals = (await ownerApi(sim, "GET", "/api/wallet/approvals")).json.approvals;
    assert.equal(approvals.length, 1);
    assert.deepEqual([approvals[0].kind, approvals[0].amount, approvals[0].mint], ["receive", 13, mint.url]);
    assert.match(approvals[0].source, /^a Nostr DM from [0-9a-f]{16}$/);
    assert.ok(!JSON.stringify(approvals).includes("cashu"), "the owner API never shows the token");
    assert.equal(await balance(), 0);
    // The token is still the payer's: the mint has not seen it spent.
    assert.equal((await payer.checkProofs()).sentOutstanding, 1);
    const approved = await ownerApi(sim, "POST", `/api/wallet/approvals/${approvals[0].id}/approve`, {});
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual(approved.json.received, { mint: mint.url, amount: 13, fee: 0 });
    assert.equal(await balance(), 13);
    for (const line of log.lines) assert.ok(!line.includes(token.slice(6, 40)), line);
  });

  it("a followed key's DM reaches the model without its token, which waits for the owner", async () => {
    const contacts = finalizeEvent({ kind: 3, content: "", tags: [["p", friend]], created_at: now() }, ownerSk);
    assert.equal(await publishAsClient(relay.url, contacts), true);
    await until(() => sim.halo.core.nostr.tierOf(friend) === "wot", 5000, "the owner's contacts");
    // A followed key runs as a guest, which spends provider credit only when the owner allows it (lib/people/rails.ts).
    assert.equal((await ownerApi(sim, "PUT", "/api/config/guestCredit", { value: true })).status, 200);
    const { token } = await payer.sendToken(8);
    provider.reply(openAiAnswer(answer({ reply: "thanks" })));
    const seen = provider.seen.length;
    assert.equal(await publishAsClient(relay.url, dm(friendSk, `please redeem ${token} now`)), true);
    await until(() => provider.seen.length > seen, 8000, "the friend's turn");
    const prompt = provider.seen.at(-1)!.text;
    assert.ok(prompt.includes("please redeem [a Cashu token, held for the owner] now"), prompt.slice(-400));
    assert.ok(!prompt.includes(token.slice(0, 40)));
    const waiting = (await ownerApi(sim, "GET", "/api/wallet/approvals")).json.approvals;
    assert.deepEqual(
      waiting.map((a: any) => [a.kind, a.amount]),
      [["receive", 8]],
    );
    assert.equal(await balance(), 13);
    assert.equal((await ownerApi(sim, "POST", `/api/wallet/approvals/${waiting[0].id}/reject`, {})).json.decision, "rejected");
    assert.equal(await balance(), 13);
  });

  it("a token the owner's turn sends is in no log line, no episodic row and no file on the card but the ledger", async () => {
    const admin = makePrincipal("owner", "admin", "turn");
    await sim.halo.core.registry.dispatch("wallet.mints_set", { target: "wallet", wallet_mints: [mint.url] }, admin);
    provider.reply(openAiTools(["wallet_send_token", '{"amount":5}']), openAiAnswer(answer({ reply: "sent" })));
    const seen = provider.seen.length;
    assert.equal(await publishAsClient(relay.url, dm(ownerSk, "send me 5 sats as a token")), true);
    await until(() => provider.seen.length >= seen + 2, 8000, "the turn's two rounds");
    await until(() => sim.halo.core.wallet.rails.spentToday() === 5, 5000, "the send");
    // The model saw the token (the tool's output is the token), so it was really made in this turn.
    const round2 = provider.seen.at(-1)!.text;
    const token = /cashuB[A-Za-z0-9_-]{40,}/.exec(round2)?.[0];
    assert.ok(token, "the tool's output reached the model");
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : [join(dir, d.name)]));
    const all = files(sim.dataDir);
    assert.ok(
      all.some((f) => f.includes("episodic")),
      "the turn wrote its history",
    );
    for (const f of all) assert.ok(!readFileSync(f, "latin1").includes(token.slice(6, 46)), `${f} holds the token`);
    for (const line of log.lines) assert.ok(!line.includes(token.slice(6, 46)), line);
    const history = await sim.halo.core.registry.dispatch("memory.episodic", { query: "cashu" }, admin);
    assert.ok(!history.text.includes(token.slice(6, 46)));
  });

  it("adopts a skill that names its tools as the seed's agent does, and its turn sees Halo's tools", async () => {
    const authorSk = generateSecretKey();
    const author = getPublicKey(authorSk);
    const skill = finalizeEvent(
      {
        kind: 31123,
        content: "Post the wallet's balance as a note.",
        tags: [
          ["d", "balance-poster"],
          ["trigger", "dm"],
          ["filter", "balance"],
          ["requires_tool", "nostr_post"],
          ["requires_tool", "cashu_wallet_balance"],
        ],
        created_at: now(),
      },
      authorSk,
    );
    assert.equal(await publishAsClient(relay.url, skill), true);
    const admin = makePrincipal("owner", "admin", "turn");
    const adopted = await sim.halo.core.registry.dispatch("nostr.skill_adopt", { pubkey: author, d: "balance-poster" }, admin);
    assert.match(adopted.text, /inert until the owner approves it/);
    const id = (await ownerApi(sim, "GET", "/api/nostr/skills")).json.skills[0].id;
    assert.equal((await ownerApi(sim, "POST", `/api/nostr/skills/${id}/approve`, {})).status, 200);
    provider.reply(openAiAnswer(answer({ reply: "ok" })));
    const seen = provider.seen.length;
    assert.equal(await publishAsClient(relay.url, dm(ownerSk, "what is my balance?")), true);
    await until(() => provider.seen.length > seen, 8000, "the owner's turn");
    const prompt = provider.seen.at(-1)!.text;
    assert.ok(prompt.includes("nostr.post") || prompt.includes("nostr_post"), "the skill's turn lists nostr.post");
    assert.ok(prompt.includes("wallet.balance") || prompt.includes("wallet_balance"), "and wallet.balance");
    assert.ok(!prompt.includes("nostr.dm_send") && !prompt.includes("nostr_dm_send"), "and no tool the skill did not name");
  });
});
