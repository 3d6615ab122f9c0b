// Nostr crypto figures, one `name: value` line each, Node measured in the same run:
//
//   nostr-sign-ms-xs            sign one kind-1 event (id + BIP-340, lib/nostr/secp256k1.ts) on the XS host, mean of 20
//   nostr-verify-ms-xs          verify one freshly parsed event (id + signature) on the XS host, mean of 20
//   nostr-first-sign-ms-xs      the first signature
//   nostr-conversation-key-ms-xs  one NIP-44 conversation key (ECDH + HKDF)
//   nostr-nip44-1k-roundtrip-ms-xs  NIP-44 encrypt + decrypt of 1 KB
//   nostr-heap-peak-kb-xs       growth of the XS heap's peak over the whole run (tables, events; 32-byte slots)
//   nostr-sign-ms-node, nostr-verify-ms-node   the same on Node
//   nostr-sign-xs-vs-node, nostr-verify-xs-vs-node   XS / Node
//   nostr-schnorr-sign-vs-noble-xs, nostr-schnorr-verify-vs-noble-xs   one BIP-340 signature (verification) of a
//                               32-byte id by Halo's secp256k1 over the same by @noble/curves' (a test dependency),
//                               on the XS host in the same run
import { tsImport } from "tsx/esm/api";
import { runOnXs } from "../hosts/xs/run.mjs";

const SAMPLES = 20;

export async function runNostrBench() {
  const r = await runOnXs("bench/nostr.xs.ts", { args: [String(SAMPLES)], timeoutMs: 300_000 });
  const line = /^NOSTR-XS (.*)$/m.exec(r.stdout);
  if (r.code !== 0 || !line) throw new Error(`nostr bench on XS failed: ${r.stderr || r.stdout}`);
  const xs = JSON.parse(line[1]);
  const { runNostrWork } = await tsImport("./nostr-work.ts", import.meta.url);
  const node = runNostrWork(() => performance.now(), SAMPLES);
  return [
    ["nostr-sign-ms-xs", xs.signMs],
    ["nostr-verify-ms-xs", xs.verifyMs],
    ["nostr-first-sign-ms-xs", xs.firstSignMs],
    ["nostr-conversation-key-ms-xs", xs.conversationKeyMs],
    ["nostr-nip44-1k-roundtrip-ms-xs", xs.nip44RoundTripMs],
    ["nostr-heap-peak-kb-xs", xs.heapPeakKb],
    ["nostr-sign-ms-node", node.signMs],
    ["nostr-verify-ms-node", node.verifyMs],
    ["nostr-sign-xs-vs-node", xs.signMs / node.signMs],
    ["nostr-verify-xs-vs-node", xs.verifyMs / node.verifyMs],
    ["nostr-schnorr-sign-vs-noble-xs", xs.schnorrSignMs / xs.nobleSignMs],
    ["nostr-schnorr-verify-vs-noble-xs", xs.schnorrVerifyMs / xs.nobleVerifyMs],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [name, value] of await runNostrBench()) console.log(`${name}: ${Number.isInteger(value) ? value : value.toFixed(3)}`);
}
