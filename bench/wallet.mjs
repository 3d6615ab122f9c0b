// Cashu wallet figures, one `name: value` line each:
//
//   cashu-send-ms-xs            one token sent (a swap) on the XS host, wallet side: the stand-in mint runs in
//                               the same engine (the XS host has no sockets) and its time is taken out; mean of 8
//   cashu-receive-ms-xs         one token received (a swap), the same way
//   cashu-send-with-mint-ms-xs, cashu-receive-with-mint-ms-xs   the same with the mint's time in
//   cashu-first-send-ms-xs      the first send of a run (cashu-ts / @noble/curves build the base-point table)
//   cashu-swap-blind-ms-xs, cashu-swap-unblind-ms-xs   one swap of cashu-swap-outputs outputs through the kit:
//                               blinding them, and unblinding the signatures with their DLEQ proofs checked
//   cashu-swap-unblind-no-dleq-ms-xs   the unblinding when the mint sends no DLEQ proofs
//   cashu-send-ms-node, cashu-receive-ms-node   the send and receive on Node in the same run
//   cashu-sats-lost-in-crashes  test/support/cashu-crash.ts with at least 100 kill -9s (must be 0)
//   cashu-crash-kills           the kills that run made
//   xs-boot-kb-wallet           heap a wallet adds at boot on the XS host: cashu-ts's modules as they load (not
//                               preloaded on the device) and a CashuWallet booted over a card of 64 proofs
//   xs-wallet-base-table-kb     @noble/curves' base-point table, built at the first blinding and kept (window 6)
//   xs-wallet-base-table-w4-kb  the same with CashuKitDeps.baseTableWindow = 4
//   blossom-upload-mb-per-s-xs  a 1 MB file from the file store uploaded to Blossom on the XS host (hash, signed
//                               kind-24242 authorization, PUT), the stand-in server's time taken out; mean of 4
//   blossom-upload-mb-per-s-node  the same on Node
import { tsImport } from "tsx/esm/api";
import { runOnXs } from "../hosts/xs/run.mjs";

const SAMPLES = 8;

export async function runWalletBench() {
  const r = await runOnXs("bench/wallet.xs.ts", { args: [String(SAMPLES)], timeoutMs: 600_000 });
  const line = /^WALLET-XS (.*)$/m.exec(r.stdout);
  if (r.code !== 0 || !line) throw new Error(`wallet bench on XS failed: ${r.stderr || r.stdout}`);
  const xs = JSON.parse(line[1]);
  const h = await runOnXs("bench/wallet-heap.xs.ts", { timeoutMs: 600_000 });
  const heapLine = /^WALLET-HEAP (.*)$/m.exec(h.stdout);
  if (h.code !== 0 || !heapLine) throw new Error(`wallet heap bench on XS failed: ${h.stderr || h.stdout}`);
  const heap = JSON.parse(heapLine[1]);
  const b = await runOnXs("bench/blossom.xs.ts", { args: ["4"], timeoutMs: 600_000 });
  const blossomLine = /^BLOSSOM-XS (.*)$/m.exec(b.stdout);
  if (b.code !== 0 || !blossomLine) throw new Error(`blossom bench on XS failed: ${b.stderr || b.stdout}`);
  const blossom = JSON.parse(blossomLine[1]);
  const { runBlossomWork } = await tsImport("./blossom-work.ts", import.meta.url);
  const { nodeDigest } = await tsImport("../hosts/sim/ports/node-basics.ts", import.meta.url);
  const blossomNode = await runBlossomWork(() => performance.now(), nodeDigest, 4);
  const { runWalletWork } = await tsImport("./wallet-work.ts", import.meta.url);
  const node = await runWalletWork(() => performance.now(), SAMPLES);
  const { runCrashTest } = await tsImport("../test/support/cashu-crash.ts", import.meta.url);
  const crash = await runCrashTest({ kills: 100, seed: 2 });
  return [
    ["cashu-send-ms-xs", xs.sendMs],
    ["cashu-receive-ms-xs", xs.receiveMs],
    ["cashu-send-with-mint-ms-xs", xs.sendWithMintMs],
    ["cashu-receive-with-mint-ms-xs", xs.receiveWithMintMs],
    ["cashu-first-send-ms-xs", xs.firstSendMs],
    ["cashu-swap-blind-ms-xs", xs.blindMs],
    ["cashu-swap-unblind-ms-xs", xs.unblindMs],
    ["cashu-swap-unblind-no-dleq-ms-xs", xs.unblindNoDleqMs],
    ["cashu-swap-outputs", xs.outputs],
    ["cashu-send-ms-node", node.sendMs],
    ["cashu-receive-ms-node", node.receiveMs],
    ["cashu-sats-lost-in-crashes", crash.lost],
    ["cashu-crash-kills", crash.kills],
    ["xs-boot-kb-wallet", (heap.moduleBytes + heap.walletBytes) / 1024],
    ["xs-wallet-base-table-kb", heap.baseTableBytes / 1024],
    ["xs-wallet-base-table-w4-kb", heap.baseTableW4Bytes / 1024],
    ["blossom-upload-mb-per-s-xs", blossom.uploadMbPerS],
    ["blossom-upload-mb-per-s-node", blossomNode.uploadMbPerS],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [name, value] of await runWalletBench()) console.log(`${name}: ${Number.isInteger(value) ? value : value.toFixed(3)}`);
}
