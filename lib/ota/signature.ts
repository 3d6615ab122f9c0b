// Ed25519 verification of a release (RFC 8032, through @noble/ed25519, a
// single file with no imports; measured at about 3 ms a verification on the XS
// host, so no C is needed). SHA-512 comes from the host (OtaSlots.sha512:
// Moddable's native Digest on the device). Several keys may be trusted at once,
// so a signing key can be rotated: publish with the new key once every device
// trusts it.
import * as ed from "@noble/ed25519";
import { fromHex } from "../util/hash";
import { encodeUtf8 } from "../util/utf8";
import { signedMessage, type Release } from "./feed";

export type SignatureVerdict = "ok" | "unknown-key" | "bad-signature";

/** Whether `release` is signed by one of `trustedKeys` (lower-case hex Ed25519 public keys). */
export function verifyRelease(
  release: Release,
  trustedKeys: readonly string[],
  sha512: (data: Uint8Array) => Uint8Array,
): SignatureVerdict {
  if (trustedKeys.indexOf(release.image.key) < 0) return "unknown-key";
  // noble reads its SHA-512 from this hook; set at each use, never at module load (lib/ holds no top-level
  // state), which also means @noble/ed25519 must not be preloaded on the device (a preloaded object is frozen).
  ed.hashes.sha512 = (message) => new Uint8Array(sha512(message));
  try {
    const ok = ed.verify(fromHex(release.image.signature), encodeUtf8(signedMessage(release)), fromHex(release.image.key));
    return ok ? "ok" : "bad-signature";
  } catch {
    return "bad-signature"; // a key that is not a curve point, a signature scalar out of range
  }
}
