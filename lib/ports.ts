// The seams between the portable core and a host. Every platform service that
// lib/ needs arrives through one of these interfaces; hosts/device, hosts/sim
// and hosts/xs each provide implementations.

/** Wall-clock time. Tests drive a fake clock; nothing in lib/ reads Date.now(). */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** Randomness for tokens and ids. */
export interface Random {
  /** Fills `bytes` with cryptographically strong random bytes. */
  fill(bytes: Uint8Array): void;
}

/** Hashing that the host does natively (Node crypto, Moddable crypt). */
export interface Digest {
  sha256(data: Uint8Array): Uint8Array;
}

/** Line-oriented log. Never given a secret. */
export interface Log {
  info(message: string): void;
  warn(message: string): void;
}

export interface FileStat {
  size: number;
  /** Modification time in ms since the epoch. */
  mtime: number;
  directory: boolean;
}

/**
 * A small synchronous file API over the SD card (device) or a folder (simulator).
 * Paths are relative, '/'-separated, already validated by the caller.
 * Every method throws an Error with a short message when the card is absent.
 */
export interface Storage {
  present(): boolean;
  read(path: string): Uint8Array | undefined;
  /** Writes to a temporary name, flushes, then renames over `path`. */
  writeAtomic(path: string, data: Uint8Array): void;
  append(path: string, data: Uint8Array): void;
  rename(from: string, to: string): void;
  remove(path: string): void;
  list(dir: string): string[];
  stat(path: string): FileStat | undefined;
  freeBytes(): number;
}

/**
 * Small durable settings on internal flash, not the SD card: client tokens,
 * config knobs, secrets. Keys are `[a-z0-9._-]{1,64}`; values are short strings.
 * `set` is atomic: after a power cut a key holds the old or the new value.
 */
export interface Settings {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  remove(key: string): void;
  /** Keys that start with `prefix`, sorted. */
  keys(prefix: string): string[];
}

/** The int8 vector kernels: native C on XS, TypeScript elsewhere. */
export interface Kernels {
  /**
   * Scores `count` int8 rows of `dims` bytes in `store` against `query` (dot
   * products) and returns the indices and scores of the best `k`, best first.
   * Rows whose `mask` byte is 0 are skipped when a mask is given.
   */
  topK(
    store: Int8Array,
    dims: number,
    count: number,
    query: Int8Array,
    k: number,
    mask?: Uint8Array,
  ): { indices: Int32Array; scores: Int32Array };
}

export interface HttpClientRequest {
  method: string;
  url: string;
  /** Header names in lower case. */
  headers?: { [name: string]: string };
  body?: string | Uint8Array;
  /** The whole exchange is abandoned after this long. */
  timeoutMs: number;
  /** A response body past this size is refused (the request rejects). */
  maxResponseBytes: number;
}

export interface HttpClientResponse {
  status: number;
  /** Header names in lower case. */
  headers: { [name: string]: string };
  body: Uint8Array;
}

/**
 * Outbound HTTP(S). Redirects are not followed: callers that allow them do so
 * themselves, with their own limit. Rejects with an Error whose message is one
 * short sentence on network failure, timeout or an oversized body.
 */
export interface HttpClient {
  request(req: HttpClientRequest): Promise<HttpClientResponse>;
}

/** The set of ports the core is built with. Optional ports are absent on some hosts. */
export interface Ports {
  clock: Clock;
  random: Random;
  digest: Digest;
  log: Log;
  settings: Settings;
  http: HttpClient;
  storage?: Storage;
  kernels?: Kernels;
}
