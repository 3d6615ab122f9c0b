// The Cashu wallet on any engine: the stand-in mint called in-process (its faults too), two wallets on
// memory cards, a relay kept in memory for NIP-60 with the device's identity from lib/nostr. Mint, claim,
// send, receive (cashuB and cashuA), melt, a double spend, a forged proof, a mint off the allow-list, the mint
// offline mid-send and back, an answer lost after a claim, a torn log, a new card restored from the relays.
// The transcript is compared between Node and the XS host, line for line.
import { tsCurve } from "../../lib/nostr/curve/ts-curve.ts";
import { getDecodedToken } from "@cashu/cashu-ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { portableSha256 } from "../../lib/nostr/event.ts";
import { NostrIdentity } from "../../lib/nostr/identity.ts";
import { WALLET_LOG_PATH } from "../../lib/wallet/ledger.ts";
import type { WalletNostr } from "../../lib/wallet/sync.ts";
import type { WalletEvent } from "../../lib/wallet/types.ts";
import type { CashuWallet } from "../../lib/wallet/wallet.ts";
import { inProcessMintClient, MintFaults } from "../support/cashu-mint-client.ts";
import { StandInMint } from "../support/cashu-mint-core.ts";
import { cashuAToken, openWallet, quietLog, seededRandom } from "../support/cashu-wallet.ts";

const MINT = "http://mint.test";
const OTHER = "http://other.test";
const NOW = Date.UTC(2026, 10, 1);

async function attempt(work: () => Promise<unknown>): Promise<string> {
  try {
    const r = await work();
    return `ok ${JSON.stringify(r)}`;
  } catch (e) {
    return `ERROR ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** A relay in memory: every event kept, its own queried back newest first. */
function memoryRelays(identity: NostrIdentity): { nostr: WalletNostr; events: WalletEvent[] } {
  const events: WalletEvent[] = [];
  const nostr: WalletNostr = {
    signer: {
      pubkey: identity.pubkey,
      sign: (t) => identity.sign(t),
      encryptToSelf: (text) => identity.nip44Encrypt(identity.pubkey, text),
      decryptFromSelf: (payload) => identity.nip44Decrypt(identity.pubkey, payload),
    },
    relays: {
      publish: async (e) => {
        events.push(e);
        return true;
      },
      queryOwn: async (kinds, max) =>
        events
          .filter((e) => kinds.includes(e.kind) && e.pubkey === identity.pubkey)
          .reverse()
          .slice(0, max),
    },
  };
  return { nostr, events };
}

function balanceLine(name: string, w: CashuWallet): string {
  const b = w.balance();
  return `${name} balance ${b.total} pending ${b.pending} outstanding ${b.outstanding} ops ${w.pendingOps().length}`;
}

export async function runWalletScenario(): Promise<string[]> {
  const out: string[] = [];
  const mint = new StandInMint({ now: () => NOW, height: 12 });
  const faults = new MintFaults();
  const http = inProcessMintClient(mint, MINT, faults);
  const identity = new NostrIdentity(memorySettings(), seededRandom(40), quietLog(), tsCurve, portableSha256);
  const relay = memoryRelays(identity);
  const card = memoryStorage();
  const alice = await openWallet({ http, storage: card, random: seededRandom(41), nostr: relay.nostr, timeoutMs: 50 }, [MINT]);
  const bob = await openWallet({ http, storage: memoryStorage(), random: seededRandom(42) }, [MINT]);
  out.push(`keyset ${mint.keysetId}`);

  const q = await alice.mintQuote(100, "sat");
  out.push(`quote ${q.quote} ${q.state} ${q.amount} ${q.request}`);
  out.push(`claim unpaid ${await attempt(() => alice.mintClaim(q.quote))}`);
  mint.payQuote(q.quote);
  out.push(`check ${(await alice.mintCheck(q.quote)).state}`);
  out.push(`claim ${await attempt(() => alice.mintClaim(q.quote))}`);
  out.push(balanceLine("alice", alice));

  const sent = await alice.sendToken(21);
  out.push(`send ${sent.amount} fee ${sent.fee} token ${sent.token.slice(0, 24)}... (${sent.token.length} chars)`);
  out.push(`token ${sent.token}`);
  out.push(`receive ${await attempt(() => bob.receiveToken(sent.token))}`);
  out.push(`receive again ${await attempt(() => bob.receiveToken(sent.token))}`);
  out.push(balanceLine("alice", alice));
  out.push(balanceLine("bob", bob));

  const five = await alice.sendToken(5);
  const decoded = getDecodedToken(five.token, [mint.keysetId]);
  const proofs = decoded.proofs.map((p) => ({ id: p.id, amount: Number(p.amount.toString()), secret: p.secret, C: p.C }));
  out.push(`receive cashuA ${await attempt(() => bob.receiveToken(cashuAToken(MINT, proofs, "thanks")))}`);
  const forged = proofs.map((p) => ({ ...p, amount: p.amount * 2 }));
  out.push(`forged ${await attempt(() => bob.receiveToken(cashuAToken(MINT, forged)))}`);
  out.push(`unknown mint ${await attempt(() => bob.receiveToken(cashuAToken(OTHER, proofs)))}`);

  const mq = await alice.meltQuote(mint.invoice(30));
  out.push(`melt quote ${mq.amount} reserve ${mq.feeReserve} ${mq.state}`);
  out.push(`melt ${await attempt(() => alice.meltPay(mq.quote))}`);
  out.push(balanceLine("alice", alice));

  faults.failNext("swap", "down");
  out.push(`send offline ${await attempt(() => alice.sendToken(7))}`);
  out.push(balanceLine("alice", alice));
  out.push(`recover offline ${JSON.stringify(await alice.recover())}`);
  faults.offline = false;
  out.push(`recover online ${JSON.stringify(await alice.recover())}`);
  out.push(balanceLine("alice", alice));

  const q2 = await alice.mintQuote(40, "sat");
  mint.payQuote(q2.quote);
  faults.failNext("mint", "drop");
  out.push(`claim answer lost ${await attempt(() => alice.mintClaim(q2.quote))}`);
  out.push(`check proofs ${JSON.stringify(await alice.checkProofs())}`);
  out.push(balanceLine("alice", alice));

  card.append(WALLET_LOG_PATH, new TextEncoder().encode('00000000 {"t":"spent"'));
  const reopened = await openWallet({ http, storage: card, random: seededRandom(43) });
  out.push(`reopened after a torn record: ${balanceLine("alice", reopened)}`);

  const kinds = relay.events.map((e) => e.kind).join(",");
  out.push(`relay events ${kinds}`);
  const fresh = await openWallet({ http, storage: memoryStorage(), random: seededRandom(44), nostr: relay.nostr });
  await fresh.setAllowedMints([MINT]);
  const boot = await fresh.boot();
  out.push(`new card boot ${JSON.stringify(boot)}`);
  out.push(balanceLine("restored", fresh));
  out.push(`mint owes ${mint.liabilities()}, lightning in ${mint.lightningInSats}, out ${mint.paidOutSats}`);
  return out;
}
