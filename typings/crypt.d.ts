// "crypt" (modules/crypt/digest): native hashes.

export class Digest {
  constructor(type: "MD5" | "SHA1" | "SHA224" | "SHA256" | "SHA384" | "SHA512");
  /** Accepts a String, an ArrayBuffer or a view of one. */
  write(message: string | ArrayBuffer | ArrayBufferView): void;
  /** Returns the hash and frees the digest; call once. */
  close(): ArrayBuffer;
}
