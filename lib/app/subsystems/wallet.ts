// The Cashu wallet (docs/wallet.md): built from the host's Cashu kit (loaded at run time), the guarded
// client (lib/net/outbound.ts) for every mint call, the card, the device's Nostr key and the owner's relays (NIP-60).
import type { NostrSubsystem } from "../../nostr/subsystem";
import type { WalletNostr } from "../../wallet/sync";
import { WalletService } from "../../wallet/service";
import { defineSubsystem } from "../subsystem";

/** The wallet's Nostr seam over the device's identity and relay pool; undefined without a relay client. */
function walletNostr(nostr: NostrSubsystem): WalletNostr | undefined {
  const { identity, pool } = nostr;
  if (!pool) return undefined;
  return {
    signer: {
      pubkey: identity.pubkey,
      sign: (t) => identity.sign(t),
      encryptToSelf: (text) => identity.nip44Encrypt(identity.pubkey, text),
      decryptFromSelf: (payload) => identity.nip44Decrypt(identity.pubkey, payload),
    },
    relays: {
      publish: async (event) => (await pool.publish(event)).some((o) => o.result === "ok"),
      queryOwn: (kinds, max, timeoutMs) => pool.query([{ kinds, authors: [identity.pubkey] }], timeoutMs, max),
    },
  };
}

export const WALLET = defineSubsystem({
  name: "wallet",
  ports: ["random", "clock", "log", "settings", "storage"],
  needs: ["nostr", "walletKit", "outbound"],
  provides: ["wallet"],
  build: (p, d) => ({
    wallet: new WalletService({
      kit: d.walletKit,
      http: d.outbound,
      random: p.random,
      clock: p.clock,
      log: p.log,
      settings: p.settings,
      storage: p.storage,
      nostr: walletNostr(d.nostr),
    }),
  }),
});
