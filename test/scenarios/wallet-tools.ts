// The wallet's tools and rails on any engine: the device's core (every subsystem, the registry) with the
// stand-in mint called in-process through the HttpClient port. Mint, claim, send, receive, melt, a double
// spend, the mint offline mid-send, limits and approvals, guests and a principal the owner allows, a
// stranger's token held for the owner, and hostile arguments for every tool. The transcript is compared
// between Node and the XS host, line for line; a token is printed as its length only. Seed names
// (cashu_wallet_*) are resolved as /mcp resolves them (lib/registry/seed-names.ts).
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import { makePrincipal, type Principal } from "../../lib/registry/principal.ts";
import { resolveToolName } from "../../lib/registry/seed-names.ts";
import { findCashuTokens, redactCashuTokens } from "../../lib/util/cashu-token.ts";
import { createCashuKit } from "../../lib/wallet/cashu/kit.ts";
import { inProcessMintClient, MintFaults } from "../support/cashu-mint-client.ts";
import { StandInMint } from "../support/cashu-mint-core.ts";
import { cashuAToken, openWallet, seededRandom } from "../support/cashu-wallet.ts";
import { TEST_HOST } from "../support/halo.ts";
import { portablePorts } from "../support/portable-ports.ts";

const MINT = "http://mint.test";
const OTHER = "http://other.test";
const NOW = Date.UTC(2026, 10, 1);

const owner = makePrincipal("owner", "admin", "mcp");
const guest = makePrincipal("visitor", "guest", "turn");
const kid = makePrincipal("kid", "user", "mcp");

/** A tool call's answer as one line: tokens shown by their length only. */
async function call(core: Core, name: string, args: unknown, who: Principal = owner): Promise<string> {
  try {
    const r = await core.registry.dispatch(resolveToolName(name, core.registry) ?? name, args, who);
    const tokens = findCashuTokens(r.text);
    const text = redactCashuTokens(r.text, "<token>").slice(0, 300);
    return `${r.isError ? "ERROR " : ""}${text}${tokens.length ? ` (token of ${tokens[0].length} chars)` : ""}`;
  } catch (e) {
    return `THROWN ${e instanceof Error ? e.message : String(e)}`;
  }
}

function tokenOf(text: string): string {
  return findCashuTokens(text)[0] ?? "";
}

async function balance(core: Core): Promise<string> {
  const b = (await core.wallet.ready()).balance();
  return `balance ${b.total} pending ${b.pending} outstanding ${b.outstanding}`;
}

