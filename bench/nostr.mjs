// Nostr crypto figures, one `name: value` line each. The XS host runs the work twice in the same bench
// run, through the C curve (modules/curve) and through the TypeScript curve; Node runs it through its
// C addon:
//
//   nostr-sign-ms-xs            sign one kind-1 event (id + BIP-340, lib/nostr/secp256k1.ts over the C curve) on the XS host, mean of 20
//   nostr-verify-ms-xs          verify one freshly parsed event (id + signature) on the XS host, mean of 20
//                               (both timed in turn with the TypeScript curve, below)
//   nostr-sign-ms-xs-ts, nostr-verify-ms-xs-ts   the same through the TypeScript curve, timed in turn with the
//                               C curve sample by sample (so both see the same machine)
//   nostr-sign-speedup-c-vs-ts-xs, nostr-verify-speedup-c-vs-ts-xs   TypeScript curve time / C curve time, from
//                               those alternating samples
//   nostr-schnorr-verify-speedup-c-vs-ts-xs   the same for one BIP-340 verification alone (no event id)
//   nostr-verify-100-heap-kb-xs, nostr-verify-100-heap-kb-xs-ts   what 100 verifications allocate on the XS heap
//                               (collected before each, read after: the garbage the collector sweeps; a lower
//                               bound when the engine collects during one, which the TypeScript curve's
//                               garbage can make it do)
//   nostr-first-sign-ms-xs      the first signature
//   nostr-conversation-key-ms-xs, nostr-conversation-key-ms-xs-ts   one NIP-44 conversation key (ECDH + HKDF)
//   nostr-nip44-1k-roundtrip-ms-xs  NIP-44 encrypt + decrypt of 1 KB
//   nostr-heap-peak-kb-xs, nostr-heap-peak-kb-xs-ts   growth of the XS heap's peak over the timed work
//   nostr-sign-ms-node, nostr-verify-ms-node   the same on Node (C addon)
//   nostr-sign-xs-vs-node, nostr-verify-xs-vs-node   XS / Node
//   nostr-schnorr-sign-vs-noble-xs, nostr-schnorr-verify-vs-noble-xs   one BIP-340 signature (verification) of a
//                               32-byte id by Halo's secp256k1 (C curve) over the same by @noble/curves' (a test
//                               dependency), on the XS host in the same run
import { tsImport } from "tsx/esm/api";
import { runOnXs } from "../hosts/xs/run.mjs";

const SAMPLES = 20;

async function onXs(binding) {
  const r = await runOnXs("bench/nostr.xs.ts", { args: [String(SAMPLES), binding], timeoutMs: 300_000 });
  const line = /^NOSTR-XS (.*)$/m.exec(r.stdout);
  if (r.code !== 0 || !line) throw new Error(`nostr bench on XS (${binding}) failed: ${r.stderr || r.stdout}`);
  return JSON.parse(line[1]);
}

export async function runNostrBench() {
  const xs = await onXs("c");
  const ts = await onXs("ts");
  const { runNostrWork } = await tsImport("./nostr-work.ts", import.meta.url);
  const { nodeCurve } = await tsImport("../hosts/sim/curve/curve.ts", import.meta.url);
  const node = runNostrWork(() => performance.now(), SAMPLES, nodeCurve());
  return [
    ["nostr-sign-ms-xs", xs.versus.signMs[0]],
    ["nostr-verify-ms-xs", xs.versus.verifyMs[0]],
    ["nostr-sign-ms-xs-ts", xs.versus.signMs[1]],
    ["nostr-verify-ms-xs-ts", xs.versus.verifyMs[1]],
    ["nostr-sign-speedup-c-vs-ts-xs", xs.versus.signMs[1] / xs.versus.signMs[0]],
    ["nostr-verify-speedup-c-vs-ts-xs", xs.versus.verifyMs[1] / xs.versus.verifyMs[0]],
    ["nostr-schnorr-verify-speedup-c-vs-ts-xs", xs.versus.schnorrVerifyMs[1] / xs.versus.schnorrVerifyMs[0]],
    ["nostr-verify-100-heap-kb-xs", xs.verify100HeapKb],
    ["nostr-verify-100-heap-kb-xs-ts", ts.verify100HeapKb],
    ["nostr-first-sign-ms-xs", xs.firstSignMs],
    ["nostr-conversation-key-ms-xs", xs.conversationKeyMs],
    ["nostr-conversation-key-ms-xs-ts", ts.conversationKeyMs],
    ["nostr-nip44-1k-roundtrip-ms-xs", xs.nip44RoundTripMs],
    ["nostr-heap-peak-kb-xs", xs.heapPeakKb],
    ["nostr-heap-peak-kb-xs-ts", ts.heapPeakKb],
    ["nostr-sign-ms-node", node.signMs],
    ["nostr-verify-ms-node", node.verifyMs],
    ["nostr-sign-xs-vs-node", xs.versus.signMs[0] / node.signMs],
    ["nostr-verify-xs-vs-node", xs.versus.verifyMs[0] / node.verifyMs],
    ["nostr-schnorr-sign-vs-noble-xs", xs.schnorrSignMs / xs.nobleSignMs],
    ["nostr-schnorr-verify-vs-noble-xs", xs.schnorrVerifyMs / xs.nobleVerifyMs],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [name, value] of await runNostrBench()) console.log(`${name}: ${Number.isInteger(value) ? value : value.toFixed(3)}`);
}
