// XS entry: a 4 MB image streamed in 32 KB chunks through the C SHA-256 and
// the Ed25519 check, intact and altered, and a whole install of it through the
// engine with the live heap sampled at every chunk. Prints OTA-IMAGE {...}.
import { nativeSha256 } from "../../modules/sha256/sha256.ts";
import { installOnce, setUp, verifyOnce, type OtaBenchSetup } from "../support/ota-big-image.ts";

const setup = setUp(nativeSha256);
const intact = verifyOnce(setup, nativeSha256);
const flipped: OtaBenchSetup = {
  ...setup,
  chunk: (i) => {
    const c = setup.chunk(i);
    if (i !== 77) return c;
    const copy = c.slice();
    copy[1234] ^= 0x10;
    return copy;
  },
};
const alteredByte = verifyOnce(flipped, nativeSha256);
const resigned: OtaBenchSetup = { ...setup, release: { ...setup.release, version: "9.0.1" } };
const alteredVersion = verifyOnce(resigned, nativeSha256);
let base = 0;
let most = 0;
const sample = (): void => {
  most = Math.max(most, xsHeapInfo(true).heapBytes);
};
installOnce(setup, nativeSha256)
  .then(() => {
    base = xsHeapInfo(true).heapBytes;
    most = base;
    return installOnce(setup, nativeSha256, sample);
  })
  .then((state) => {
    print(`OTA-IMAGE ${JSON.stringify({ intact, alteredByte, alteredVersion, state, extraKb: Math.round((most - base) / 1024) })}`);
  });
