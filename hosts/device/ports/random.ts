// Randomness from XS's Math.random, which the Moddable runtime backs with
// c_rand(): on ESP32 that is esp_random(), the hardware RNG (strong while the
// radio is on, per ESP-IDF). On the lin simulator it is libc rand(), which is
// NOT cryptographic; hosts/lin/halo-lin seeds it from getrandom() so tokens at
// least differ between runs. Each call yields 31 random bits; we keep 16.
import type { Random } from "../../../lib/ports";

export const deviceRandom: Random = {
  fill(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i += 2) {
      const r = Math.floor(Math.random() * 65536);
      bytes[i] = r & 0xff;
      if (i + 1 < bytes.length) bytes[i + 1] = r >>> 8;
    }
  },
};
