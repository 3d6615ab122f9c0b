// The wallet work both engines time for bench/wallet.mjs, against the stand-in mint called in-process (the XS
// host has no sockets): sending a token (a swap: blind the outputs, the mint signs, unblind and check the
// DLEQ proofs) and receiving one, with the time spent inside the mint taken out so the figures are the
// wallet's own. Also the blinding and the unblinding of one swap on their own, through the kit.
import { memoryStorage } from "../hosts/sim/ports/memory-storage.ts";
import { createCashuKit } from "../lib/wallet/cashu/kit.ts";
import type { HttpClient } from "../lib/ports.ts";
import { inProcessMintClient, MintFaults } from "../test/support/cashu-mint-client.ts";
import { StandInMint } from "../test/support/cashu-mint-core.ts";
import { openWallet, seededRandom } from "../test/support/cashu-wallet.ts";

const MINT = "http://mint.test";

export interface WalletWorkTimes {
  /** Mean wallet-side ms of one token sent (a swap) and one received, the mint's own time taken out. */
  sendMs: number;
  receiveMs: number;
  /** The same with the mint's time in. */
  sendWithMintMs: number;
  receiveWithMintMs: number;
  /** The first send of a run (cashu-ts builds its base-point tables then). */
  firstSendMs: number;
  /** One swap of `outputs` outputs: blinding them (kit.prepareSend), and unblinding the signatures (kit.swap less the mint). */
  blindMs: number;
  unblindMs: number;
  /** The same unblinding when the mint sends no DLEQ proofs (nothing to check). */
  unblindNoDleqMs: number;
  outputs: number;
}

export async function runWalletWork(now: () => number, samples: number): Promise<WalletWorkTimes> {
  const mint = new StandInMint({ now: () => Date.UTC(2026, 10, 1), height: 16 });
  const inner = inProcessMintClient(mint, MINT, new MintFaults());
  let inMint = 0;
  const http: HttpClient = {
    async request(req) {
      const t = now();
      try {
        return await inner.request(req);
      } finally {
        inMint += now() - t;
      }
    },
  };
  const alice = await openWallet({ http, storage: memoryStorage(), random: seededRandom(51) }, [MINT]);
  const bob = await openWallet({ http, storage: memoryStorage(), random: seededRandom(52) }, [MINT]);
  const q = await alice.mintQuote(60_000, "sat");
  mint.payQuote(q.quote);
  await alice.mintClaim(q.quote);
  const t0 = now();
  const warm = await alice.sendToken(3);
  const firstSendMs = now() - t0;
  await bob.receiveToken(warm.token);
  let send = 0;
  let sendAll = 0;
  let receive = 0;
  let receiveAll = 0;
  for (let i = 0; i < samples; i++) {
    // Amounts with several bits set, so each send needs a swap with a few outputs on both sides.
    const amount = 37 + i * 22;
    inMint = 0;
    let t = now();
    const { token } = await alice.sendToken(amount);
    let total = now() - t;
    sendAll += total;
    send += total - inMint;
    inMint = 0;
    t = now();
    await bob.receiveToken(token);
    total = now() - t;
    receiveAll += total;
    receive += total - inMint;
  }
  // One swap through the kit alone: blinding, then the swap with the mint's time taken out.
  const kit = createCashuKit({ http, random: seededRandom(53) });
  const proofs = await kitProofs(mint, kit);
  let t = now();
  const prepared = await kit.prepareSend(MINT, 1234, proofs);
  const blindMs = now() - t;
  inMint = 0;
  t = now();
  await kit.swap(prepared);
  const unblindMs = now() - t - inMint;
  mint.dleq = false;
  const bare = await kit.prepareSend(MINT, 1234, await kitProofs(mint, kit));
  inMint = 0;
  t = now();
  await kit.swap(bare);
  const unblindNoDleqMs = now() - t - inMint;
  return {
    sendMs: send / samples,
    receiveMs: receive / samples,
    sendWithMintMs: sendAll / samples,
    receiveWithMintMs: receiveAll / samples,
    firstSendMs,
    blindMs,
    unblindMs,
    unblindNoDleqMs,
    outputs: prepared.outputs.length,
  };
}

/** 4,096 sats in one proof, minted through the kit. */
async function kitProofs(mint: StandInMint, kit: ReturnType<typeof createCashuKit>) {
  const q = await kit.createMintQuote(MINT, 4096);
  mint.payQuote(q.quote);
  const outputs = await kit.prepareMint(MINT, 4096);
  return kit.mint(MINT, q.quote, outputs);
}
