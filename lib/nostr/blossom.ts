// Blossom (blobs addressed by their SHA-256 on plain HTTP servers) over the guarded client: BUD-01 (GET and
// HEAD /<sha256>), BUD-02 (PUT /upload, GET /list/<pubkey>, DELETE /<sha256>) with kind-24242 authorization
// events signed by the device's key, and BUD-03 (the owner's kind-10063 server list). The servers the device
// talks to are an owner setting; without one, the owner's BUD-03 list is used. A download is hashed before
// anything is kept: a blob whose hash is not the one asked for is refused. Every request goes through the
// guarded client (lib/net/outbound.ts): the servers the owner set are reached as they are, while a server
// from the BUD-03 list (read from a relay) and every redirect's host are checked like any received address.
import { toJson } from "../util/json";
import { HaloError } from "../errors";
import { type GuardedHttp, originOfText } from "../net/outbound";
import type { CallSignal, Digest, HttpClientResponse, Settings } from "../ports";
import { toHex } from "../util/hash";
import { encodeBase64 } from "../voice/base64-encode";
import type { NostrEvent } from "./event";
import type { NostrIdentity } from "./identity";

/** Servers in the owner's list. */
export const BLOSSOM_SERVERS_MAX = 8;
/** Longest server URL (characters). */
export const BLOSSOM_SERVER_URL_MAX_CHARS = 256;
/** Largest blob uploaded or downloaded (bytes). */
export const BLOSSOM_BLOB_MAX_BYTES = 8 * 1024 * 1024;
/** One request's deadline (ms); an upload or download of a large blob gets the caller's deadline instead. */
export const BLOSSOM_HTTP_TIMEOUT_MS = 60_000;
/** How long an authorization event is valid (s). */
export const BLOSSOM_AUTH_TTL_S = 300;
/** Blobs listed at most. */
export const BLOSSOM_LIST_MAX = 200;
/** The BUD-03 user server list. */
export const KIND_BLOSSOM_SERVERS = 10063;
/** The BUD-01/02 authorization event. */
export const KIND_BLOSSOM_AUTH = 24242;

const SERVERS_SETTING = "blossom.servers";

/** What a server says of a blob (BUD-02). */
export interface BlobDescriptor {
  url: string;
  sha256: string;
  size: number;
  type?: string;
  uploaded?: number;
}

export interface BlossomDeps {
  /** The guarded client (lib/net/outbound.ts); the owner's servers are its trusted origins. */
  http: GuardedHttp;
  digest: Digest;
  settings: Settings;
  identity: NostrIdentity;
  nowSeconds(): number;
  /** The owner's kind-10063 server list from the relays (BUD-03); undefined without relays or an owner. */
  ownerServerList?(): Promise<NostrEvent | undefined>;
}

export function isSha256Hex(v: unknown): v is string {
  return typeof v === "string" && /^[0-9a-f]{64}$/.test(v);
}

