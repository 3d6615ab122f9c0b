// XS side of bench/ota.mjs: `ota.xs.ts verify N` prints OTA-XS {"mbPerS":..}; `ota.xs.ts heap` prints OTA-XS {"extraKb":..,"state":..}
// (the most the live heap stood above its level after setup, sampled while each chunk is being written).
import { nativeSha256 } from "../modules/sha256/sha256.ts";
import { IMAGE_BYTES, installOnce, setUp, verifyOnce } from "../test/support/ota-big-image.ts";

const mode = scriptArgs[0];
const setup = setUp(nativeSha256);
if (mode === "verify") {
  const runs = Number(scriptArgs[1] ?? 3);
  verifyOnce(setup, nativeSha256);
  const start = hostNow();
  let ok = true;
  for (let i = 0; i < runs; i++) ok = verifyOnce(setup, nativeSha256) && ok;
  const seconds = (hostNow() - start) / 1000;
  print(`OTA-XS ${JSON.stringify({ ok, mbPerS: ((IMAGE_BYTES / 1048576) * runs) / seconds })}`);
} else {
  // A first install warms what stays cached (noble's tables); the second is measured. xsHeapInfo's peak
  // covers the whole run, so the live heap is sampled while each chunk is written.
  let base = 0;
  let most = 0;
  let samples = 0;
  const sample = (): void => {
    most = Math.max(most, xsHeapInfo(true).heapBytes);
    samples++;
  };
  installOnce(setup, nativeSha256)
    .then(() => {
      base = xsHeapInfo(true).heapBytes;
      most = base;
      return installOnce(setup, nativeSha256, sample);
    })
    .then((state) => {
      sample();
      print(`OTA-XS ${JSON.stringify({ state, extraKb: (most - base) / 1024, samples })}`);
    });
}
