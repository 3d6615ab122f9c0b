// A stand-in Blossom server for tests, with no Node imports so that it runs on the XS host too: BUD-01 (GET
// and HEAD /<sha256>) and BUD-02 (PUT /upload, GET /list/<pubkey>, DELETE /<sha256>) as a request handler.
// Every upload and delete must carry a kind-24242 authorization that it checks as a real server does: the
// event's id and signature (lib/nostr's verifyEvent), its kind, its `t` verb, its `expiration` in the future
// and, for a blob, its `x` tag naming the blob's hash (which it computes itself). A test can make it serve
// wrong bytes for a blob (`corrupt`) to see that a client checks the hash.
import { tsCurve } from "../../lib/nostr/curve/ts-curve.ts";
import { type NostrEvent, portableSha256, verifyEvent } from "../../lib/nostr/event.ts";
import { decodeBase64 } from "../../lib/util/base64.ts";
import { toHex } from "../../lib/util/hash.ts";

export interface BlossomAnswer {
  status: number;
  headers: { [name: string]: string };
  body: Uint8Array;
}

interface Blob {
  bytes: Uint8Array;
  type: string;
  uploaded: number;
  owners: Set<string>;
}

export interface StandInBlossomOptions {
  /** Seconds since the epoch. */
  now: () => number;
  /** SHA-256 (the host's digest: native on XS). */
  sha256: (data: Uint8Array) => Uint8Array;
  /** The URL blobs are served under. */
  base: string;
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

export class StandInBlossom {
  readonly blobs = new Map<string, Blob>();
  /** Why the last refused request was refused (its X-Reason). */
  readonly refusals: string[] = [];
  /** Blobs served with their last byte changed. */
  readonly corrupt = new Set<string>();

  constructor(private readonly options: StandInBlossomOptions) {}

  handle(method: string, path: string, headers: { [name: string]: string | undefined }, body: Uint8Array): BlossomAnswer {
    const blobPath = /^\/([0-9a-f]{64})(\.[a-z0-9]{1,8})?$/.exec(path);
    if (method === "PUT" && path === "/upload") return this.upload(headers, body);
    if (method === "GET" && path.startsWith("/list/")) return this.list(path.slice(6));
    if (blobPath && (method === "GET" || method === "HEAD")) return this.get(blobPath[1], method === "HEAD");
    if (blobPath && method === "DELETE") return this.remove(blobPath[1], headers);
    return this.refuse(404, "not found");
  }

  descriptor(sha256: string): { [k: string]: unknown } {
    const b = this.blobs.get(sha256)!;
    return { url: `${this.options.base}/${sha256}`, sha256, size: b.bytes.length, type: b.type, uploaded: b.uploaded };
  }

  private upload(headers: { [name: string]: string | undefined }, body: Uint8Array): BlossomAnswer {
    const sha256 = toHex(this.options.sha256(body));
    const auth = this.authorize(headers.authorization, "upload", sha256);
    if (typeof auth === "string") return this.refuse(401, auth);
    const have = this.blobs.get(sha256);
    if (have) have.owners.add(auth.pubkey);
    else
      this.blobs.set(sha256, {
        bytes: body.slice(),
        type: headers["content-type"] ?? "application/octet-stream",
        uploaded: this.options.now(),
        owners: new Set([auth.pubkey]),
      });
    return this.json(200, this.descriptor(sha256));
  }

  private get(sha256: string, head: boolean): BlossomAnswer {
    const b = this.blobs.get(sha256);
    if (!b) return this.refuse(404, "no such blob");
    let bytes = b.bytes;
    if (this.corrupt.has(sha256)) {
      bytes = bytes.slice();
      bytes[bytes.length - 1] ^= 0xff;
    }
    const headers = { "content-type": b.type, "content-length": String(bytes.length) };
    return { status: 200, headers, body: head ? new Uint8Array(0) : bytes };
  }

  private remove(sha256: string, headers: { [name: string]: string | undefined }): BlossomAnswer {
    const auth = this.authorize(headers.authorization, "delete", sha256);
    if (typeof auth === "string") return this.refuse(401, auth);
    const b = this.blobs.get(sha256);
    if (!b) return this.refuse(404, "no such blob");
    if (!b.owners.has(auth.pubkey)) return this.refuse(403, "not your blob");
    b.owners.delete(auth.pubkey);
    if (b.owners.size === 0) this.blobs.delete(sha256);
    return this.json(200, { deleted: sha256 });
  }

  private list(pubkey: string): BlossomAnswer {
    if (!/^[0-9a-f]{64}$/.test(pubkey)) return this.refuse(400, "bad pubkey");
    const out = [...this.blobs.entries()].filter(([, b]) => b.owners.has(pubkey)).map(([sha]) => this.descriptor(sha));
    return this.json(200, out);
  }

  /** The signed authorization event, or why it is refused. */
  private authorize(header: string | undefined, verb: string, sha256: string): NostrEvent | string {
    if (!header?.startsWith("Nostr ")) return "missing authorization";
    const bytes = decodeBase64(header.slice(6).trim());
    if (!bytes) return "authorization is not base64";
    let raw: unknown;
    try {
      raw = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return "authorization is not JSON";
    }
    const checked = verifyEvent(tsCurve, portableSha256, raw, this.options.now());
    if ("refused" in checked) return `authorization event refused: ${checked.refused}`;
    const e = checked.event;
    if (e.kind !== 24242) return "authorization is not kind 24242";
    if (!e.tags.some((t) => t[0] === "t" && t[1] === verb)) return `authorization is not for ${verb}`;
    const exp = e.tags.find((t) => t[0] === "expiration");
    if (!exp || !(Number(exp[1]) > this.options.now())) return "authorization expired";
    if (!e.tags.some((t) => t[0] === "x" && t[1] === sha256)) return "authorization does not name this blob";
    return e;
  }

  private refuse(status: number, reason: string): BlossomAnswer {
    this.refusals.push(reason);
    return { status, headers: { "x-reason": reason, "content-type": "text/plain" }, body: utf8(reason) };
  }

  private json(status: number, value: unknown): BlossomAnswer {
    return { status, headers: { "content-type": "application/json" }, body: utf8(JSON.stringify(value)) };
  }
}
