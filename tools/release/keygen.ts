// npm run release:keygen [-- --out <file>]: makes an Ed25519 release signing
// key pair. The private key goes to a file outside the repository (default
// ~/.config/halo/release-key.json, mode 0600); the public key is printed, for
// the build's trusted keys (HALO_OTA_KEYS in the simulator).
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, resolve, relative } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export function defaultKeyPath(): string {
  return resolve(homedir(), ".config/halo/release-key.json");
}

/** Writes a new key pair to `path`; returns the public key in hex. Refuses a path inside the repository or an existing file. */
export function makeReleaseKey(path: string): string {
  const abs = resolve(path);
  const rel = relative(REPO, abs);
  if (!rel.startsWith("..") && !rel.startsWith("/"))
    throw new Error("refusing to write a signing key inside the repository; choose a path outside it");
  if (existsSync(abs)) throw new Error(`${abs} exists; a key is never overwritten`);
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const pub = publicKey.export({ format: "jwk" }).x as string;
  const publicHex = Buffer.from(pub, "base64url").toString("hex");
  mkdirSync(dirname(abs), { recursive: true, mode: 0o700 });
  const pem = privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  writeFileSync(abs, JSON.stringify({ format: "halo-release-key/1", publicKey: publicHex, privateKeyPem: pem }, null, 2) + "\n", {
    mode: 0o600,
  });
  return publicHex;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf("--out");
  const path = i > 0 ? process.argv[i + 1] : defaultKeyPath();
  try {
    const publicHex = makeReleaseKey(path);
    console.log(`private key: ${resolve(path)} (keep it secret, keep a backup)`);
    console.log(`public key:  ${publicHex}`);
  } catch (e) {
    console.error(`release:keygen: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
