// NIP-60 on a real relay: the wallet event and NIP-61 info when the mints are set, a token event per change,
// rollover (a new token event with `del`, a kind 5 deletion with `k` 7375) and history, publishing again after
// the relays come back, and reconcile: a new card restored from the relays, and a relay copy that lists a
// proof the card knows is spent not taken back.
import { nodeCurve } from "../../hosts/sim/curve/curve.ts";
import assert from "node:assert/strict";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { NostrIdentity } from "../../lib/nostr/identity.ts";
import type { RelayPool } from "../../lib/nostr/pool.ts";
import { KIND_DELETION, KIND_HISTORY, KIND_NUTZAP_INFO, KIND_TOKEN, KIND_WALLET } from "../../lib/wallet/nip60.ts";
import type { WalletNostr } from "../../lib/wallet/sync.ts";
import { startStandInMint, type LoopbackMint } from "../support/cashu-mint.ts";
import { openWallet, quietLog, seededRandom, walletNostr } from "../support/cashu-wallet.ts";
import { startTestRelay, type TestRelay } from "../support/nostr-relay.ts";
import { sleep, testPool, until } from "../nostr/support.ts";

describe("cashu wallet on relays (NIP-60)", () => {
  let m: LoopbackMint;
  let relay: TestRelay;
  let pool: RelayPool;
  let nostr: WalletNostr;
  const random = seededRandom(31);

  const events = (kind: number) => [...relay.repository.events.values()].filter((e) => e.kind === kind && e.pubkey === nostr.signer.pubkey);
  const decrypt = (content: string): unknown => JSON.parse(nostr.signer.decryptFromSelf(content));

  before(async () => {
    m = await startStandInMint();
    relay = await startTestRelay();
    pool = testPool([relay.url]);
    await until(() => pool.connectedCount() === 1);
    nostr = walletNostr(new NostrIdentity(memorySettings(), random, quietLog(), nodeCurve(), nodeDigest), pool);
  });
  after(async () => {
    pool.stop();
    await relay.close();
    await m.close();
  });

  it("publishes the wallet, its tokens, rollovers and history; a new card is restored from the relays", async () => {
    const w = await openWallet({ http: nodeHttpClient, storage: memoryStorage(), random, nostr });
    await w.setAllowedMints([m.url]);
    await w.setMints("both", [m.url], [m.url]);
    const [wallet] = events(KIND_WALLET);
    const rows = decrypt(wallet.content) as string[][];
    assert.equal(rows.find((r) => r[0] === "privkey")?.[1].length, 64);
    assert.deepEqual(
      rows.filter((r) => r[0] === "mint").map((r) => r[1]),
      [m.url],
    );
    assert.notEqual(rows.find((r) => r[0] === "privkey")?.[1], undefined);
    const [info] = events(KIND_NUTZAP_INFO);
    assert.deepEqual(info.tags[0], ["mint", m.url, "sat"]);
    assert.match(info.tags[1][1], /^0[23][0-9a-f]{64}$/);

    const q = await w.mintQuote(100, "sat");
    m.mint.payQuote(q.quote);
    await w.mintClaim(q.quote);
    const [first] = events(KIND_TOKEN);
    const body = decrypt(first.content) as { mint: string; proofs: { amount: number }[] };
    assert.equal(body.mint, m.url);
    assert.equal(
      body.proofs.reduce((n, p) => n + p.amount, 0),
      100,
    );

    await w.sendToken(21);
    await until(() => !relay.repository.events.has(first.id), 3000, "the rolled-over event's deletion");
    const [second] = events(KIND_TOKEN);
    const rolled = decrypt(second.content) as { del: string[]; proofs: { amount: number }[] };
    assert.deepEqual(rolled.del, [first.id]);
    assert.equal(
      rolled.proofs.reduce((n, p) => n + p.amount, 0),
      79,
    );
    // The relay acts on a deletion rather than keeping it: read what the wallet sent.
    const deletion = relay.received
      .map((f) => JSON.parse(f) as unknown[])
      .filter((f) => f[0] === "EVENT" && (f[1] as { kind: number }).kind === KIND_DELETION)
      .map((f) => f[1] as { tags: string[][] })[0];
    assert.ok(deletion.tags.some((t) => t[0] === "k" && t[1] === "7375"));
    assert.ok(deletion.tags.some((t) => t[0] === "e" && t[1] === first.id));
    const history = events(KIND_HISTORY).map((e) => decrypt(e.content) as string[][]);
    assert.ok(
      history.some((h) => h.some((r) => r[0] === "direction" && r[1] === "out") && h.some((r) => r[0] === "amount" && r[1] === "21")),
    );

    // A new card: the wallet's key, mints and proofs come back from the relays (their mint says unspent).
    const fresh = await openWallet({ http: nodeHttpClient, storage: memoryStorage(), random: seededRandom(32), nostr });
    await fresh.setAllowedMints([m.url]);
    // @nostr-relay/core answers the same filter from a cache for 1 s: the first wallet asked it (empty) at setMints.
    await sleep(1100);
    const boot = await fresh.boot();
    assert.equal(boot.relays?.adoptedSats, 79, JSON.stringify(boot));
    assert.equal(fresh.balance().total, 79);
    assert.deepEqual(fresh.config().mints, [m.url]);
  });

  it("does not take back from the relays a proof its card knows is spent, and publishes again after an outage", async () => {
    nostr = walletNostr(new NostrIdentity(memorySettings(), seededRandom(36), quietLog(), nodeCurve(), nodeDigest), pool);
    const store = memoryStorage();
    const w = await openWallet({ http: nodeHttpClient, storage: store, random: seededRandom(33), nostr }, [m.url]);
    const q = await w.mintQuote(64, "sat");
    m.mint.payQuote(q.quote);
    await w.mintClaim(q.quote);
    const stale = events(KIND_TOKEN).find((e) =>
      (decrypt(e.content) as { proofs: { amount: number }[] }).proofs.some((p) => p.amount === 64),
    );
    assert.ok(stale);
    const token = await w.sendToken(64);
    const bob = await openWallet({ http: nodeHttpClient, storage: memoryStorage(), random: seededRandom(34) }, [m.url]);
    await bob.receiveToken(token.token);
    // The relay still holds (or is given back) the old token event, as a relay that missed the deletion would.
    relay.repository.events.set(stale.id, stale);
    const again = await openWallet({ http: nodeHttpClient, storage: store, random: seededRandom(35), nostr });
    await sleep(1100); // past the relay's 1 s cache of this filter
    const boot = await again.boot();
    assert.ok((boot.relays?.tokenEvents ?? 0) > 0, "the relay's copy was read");
    assert.equal(boot.relays?.adoptedSats, 0);
    assert.equal(again.balance().total, w.balance().total);

    await relay.close();
    const q2 = await again.mintQuote(8, "sat");
    m.mint.payQuote(q2.quote);
    await again.mintClaim(q2.quote);
    const before = events(KIND_TOKEN).length;
    await relay.restart();
    await until(() => pool.connectedCount() === 1, 5000, "the relay back");
    const sync = await again.sync();
    assert.ok(sync && sync.published >= 1, JSON.stringify(sync));
    assert.ok(events(KIND_TOKEN).length > before);
  });
});
