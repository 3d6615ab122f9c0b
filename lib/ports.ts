// The seams between the portable core and a host. Every platform service that
// lib/ needs arrives through one of these interfaces; hosts/device, hosts/sim
// and hosts/xs each provide implementations.

/** Wall-clock time. Tests drive a fake clock; lib/ never reads the ambient clock. */
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
  /** Number.MAX_SAFE_INTEGER when the host cannot tell (see FREE_SPACE_UNKNOWN). */
  freeBytes(): number;
}

/**
 * Small durable settings on internal flash, not the SD card: client tokens,
 * config knobs, secrets. Keys are `[a-z0-9._-]{1,64}`; values are short strings.
 * `set` is atomic: after a power cut a key holds the old or the new value.
 */
export interface Settings {
  get(key: string): string | undefined;
  /** Throws when the value is over SETTINGS_VALUE_MAX_BYTES (lib/limits.ts). */
  set(key: string, value: string): void;
  remove(key: string): void;
  /** Keys that start with `prefix`, sorted. */
  keys(prefix: string): string[];
}

/** The int8 vector kernels: native C on XS, TypeScript elsewhere. */
export interface Kernels {
  /**
   * Scores `count` int8 rows of `dims` bytes in `store` against `query` (dot
   * products, times the row's entry in `scales` when given) and returns the
   * indices and scores of the best `k`, best first. Rows whose `mask` byte is
   * 0 are skipped when a mask is given.
   */
  topK(
    store: Int8Array,
    dims: number,
    count: number,
    query: Int8Array,
    k: number,
    mask?: Uint8Array,
    scales?: Float32Array,
  ): { indices: Int32Array; scores: Float64Array };
  /** The dot product of the float `query` with each row listed in `rows` (at most 64). */
  dots(store: Int8Array, dims: number, rows: Int32Array, query: Float32Array): Float64Array;
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

/** The `code` property of an HttpClient rejection. */
export type HttpClientErrorCode = "timeout" | "too-large" | "network";

export interface HttpClientResponse {
  status: number;
  /** Header names in lower case. */
  headers: { [name: string]: string };
  body: Uint8Array;
}

/**
 * Outbound HTTP(S). Redirects are not followed: callers that allow them do so
 * themselves, with their own limit. Rejects with an Error whose message is one
 * short sentence on network failure, timeout or an oversized body, and whose
 * `code` (HttpClientErrorCode) says which, so callers can tell a slow server
 * from a refused connection; an Error without a code counts as "network".
 */
export interface HttpClient {
  request(req: HttpClientRequest): Promise<HttpClientResponse>;
}

/** What the System port reports. A field the hardware cannot measure is undefined, never a guess. */
export interface SystemInfo {
  firmwareVersion: string;
  /** Build id: commit, date or toolchain, as the host knows it. */
  build: string;
  /** True on the simulator: readings describe the PC process, not a device. */
  simulated: boolean;
  uptimeMs: number;
  freeHeapBytes: number;
  totalHeapBytes?: number;
  /** Undefined when the board has no PSRAM. */
  freePsramBytes?: number;
  totalPsramBytes?: number;
  /** Internal flash (settings partition) usage; undefined when unknown. */
  flashUsedBytes?: number;
  flashTotalBytes?: number;
  /** "absent": no radio; "disconnected": radio up, no access point. */
  wifi: "connected" | "disconnected" | "absent";
  /** Signal of the current access point; undefined unless connected. */
  wifiRssiDbm?: number;
  /** IANA zone name, e.g. "Europe/Berlin"; "UTC" when none is set. */
  timeZone: string;
  resetReason?: string;
}

/** The board itself: live readings and a restart. */
export interface System {
  info(): SystemInfo;
  /** Restarts the device (the simulator only records the request). */
  reboot(): void;
}

export type LedMode = "off" | "solid" | "spinner" | "pulse" | "flash" | "rainbow";

/** One ring pattern. Brightness is 0-255 and already capped by the caller. */
export interface LedPattern {
  mode: LedMode;
  r: number;
  g: number;
  b: number;
  brightness: number;
}

/** The WS2812 ring. */
export interface Led {
  readonly pixels: number;
  show(pattern: LedPattern): void;
  /** The pattern the ring shows now. */
  current(): LedPattern;
  /** A driver-level check without lighting anything: undefined when healthy, else one sentence. */
  check(): string | undefined;
}

/** The speaker: speech, volume, and a tone for the self-test. */
export interface AudioOut {
  /** Speaks `text` (the host synthesises it); resolves when playback finished or was queued. */
  speak(text: string, voice: string): Promise<void>;
  /** Volume 0-100. */
  volume(): number;
  setVolume(percent: number): void;
  tone(frequencyHz: number, durationMs: number): Promise<void>;
}

export type OtaState = "idle" | "checking" | "downloading" | "verifying" | "ready" | "failed" | "disabled";

export interface OtaStatus {
  state: OtaState;
  runningVersion: string;
  /** The partition slot running now, e.g. "ota_0". */
  slot?: string;
  autoUpdate: boolean;
  latest?: { version: string; notes: string };
  lastInstall?: { version: string; outcome: "ok" | "failed" | "rolled-back"; at: number };
  /** One sentence on why the state is what it is (e.g. "the simulator does not update itself"). */
  detail?: string;
}

/** The firmware-update engine, read-only: tools never install. */
export interface Ota {
  status(): OtaStatus;
}

/** One file handed to a messenger. */
export interface OutgoingFile {
  name: string;
  /** MIME type, e.g. `image/png`, `text/markdown`. */
  mime: string;
  bytes: Uint8Array;
  caption?: string;
}

/**
 * Delivers files to a chat (the Telegram client). `chatId` undefined means the
 * owner's own chat. Rejects with an Error whose message is one short sentence.
 */
export interface Messenger {
  sendDocument(file: OutgoingFile, chatId?: string): Promise<void>;
  /** Images go as an inline photo. */
  sendPhoto(file: OutgoingFile, chatId?: string): Promise<void>;
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
  /** Absent until the Telegram client exists: files.send then reports "not configured". */
  messenger?: Messenger;
  system?: System;
  led?: Led;
  audioOut?: AudioOut;
  ota?: Ota;
}
