// Blossom (docs/nostr.md, "Blossom"): blobs on the owner's servers over the guarded client, signed by the
// device's Nostr key; the owner's BUD-03 server list read from the relays when the owner has set none.
import { BlossomClient, KIND_BLOSSOM_SERVERS } from "../../nostr/blossom";
import { defineSubsystem } from "../subsystem";

/** How long the owner's kind 10063 list is waited for (ms). */
const SERVER_LIST_QUERY_MS = 3000;

export const BLOSSOM = defineSubsystem({
  name: "blossom",
  ports: ["digest", "settings"],
  needs: ["nostr", "outbound"],
  provides: ["blossom"],
  build: (p, { nostr, outbound }) => ({
    blossom: new BlossomClient({
      http: outbound,
      digest: p.digest,
      settings: p.settings,
      identity: nostr.identity,
      nowSeconds: () => nostr.nowSeconds(),
      ownerServerList: async () => {
        const owner = nostr.owner();
        if (!owner || !nostr.pool) return undefined;
        const found = await nostr.pool.query([{ kinds: [KIND_BLOSSOM_SERVERS], authors: [owner] }], SERVER_LIST_QUERY_MS, 1);
        return found[0];
      },
    }),
  }),
});
