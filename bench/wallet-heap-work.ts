// What bench/wallet-heap.xs.ts loads after measuring the heap without it: a card holding a wallet of 64
// proofs (made against the stand-in mint in-process), and a wallet opened and booted over that card.
import { memoryStorage } from "../hosts/sim/ports/memory-storage.ts";
import type { Storage } from "../lib/ports.ts";
import type { CashuWallet } from "../lib/wallet/wallet.ts";
import { inProcessMintClient, MintFaults } from "../test/support/cashu-mint-client.ts";
import { StandInMint } from "../test/support/cashu-mint-core.ts";
import { openWallet, seededRandom } from "../test/support/cashu-wallet.ts";

const MINT = "http://mint.test";

export interface HeapRig {
  card: Storage;
  boot(): Promise<CashuWallet>;
  /** Sends one token from `wallet` (a swap: cashu-ts's first point multiplications build its tables). */
  send(wallet: CashuWallet): Promise<void>;
}

/** A card with 64 proofs on it, and how to boot a new wallet over it. */
export async function walletCard(): Promise<HeapRig> {
  const mint = new StandInMint({ now: () => Date.UTC(2026, 10, 1), height: 16 });
  const http = inProcessMintClient(mint, MINT, new MintFaults());
  const card = memoryStorage();
  const w = await openWallet({ http, storage: card, random: seededRandom(61) }, [MINT]);
  for (let i = 0; i < 8; i++) {
    const q = await w.mintQuote(255, "sat"); // 8 proofs each
    mint.payQuote(q.quote);
    await w.mintClaim(q.quote);
  }
  return {
    card,
    boot: async () => {
      const wallet = await openWallet({ http, storage: card, random: seededRandom(62) });
      await wallet.boot();
      return wallet;
    },
    send: async (wallet) => {
      await wallet.sendToken(100);
    },
  };
}
