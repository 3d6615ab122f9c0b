// SHA-256 through Moddable's native crypt Digest.
import { Digest } from "crypt";
import type { Digest as DigestPort } from "../../../lib/ports";

export const deviceDigest: DigestPort = {
  sha256(data: Uint8Array): Uint8Array {
    const digest = new Digest("SHA256");
    digest.write(data);
    return new Uint8Array(digest.close());
  },
};
