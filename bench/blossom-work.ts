// The Blossom work both engines time for bench/wallet.mjs: a 1 MB file read from the file store (an artifact
// store on a memory card) and uploaded with BlossomClient (hash, a signed kind-24242 authorization, the PUT)
// to the stand-in server called in-process (the XS host has no sockets). The server's own time (it hashes the
// blob and checks the event's signature) is taken out, so the figure is the device's side.
import { memorySettings } from "../hosts/sim/ports/memory-settings.ts";
import { memoryStorage } from "../hosts/sim/ports/memory-storage.ts";
import { BlossomClient } from "../lib/nostr/blossom.ts";
import { tsCurve } from "../lib/nostr/curve/ts-curve.ts";
import { NostrIdentity } from "../lib/nostr/identity.ts";
import type { Digest, HttpClient } from "../lib/ports.ts";
import { makePrincipal } from "../lib/registry/principal.ts";
import { ArtifactStore } from "../lib/store/artifact-store.ts";
import { inProcessBlossomClient } from "../test/support/blossom-client.ts";
import { StandInBlossom } from "../test/support/blossom-server-core.ts";
import { quietLog, seededRandom } from "../test/support/cashu-wallet.ts";

const BASE = "http://blossom.test";
const FILE_BYTES = 1024 * 1024;

export interface BlossomWorkTimes {
  /** MB (2^20 bytes) per second of one 1 MB upload, device side, mean over the samples. */
  uploadMbPerS: number;
  uploadMs: number;
  samples: number;
}

/** A PNG-headed file of pseudo-random bytes (the store checks the type; no text index is built for it). */
function pngBytes(seed: number): Uint8Array {
  const b = new Uint8Array(FILE_BYTES);
  seededRandom(seed).fill(b);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return b;
}

export async function runBlossomWork(now: () => number, digest: Digest, samples: number): Promise<BlossomWorkTimes> {
  const clock = { now: () => Date.UTC(2026, 10, 1) };
  const server = new StandInBlossom({ now: () => Math.floor(clock.now() / 1000), sha256: (d) => digest.sha256(d), base: BASE });
  const inner = inProcessBlossomClient(server, BASE);
  let inServer = 0;
  const http: HttpClient = {
    async request(req) {
      const t = now();
      try {
        return await inner.request(req);
      } finally {
        inServer += now() - t;
      }
    },
  };
  const settings = memorySettings();
  const identity = new NostrIdentity(settings, seededRandom(61), quietLog(), tsCurve, digest);
  const blossom = new BlossomClient({ http, digest, settings, identity, nowSeconds: () => Math.floor(clock.now() / 1000) });
  blossom.setOwnerServers([BASE]);
  const store = new ArtifactStore(memoryStorage(), clock);
  const owner = makePrincipal("owner", "admin", "turn");
  let total = 0;
  for (let i = 0; i < samples; i++) {
    store.save(owner, "bench", `blob${i}.png`, pngBytes(100 + i));
    const before = inServer;
    const t = now();
    const { bytes } = store.readBytes(owner, "bench", `blob${i}.png`);
    const d = await blossom.upload(bytes, "image/png");
    total += now() - t - (inServer - before);
    if (d.size !== FILE_BYTES) throw new Error("the server kept another size");
  }
  const uploadMs = total / samples;
  return { uploadMbPerS: FILE_BYTES / (1024 * 1024) / (uploadMs / 1000), uploadMs, samples };
}