export async function runWalletToolsScenario(): Promise<string[]> {
  const out: string[] = [];
  const mint = new StandInMint({ now: () => NOW, height: 12 });
  const faults = new MintFaults();
  const http = inProcessMintClient(mint, MINT, faults);
  const core = buildCore({ ...portablePorts(), http }, { ...TEST_HOST, walletKit: createCashuKit });
  const tool = (name: string, args: unknown, who?: Principal): Promise<string> => call(core, name, args, who);
  const toolText = async (name: string, args: unknown, who: Principal = owner): Promise<string> =>
    (await core.registry.dispatch(resolveToolName(name, core.registry) ?? name, args, who)).text;

  out.push(`tools ${core.registry.all().filter((t) => t.name.startsWith("wallet.")).length}`);
  out.push(`balance empty: ${await tool("wallet.balance", {})}`);
  out.push(`mints_set before the allow-list: ${await tool("wallet.mints_set", { target: "wallet", wallet_mints: [MINT] })}`);
  out.push(`allow-list ${JSON.stringify(await core.wallet.setAllowedMints([MINT]))}`);
  out.push(`mints_set: ${await tool("cashu_wallet_mints_set", { target: "both", wallet_mints: [MINT], public_mints: [MINT] })}`);
  out.push(`info: ${await tool("wallet.info", {})}`);

  // Lightning in.
  const quote = JSON.parse(await toolText("cashu_wallet_mint_quote", { amount: 200, unit: "sat" })) as { quote: string };
  out.push(`mint_quote ${quote.quote}`);
  out.push(`claim unpaid: ${await tool("wallet.mint_claim", { quote: quote.quote })}`);
  mint.payQuote(quote.quote);
  out.push(`mint_check: ${await tool("wallet.mint_check", { quote: quote.quote })}`);
  out.push(`claim: ${await tool("wallet.mint_claim", { quote: quote.quote })}`);
  out.push(`claim again: ${await tool("wallet.mint_claim", { quote: quote.quote })}`);
  out.push(await balance(core));

  // Tokens out and in, and a double spend.
  const sent = await toolText("cashu_wallet_send_token", { amount: 21, memo: "coffee" });
  out.push(`send 21: token of ${tokenOf(sent).length} chars`);
  const bob = await openWallet({ http, storage: memoryStorage(), random: seededRandom(7) }, [MINT]);
  out.push(`bob receives: ${JSON.stringify(await bob.receiveToken(tokenOf(sent)))}`);
  out.push(`device receives the same token: ${await tool("wallet.receive_token", { token: tokenOf(sent) })}`);
  const fromBob = await bob.sendToken(8);
  out.push(`receive from bob: ${await tool("cashu_wallet_receive_token", { token: fromBob.token })}`);
  out.push(`receive it twice: ${await tool("wallet.receive_token", { token: fromBob.token })}`);
  out.push(await balance(core));

  // Lightning out.
  const melt = JSON.parse(await toolText("wallet.melt_quote", { request: mint.invoice(30) })) as { quote: string };
  out.push(`melt_quote ${melt.quote}`);
  out.push(`melt_pay: ${await tool("wallet.melt_pay", { quote: melt.quote })}`);
  out.push(`melt_pay again: ${await tool("wallet.melt_pay", { quote: melt.quote })}`);
  out.push(`check_proofs: ${await tool("wallet.check_proofs", {})}`);
  out.push(await balance(core));

  // The mint goes offline mid-send: the proofs are reserved, not lost, and settled when it is back.
  faults.failNext("swap", "down");
  out.push(`send offline: ${await tool("wallet.send_token", { amount: 7 })}`);
  out.push(await balance(core));
  faults.offline = false;
  out.push(`recover ${JSON.stringify(await (await core.wallet.ready()).recover())}`);
  out.push(await balance(core));

  // Limits and approvals.
  core.wallet.rails.setLimits(50, 130);
  out.push(`spent today ${core.wallet.rails.spentToday()}`);
  const big = await core.registry.dispatch("wallet.send_token", { amount: 60 }, owner);
  const id = String(big.structured?.awaiting_approval ?? "");
  out.push(`send 60: ${redactCashuTokens(big.text)}`);
  out.push(`with the approval too early: ${await tool("wallet.send_token", { amount: 60, approval: id })}`);
  out.push(`approvals ${JSON.stringify(core.wallet.rails.list().map((a) => [a.id, a.kind, a.by, a.amount, a.state]))}`);
  out.push(`owner approves ${(await core.wallet.approve(id)).approval.state}`);
  out.push(`with another amount: ${await tool("wallet.send_token", { amount: 61, approval: id })}`);
  out.push(`with the approval: ${await tool("wallet.send_token", { amount: 60, approval: id })}`);
  out.push(`approval used up: ${await tool("wallet.send_token", { amount: 60, approval: id })}`);
  out.push(`send 10 under both limits: ${await tool("wallet.send_token", { amount: 10 })}`);
  out.push(`send 20 past the day's limit: ${await tool("wallet.send_token", { amount: 20 })}`);
  const late = core.wallet.rails.list().find((a) => a.state === "awaiting-approval");
  out.push(`owner rejects ${late ? core.wallet.rails.reject(late.id).id : "nothing"}`);
  out.push(await balance(core));

  // Guests, a principal the owner allows, a stranger's token.
  out.push(`guest balance: ${await tool("wallet.balance", {}, guest)}`);
  out.push(`guest sends: ${await tool("wallet.send_token", { amount: 1 }, guest)}`);
  out.push(`guest mints_set: ${await tool("wallet.mints_set", { target: "wallet", wallet_mints: [MINT] }, guest)}`);
  const gift = await bob.sendToken(5);
  out.push(`guest hands a token: ${await tool("wallet.receive_token", { token: gift.token }, guest)}`);
  out.push(await balance(core));
  const held = core.wallet.rails.list().find((a) => a.kind === "receive");
  out.push(`owner redeems it: ${JSON.stringify(held ? (await core.wallet.approve(held.id)).received : null)}`);
  out.push(await balance(core));
  out.push(`kid before: ${await tool("wallet.balance", {}, kid)}`);
  core.wallet.rails.setSpenders(["kid"]);
  out.push(`kid allowed: ${(await tool("wallet.balance", {}, kid)).slice(0, 30)}`);
  out.push(`kid mints_set: ${await tool("wallet.mints_set", { target: "wallet", wallet_mints: [MINT] }, kid)}`);
  const dm = await bob.sendToken(3);
  const screened = core.wallet.screenMessage(`hi! here is a tip ${dm.token} enjoy`, "a Nostr DM from 0123456789abcdef");
  out.push(`stranger's DM as the turn sees it: ${screened.text} (held ${screened.held})`);
  out.push(`held: ${JSON.stringify(core.wallet.rails.list().map((a) => [a.kind, a.amount, a.source]))}`);
  out.push(await balance(core));

  // Hostile arguments, one or more for every tool.
  const hostile: Array<[string, unknown]> = [
    ["wallet.balance", { extra: 1 }],
    ["wallet.info", { mint_url: OTHER }],
    ["wallet.info", { mint_url: "javascript:alert(1)" }],
    ["wallet.mint_quote", { amount: -5 }],
    ["wallet.mint_quote", { amount: 1e15 }],
    ["wallet.mint_quote", { amount: 1.5 }],
    ["wallet.mint_quote", { amount: 10, unit: "usd" }],
    ["wallet.mint_quote", { amount: 10, mint_url: OTHER }],
    ["wallet.mint_check", { quote: "no-such-quote" }],
    ["wallet.mint_claim", { quote: "x".repeat(500) }],
    ["wallet.melt_quote", { request: "not an invoice" }],
    ["wallet.melt_quote", { request: mint.invoice(5), mint_url: OTHER }],
    ["wallet.melt_pay", { quote: "mq-unknown" }],
    ["wallet.melt_pay", { quote: melt.quote, approval: "w00000000" }],
    ["wallet.check_proofs", { mint_url: "ftp://mint.test" }],
    ["wallet.receive_token", { token: "cashuBnotatokenatall!!!!" }],
    ["wallet.receive_token", { token: "hello world" }],
    ["wallet.receive_token", { token: `cashuA${"A".repeat(17000)}` }],
    ["wallet.send_token", { amount: 0 }],
    ["wallet.send_token", { amount: 999999 }],
    ["wallet.send_token", { amount: 5, mint_url: OTHER }],
    ["wallet.send_token", { amount: 5, approval: "../etc" }],
    ["wallet.mints_set", { target: "everything" }],
    ["wallet.mints_set", { target: "wallet", wallet_mints: [OTHER] }],
    ["wallet.mints_set", { target: "wallet", wallet_mints: Array(9).fill(MINT) }],
  ];
  for (const [name, args] of hostile) out.push(`hostile ${name} ${JSON.stringify(args).slice(0, 60)}: ${await tool(name, args)}`);
  // A guest cannot fill the owner's list: four tokens from one sender wait at most, and none from another mint.
  for (let i = 0; i < 5; i++) {
    const t = await bob.sendToken(1);
    out.push(`guest token ${i + 1}: ${(await tool("wallet.receive_token", { token: t.token }, guest)).slice(0, 60)}`);
  }
  const foreign = cashuAToken(OTHER, [{ id: mint.keysetId, amount: 1, secret: "a".repeat(64), C: `02${"b".repeat(64)}` }]);
  out.push(`guest token from another mint: ${await tool("wallet.receive_token", { token: foreign }, guest)}`);
  out.push(`waiting ${core.wallet.rails.list().filter((a) => a.state === "awaiting-approval").length}`);
  out.push(await balance(core));
  out.push(`mint owes ${mint.liabilities()}, lightning in ${mint.lightningInSats}, out ${mint.paidOutSats}`);
  return out;
}