/** A server's canonical URL: http(s), no credentials, query or fragment, no trailing slash. */
export function normalizeServer(url: string): string {
  const m = /^(https?):\/\/([^/?#@\s]+)(\/[^?#\s]*)?$/i.exec(url.trim());
  if (!m || url.length > BLOSSOM_SERVER_URL_MAX_CHARS) {
    throw new HaloError("invalid-arguments", "a Blossom server is an http or https URL without credentials, query or fragment.");
  }
  return `${m[1].toLowerCase()}://${m[2].toLowerCase()}${(m[3] ?? "").replace(/\/+$/, "")}`;
}

function descriptorOf(raw: unknown): BlobDescriptor | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const r = raw as { [k: string]: unknown };
  if (!isSha256Hex(r.sha256) || typeof r.size !== "number" || typeof r.url !== "string") return undefined;
  const out: BlobDescriptor = { url: r.url.slice(0, 512), sha256: r.sha256, size: r.size };
  if (typeof r.type === "string") out.type = r.type.slice(0, 100);
  if (typeof r.uploaded === "number") out.uploaded = r.uploaded;
  return out;
}

/** A server's refusal as one sentence: its status and, when given, its X-Reason (clipped, never echoed whole). */
function refusal(res: HttpClientResponse, what: string): HaloError {
  const tag = res.status === 404 ? "not-found" : res.status === 401 || res.status === 403 ? "refused" : "unavailable";
  return new HaloError(tag, `the Blossom server answered ${res.status} to the ${what}.`);
}

export class BlossomClient {
  private cachedList?: string[];

  constructor(private readonly deps: BlossomDeps) {}

  /** The owner's servers (an owner setting; no tool writes it). */
  ownerServers(): string[] {
    try {
      const raw = JSON.parse(this.deps.settings.get(SERVERS_SETTING) ?? "[]") as unknown;
      return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === "string") : [];
    } catch {
      return [];
    }
  }

  setOwnerServers(urls: string[]): string[] {
    if (urls.length > BLOSSOM_SERVERS_MAX) throw new HaloError("invalid-arguments", `at most ${BLOSSOM_SERVERS_MAX} Blossom servers.`);
    const out: string[] = [];
    for (const u of urls) {
      const s = normalizeServer(u);
      if (!out.includes(s)) out.push(s);
    }
    this.deps.settings.set(SERVERS_SETTING, toJson(out));
    return out;
  }

  /** The servers in use: the owner's setting, else the owner's BUD-03 list from the relays (read once). */
  async servers(): Promise<string[]> {
    const set = this.ownerServers();
    if (set.length > 0) return set;
    if (this.cachedList) return this.cachedList;
    const event = await this.deps.ownerServerList?.().catch(() => undefined);
    const list: string[] = [];
    for (const t of event?.tags ?? []) {
      if (t[0] !== "server" || typeof t[1] !== "string" || list.length >= BLOSSOM_SERVERS_MAX) continue;
      try {
        const s = normalizeServer(t[1]);
        if (!list.includes(s)) list.push(s);
      } catch {
        // A malformed entry in someone's list is skipped.
      }
    }
    if (event) this.cachedList = list;
    return list;
  }

  /** The server to use: the one asked for, which must be on the list, else the list's first. */
  async server(asked?: string): Promise<string> {
    const list = await this.servers();
    if (asked !== undefined) {
      const s = normalizeServer(asked);
      if (!list.includes(s)) throw new HaloError("not-allowed", "that Blossom server is not on the owner's list.");
      return s;
    }
    if (list.length === 0) throw new HaloError("not-configured", "the owner has set no Blossom server (and has no kind 10063 list).");
    return list[0];
  }

  /** A kind-24242 authorization (BUD-01/02) for `verb`, for the blob `sha256` when given, as the header's value. */
  authorization(verb: "upload" | "delete" | "get" | "list", sha256?: string): string {
    const now = this.deps.nowSeconds();
    const tags = [
      ["t", verb],
      ["expiration", String(now + BLOSSOM_AUTH_TTL_S)],
    ];
    if (sha256) tags.push(["x", sha256]);
    const event = this.deps.identity.sign({ kind: KIND_BLOSSOM_AUTH, created_at: now, tags, content: `${verb} ${sha256 ?? "blobs"}` });
    return `Nostr ${encodeBase64(new TextEncoder().encode(toJson(event)))}`;
  }

  async upload(bytes: Uint8Array, type: string, signal?: CallSignal, asked?: string): Promise<BlobDescriptor> {
    if (bytes.length > BLOSSOM_BLOB_MAX_BYTES) throw new HaloError("too-large", `a blob is at most ${BLOSSOM_BLOB_MAX_BYTES} bytes.`);
    const server = await this.server(asked);
    const sha256 = toHex(this.deps.digest.sha256(bytes));
    const res = await this.request(
      {
        method: "PUT",
        url: `${server}/upload`,
        headers: { authorization: this.authorization("upload", sha256), "content-type": type, "x-sha-256": sha256 },
        body: bytes,
        maxResponseBytes: 16 * 1024,
      },
      signal,
    );
    if (res.status < 200 || res.status > 299) throw refusal(res, "upload");
    const d = descriptorOf(this.json(res));
    if (!d || d.sha256 !== sha256) throw new HaloError("invalid", "the Blossom server described another blob than the one uploaded.");
    return d;
  }

  /** The blob's bytes, checked against `sha256` before they are returned; a mismatch is refused. */
  async download(sha256: string, signal?: CallSignal, asked?: string): Promise<{ bytes: Uint8Array; type: string; server: string }> {
    const server = await this.server(asked);
    const res = await this.request({ method: "GET", url: `${server}/${sha256}`, maxResponseBytes: BLOSSOM_BLOB_MAX_BYTES }, signal);
    if (res.status !== 200) throw refusal(res, "download");
    if (toHex(this.deps.digest.sha256(res.body)) !== sha256) {
      throw new HaloError("invalid", "the blob's SHA-256 is not the one asked for; nothing was kept.");
    }
    return { bytes: res.body, type: (res.headers["content-type"] ?? "application/octet-stream").slice(0, 100), server };
  }

  async head(sha256: string, signal?: CallSignal, asked?: string): Promise<{ size?: number; type?: string; server: string }> {
    const server = await this.server(asked);
    const res = await this.request({ method: "HEAD", url: `${server}/${sha256}`, maxResponseBytes: 0 }, signal);
    if (res.status !== 200) throw refusal(res, "HEAD request");
    const size = Number(res.headers["content-length"]);
    const out: { size?: number; type?: string; server: string } = { server };
    if (Number.isInteger(size) && size >= 0) out.size = size;
    if (res.headers["content-type"]) out.type = res.headers["content-type"].slice(0, 100);
    return out;
  }

  async remove(sha256: string, signal?: CallSignal, asked?: string): Promise<string> {
    const server = await this.server(asked);
    const res = await this.request(
      {
        method: "DELETE",
        url: `${server}/${sha256}`,
        headers: { authorization: this.authorization("delete", sha256) },
        maxResponseBytes: 16 * 1024,
      },
      signal,
    );
    if (res.status < 200 || res.status > 299) throw refusal(res, "delete");
    return server;
  }

  async list(pubkey: string, signal?: CallSignal, asked?: string): Promise<{ server: string; blobs: BlobDescriptor[] }> {
    const server = await this.server(asked);
    const res = await this.request(
      {
        method: "GET",
        url: `${server}/list/${pubkey}`,
        headers: { authorization: this.authorization("list") },
        maxResponseBytes: 256 * 1024,
      },
      signal,
    );
    if (res.status !== 200) throw refusal(res, "list");
    const raw = this.json(res);
    if (!Array.isArray(raw)) throw new HaloError("invalid", "the Blossom server's list is not a list of blobs.");
    const blobs: BlobDescriptor[] = [];
    for (const item of raw.slice(0, BLOSSOM_LIST_MAX)) {
      const d = descriptorOf(item);
      if (d) blobs.push(d);
    }
    return { server, blobs };
  }

  private json(res: HttpClientResponse): unknown {
    try {
      return JSON.parse(new TextDecoder().decode(res.body));
    } catch {
      return undefined;
    }
  }

  /** The origins of the servers the owner set: only those skip the address check (not a relay's BUD-03 list). */
  private trustedOrigins(): string[] {
    const out: string[] = [];
    for (const s of this.ownerServers()) {
      const origin = originOfText(s);
      if (origin !== undefined) out.push(origin);
    }
    return out;
  }

  private async request(
    req: { method: string; url: string; headers?: { [k: string]: string }; body?: Uint8Array; maxResponseBytes: number },
    signal?: CallSignal,
  ): Promise<HttpClientResponse> {
    try {
      return await this.deps.http.request({ ...req, timeoutMs: BLOSSOM_HTTP_TIMEOUT_MS, signal, trusted: this.trustedOrigins() });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === "timeout") throw new HaloError("timeout", "the Blossom server did not answer in time.");
      if (code === "too-large") throw new HaloError("too-large", "the blob is larger than the device takes.");
      throw new HaloError("unavailable", "the Blossom server could not be reached.");
    }
  }
}
