// SHA-256 through Moddable's native crypt Digest, and in pieces through Halo's own C one (modules/sha256).
import { Digest } from "crypt";
import type { Digest as DigestPort } from "../../../lib/ports";
import { nativeSha256 } from "../../../modules/sha256/sha256";

export const deviceDigest: DigestPort = {
  sha256(data: Uint8Array): Uint8Array {
    const digest = new Digest("SHA256");
    digest.write(data);
    return new Uint8Array(digest.close());
  },
  sha256Stream: nativeSha256,
};
