// XS entry of bench/wallet.mjs: the heap a wallet adds at boot, in two parts. cashu-ts is not preloaded on the
// device (lib/wallet/cashu/ loads at run time), so what its modules build as they load stays in RAM: measured
// as the heap after importing it, less the heap before. Then a CashuWallet opened and booted over a card of 64
// proofs: the heap after, less the heap before (the card's bytes and the stand-in mint excluded). Both after a
// collection; slots are 32 bytes here, 16 on the ESP32. Then the same after the wallet's first swap (what
// cashu-ts and @noble/curves keep once they have worked). Prints WALLET-HEAP {json}.
declare function print(...args: unknown[]): void;
declare function xsHeapInfo(collect?: boolean): { heapBytes: number; slotSize: number };
declare function hostNow(): number;

async function main(): Promise<void> {
  const before = xsHeapInfo().heapBytes;
  const cashu = await import("@cashu/cashu-ts");
  const moduleBytes = xsHeapInfo().heapBytes - before;
  // The first multiplication by the base point: @noble/curves builds its table of precomputed points then and
  // keeps it for the life of the machine (module-level state, in RAM since cashu-ts is not preloaded).
  const beforeTable = xsHeapInfo().heapBytes;
  cashu.blindMessage(new TextEncoder().encode("heap"), 5n);
  const baseTableBytes = xsHeapInfo().heapBytes - beforeTable;
  const blindMs = (): number => {
    const t = hostNow();
    for (let i = 1; i <= 10; i++) cashu.blindMessage(new TextEncoder().encode(`blind ${i}`), 1234567n * BigInt(i));
    return (hostNow() - t) / 10;
  };
  const blindMsW6 = blindMs();
  // The same table with a window of 4 (CashuKitDeps.baseTableWindow): smaller, each multiplication slower.
  const g = cashu.pointFromHex("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798") as unknown as {
    constructor: { BASE: { precompute(w: number): unknown } };
  };
  g.constructor.BASE.precompute(4);
  cashu.blindMessage(new TextEncoder().encode("heap"), 5n);
  const baseTableW4Bytes = xsHeapInfo().heapBytes - beforeTable;
  const blindMsW4 = blindMs();
  g.constructor.BASE.precompute(6);
  const { walletCard } = await import("./wallet-heap-work.ts");
  const rig = await walletCard();
  const beforeWallet = xsHeapInfo().heapBytes;
  const wallet = await rig.boot();
  const walletBytes = xsHeapInfo().heapBytes - beforeWallet;
  // The first swap: cashu-ts's Wallet for the mint (keysets) and @noble/curves' precomputed points, kept after.
  await rig.send(wallet);
  const afterSwapBytes = xsHeapInfo().heapBytes - beforeWallet;
  print(
    `WALLET-HEAP ${JSON.stringify({ moduleBytes, baseTableBytes, baseTableW4Bytes, blindMsW6, blindMsW4, walletBytes, afterSwapBytes, proofs: wallet.balance().mints[0].proofs, slotSize: xsHeapInfo().slotSize, exports: Object.keys(cashu).length })}`,
  );
}

main().catch((e) => print(`FAILED ${e instanceof Error ? e.stack : String(e)}`));
