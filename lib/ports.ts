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

/** Hashing that the host does natively (Node crypto, Moddable crypt, modules/sha256). */
export interface Digest {
  sha256(data: Uint8Array): Uint8Array;
  /** SHA-256 fed in pieces: the memory snapshot is hashed as it is read and written, never held whole. */
  sha256Stream(): Sha256Stream;
}

/**
 * secp256k1 point arithmetic, the hot loop of Nostr's BIP-340 signatures and NIP-04/NIP-44 ECDH
 * (lib/nostr/secp256k1.ts does the rest). Points are 33-byte compressed SEC 1 encodings, scalars 32 bytes
 * big-endian. Bound to the C module (modules/curve) on the device, the XS host and Node, or to
 * lib/nostr/curve/ts-curve.ts; every binding gives the same bytes and the same refusals (an Error naming
 * what is wrong: a length, a scalar out of range, a point not on the curve).
 */
export interface Curve {
  /** "c" (modules/curve) or "ts" (lib/nostr/curve). */
  readonly binding: string;
  /** k·G for a secret k in [1, n): public keys and nonces (constant time in k on the C binding). */
  multiplyBase(k: Uint8Array): Uint8Array;
  /** k·P for a secret k in [1, n): ECDH (constant time in k on the C binding). */
  multiply(point: Uint8Array, k: Uint8Array): Uint8Array;
  /** a·G + b·P for public a, b in [0, n): verification; undefined when the sum is the point at infinity. */
  multiplyAdd(a: Uint8Array, point: Uint8Array, b: Uint8Array): Uint8Array | undefined;
}

/** Line-oriented log. Never given a secret. */
export interface Log {
  info(message: string): void;
  warn(message: string): void;
  /** Lines a rate limiter withheld since boot (lib/util/log-limit.ts); absent without one. */
  withheld?(): number;
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
  /**
   * Copies the file's bytes from `offset` into `into`, as many as fit: returns the count, which is under
   * `into.length` only at the file's end (0 at or past it). Undefined when there is no such file, as with read.
   */
  readRange(path: string, offset: number, into: Uint8Array): number | undefined;
  /** Writes to a temporary name, flushes, then renames over `path`. */
  writeAtomic(path: string, data: Uint8Array): void;
  /**
   * writeAtomic with the data in pieces: calls `next` until it returns undefined, each piece written before
   * the next call (so one buffer may hold every piece). The same protocol as writeAtomic: a failure, a
   * pulled card or a throw from `next` leaves the old file as it was.
   */
  writeAtomicFrom(path: string, next: () => Uint8Array | undefined): void;
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
  /**
   * The re-rank of a few candidates: for each row listed in `rows` (at most 64), the dot product of the
   * float `query` with the row refined by its 4-bit residuals in `residuals` (row + residual / 16,
   * lib/memory/store/quantize.ts), over the refined row's norm. docs/memory-kernel.md has the contract.
   */
  rerank(store: Int8Array, dims: number, residuals: Uint8Array, rows: Int32Array, query: Float32Array): Float64Array;
  /** The lexical index's loops over its arena memory. */
  lexicon: LexiconKernels;
}

/**
 * The lexical index's hot loops (tokenize and hash a text, probe the term table, append and drop
 * postings, score): native C on XS, TypeScript elsewhere, same results. A namespace's index is three
 * regions of arena memory that lib/memory/recall/lexical.ts allocates and grows, each with its size in
 * its own header: `heap` (the terms and their postings), `table` (term -> record) and `docs` (per
 * document its id, length and score accumulator, and id -> document). Texts come lower-cased. A
 * negative result of add or reserve changes nothing and asks for room: NEED_TABLE (-1) a larger table,
 * NEED_DOCS (-2) more documents, any other -n a heap of at least n words. docs/memory-kernel.md has the
 * layout and the contract.
 */
export interface LexiconKernels {
  /** Indexes `text` as the entry `id`; returns its length in terms. Throws when `id` is indexed already. */
  add(heap: ArrayBuffer, table: ArrayBuffer, docs: ArrayBuffer, text: string, id: number): number;
  /** 0 when `text` fits as the replacement of an indexed entry's (nothing is indexed), else add's room codes. */
  reserve(heap: ArrayBuffer, table: ArrayBuffer, text: string): number;
  /** Unindexes the entry `id` whose text was `text`; returns its length, or -1 when it is not indexed. */
  remove(heap: ArrayBuffer, table: ArrayBuffer, docs: ArrayBuffer, text: string, id: number): number;
  /** The query's distinct terms (at most 32, first seen first): their record (0: absent) and entry count in `out` pairs; returns how many. */
  lookup(heap: ArrayBuffer, table: ArrayBuffer, query: string, out: Int32Array): number;
  /**
   * Scores the entries of `count` looked-up terms (`terms` as lookup wrote it, `idfs` per term) and writes
   * the best `limit` into `out` as (id, score / mass) pairs, best first, ties to the lower id; returns how many.
   */
  score(
    heap: ArrayBuffer,
    docs: ArrayBuffer,
    terms: Int32Array,
    idfs: Float64Array,
    count: number,
    average: number,
    mass: number,
    limit: number,
    out: Float64Array,
  ): number;
  /** Fills an empty `table` (its cell count in its header) with the heap's live terms, dropping the dead ones. */
  rebuild(heap: ArrayBuffer, table: ArrayBuffer): void;
  /** Moves the live records to the front of the heap (dead terms and holes go) and rebuilds `table` in place. */
  compact(heap: ArrayBuffer, table: ArrayBuffer): void;
  /** Copies the documents of `from` into the larger empty `to` (its capacity in its header). */
  moveDocs(from: ArrayBuffer, to: ArrayBuffer): void;
}

/**
 * Memory for the vector store outside the garbage-collected heap. On XS it is
 * a buffer the native module allocates (PSRAM on the ESP32-S3), which the
 * collector neither scans nor moves; on Node a plain ArrayBuffer (V8 keeps an
 * ArrayBuffer's bytes outside its JS heap already).
 */
export interface VectorArena {
  /** Bytes this host gives vector stores in all: what max_vectors is clamped to (lib/memory/store/store-arrays.ts). */
  budgetBytes(): number;
  /** Bytes allocated and not yet given back (or collected). */
  usedBytes(): number;
  /**
   * `bytes` zeroed bytes starting on an 8-byte boundary, for typed arrays to be
   * made over (on XS a host buffer: `new Float64Array(memory, offset, length)`
   * works; ArrayBuffer's own methods and byteLength do not). Throws a HaloError
   * tagged "full" when the host cannot give them; never aborts.
   */
  allocate(bytes: number): ArrayBuffer;
  /** Gives `memory` back now; views over it read as empty afterwards. Memory never released is freed when collected. */
  release(memory: ArrayBuffer): void;
}

/**
 * Cancellation a caller hands down (lib/util/abort.ts makes one): XS 13.3 has no AbortController, so the
 * core carries its own. Host ports that do long work (an HTTP request) stop when it is aborted.
 */
export interface CallSignal {
  readonly aborted: boolean;
  /** One sentence saying why, once aborted. */
  readonly reason: string | undefined;
  /** Calls `listener` once when aborted (at once if it already is); returns the function that stops listening. */
  onAbort(listener: () => void): () => void;
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
  /** Connect to this IP address instead of resolving the URL's host; the Host header and TLS name stay the URL's. */
  address?: string;
  /** Abandons the exchange when aborted (the caller's deadline passed): the request rejects with code "timeout". */
  signal?: CallSignal;
}

/** Name resolution as the HttpClient does it (the hosts file included): every address a name has. */
export interface Resolver {
  /** Rejects when the name does not resolve. */
  resolve(name: string): Promise<string[]>;
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

export interface AudioHttpRequest {
  method: string;
  url: string;
  /** Header names in lower case. No content-length: the body is sent chunked. */
  headers: { [name: string]: string };
  timeoutMs: number;
  maxResponseBytes: number;
  /** A 2xx body is handed here piece by piece as it arrives instead of being collected. */
  onBody?(chunk: Uint8Array): void;
}

export interface AudioHttpExchange {
  /** Queues a piece of the request body. */
  write(chunk: Uint8Array): void;
  /** Ends the request body; resolves with the response once its body has ended (empty when streamed to onBody). */
  end(): Promise<HttpClientResponse>;
  /** Abandons the exchange; a pending `end()` rejects. */
  abort(): void;
}

/**
 * HTTP with bodies in pieces, for audio: the capture goes up while it is being recorded (chunked
 * transfer encoding) and speech comes down while it is being made. A host whose client cannot stream
 * binds `bufferedAudioHttp(http)` (lib/voice/audio-http.ts) and says so.
 */
export interface AudioHttp {
  open(req: AudioHttpRequest): AudioHttpExchange;
  /** True when bodies come whole at the end (no streaming): nothing arrives until the answer is complete. */
  readonly buffered?: boolean;
}

/** The host's timers. The core never sets a timer of its own; it asks here. */
export interface Timers {
  /** Calls `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
  /** Resolves after `ms` (provider retry backoff, the Telegram loop's waits, relay reconnects). */
  sleep(ms: number): Promise<void>;
}

/** What one WebSocket tells its owner. After `close()` (or onClose) nothing more fires. */
export interface WebSocketEvents {
  onOpen(): void;
  onText(text: string): void;
  /** The socket closed or failed to open; `reason` is a short sentence naming no secret. */
  onClose(reason: string): void;
}

export interface WebSocketConnection {
  /** Sends one text frame; ignored when the socket is not open. */
  send(text: string): void;
  close(): void;
}

/** What one WebSocket is opened with besides its URL. */
export interface WebSocketOptions {
  /** Extra request headers of the opening handshake (the realtime API's key). */
  headers?: { [name: string]: string };
  /** Larger frames from the server close the socket; the host may hold a lower limit of its own. */
  maxFrameBytes: number;
}

/** Outbound WebSockets (ws:// and wss://): Nostr relays and realtime speech. */
export interface WebSocketClient {
  open(url: string, events: WebSocketEvents, options: WebSocketOptions): WebSocketConnection;
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

/** A network a Wi-Fi scan found. */
export interface WifiNetwork {
  ssid: string;
  rssiDbm: number;
  /** False for an open network. */
  secure: boolean;
}

/** The station as the Wi-Fi port reports it. The password is never part of it. */
export interface WifiStatus {
  /** "connected": joined; "connecting": trying (or retrying) the stored network; "setup": the setup access point is open. */
  state: "connected" | "connecting" | "setup";
  /** The stored network's name (joined or being tried); undefined when none is stored. */
  ssid?: string;
  /** Signal of the access point; undefined unless connected. */
  rssiDbm?: number;
  /** The device's address on that network; undefined unless connected. */
  address?: string;
}

/** The Wi-Fi radio. Hosts that use their own network (the simulator, lin) have none. */
export interface Wifi {
  status(): WifiStatus;
  /**
   * Stores the credentials the way the setup page and Improv do and joins
   * with them a moment later (the owner's answer leaves first). A network
   * that cannot be joined ends, after repeated failures, in the setup access point.
   */
  join(credentials: { ssid: string; password: string }): void;
  /** The networks in range (at most 20); absent when the radio cannot scan. */
  scan?(): Promise<WifiNetwork[]>;
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
  /** Writes one status-ring frame (R, G, B per pixel, already scaled and capped; lib/device/ring). */
  frame?(rgb: Uint8Array): void;
}

/** What the button did (lib/device/button.ts turns pin levels into these). */
export type ButtonGesture = "down" | "press" | "double-press" | "long-press" | "very-long-press";

/** The device's button: the host samples the pin and reports debounced gestures. */
export interface Button {
  onGesture(listener: (gesture: ButtonGesture) => void): void;
}

/**
 * The speaker. Samples are 16-bit mono at the rate given with them (speech
 * streams at 24 kHz); the host resamples to what its output runs at and
 * applies the volume.
 */
export interface AudioOut {
  /** Volume 0-100. */
  volume(): number;
  setVolume(percent: number): void;
  /** Plays a sine tone and resolves when it has played; `level` 0-100 scales it below the volume (default 100). */
  tone(frequencyHz: number, durationMs: number, level?: number): Promise<void>;
  /** Queues samples for playback and returns at once; playback starts with the first block. */
  write(samples: Int16Array, sampleRate: number): void;
  /** Resolves when everything queued has played (at once when nothing is queued). */
  drain(): Promise<void>;
  /** Stops playback now and drops what is queued (barge-in). */
  stop(): void;
}

/**
 * The microphone: 16 kHz, 16-bit signed mono blocks (lib/voice/pcm.ts
 * MIC_SAMPLE_RATE), handed over as they are captured.
 */
export interface AudioIn {
  readonly sampleRate: number;
  /** Starts capturing; `onSamples` gets each block until stop(). Throws when the microphone is busy or failed. */
  start(onSamples: (samples: Int16Array) => void): void;
  /** Stops capturing; no block arrives after it returns. */
  stop(): void;
}

export type OtaState =
  "idle" | "checking" | "up-to-date" | "available" | "downloading" | "verifying" | "ready" | "restarting" | "error" | "disabled";

export interface OtaStatus {
  state: OtaState;
  runningVersion: string;
  /** The partition slot running now, e.g. "ota_0". */
  slot?: string;
  /** Whether the engine checks the feed on its own schedule (installs always wait for the owner). */
  autoUpdate: boolean;
  latest?: { version: string; notes: string };
  lastInstall?: { version: string; outcome: "ok" | "failed" | "rolled-back"; at: number };
  /** Bytes written of the image being downloaded. */
  progress?: { written: number; total: number };
  /** One sentence on why the state is what it is (e.g. "the simulator does not update itself"). */
  detail?: string;
}

/** The firmware-update engine as tools see it, read-only: tools never install. */
export interface Ota {
  status(): OtaStatus;
}

/** SHA-256 fed in pieces: the update engine hashes an image while it streams, the memory its snapshot file. */
export interface Sha256Stream {
  update(bytes: Uint8Array): void;
  /** The 32-byte digest; the stream takes no more bytes after it. */
  digest(): Uint8Array;
}

/** What the boot loader says about the app running now. */
export interface OtaBoot {
  /** The app partition running now, e.g. "ota_0". */
  slot: string;
  /** "pending-verify": first boot of a new image, which must mark itself valid or roll back. */
  imageState: "valid" | "pending-verify" | "unknown";
  /** Whether the other slot holds an image the boot loader can fall back to. */
  canRollBack: boolean;
  /** The version in the running image's app description, when the port reads it (the simulator does). */
  version?: string;
}

/** The spare slot being written. Nothing changes the boot slot until `complete()`. */
export interface OtaSlotWriter {
  write(chunk: Uint8Array): void;
  /** Makes the written image the next boot slot (throws when the image is not a valid app image). */
  complete(): void;
  /** Drops what was written; the boot slot stays as it is. */
  abort(): void;
}

/** The two app slots and the boot record (the device over embedded:update and ESP-IDF, the simulator over files). */
export interface OtaSlots {
  boot(): OtaBoot;
  /** Starts writing the spare slot (erasing it); throws when `size` does not fit the slot. */
  begin(size: number): OtaSlotWriter;
  /** The running image passed its health check: keep it. */
  markValid(): void;
  /** The running image failed its health check: mark it invalid and restart into the previous one. */
  rollback(): void;
  restart(): void;
  sha256(): Sha256Stream;
  /** One-shot SHA-512, for Ed25519 over a short signed message (native on the device). */
  sha512(data: Uint8Array): Uint8Array;
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

/**
 * The set of ports the core is built with. Every key is required: a host
 * supplies each port, or writes `undefined` to say the device has none (no
 * card, no speaker), so nothing falls back silently.
 */
// ---- The wake-word engine (modules/wake/; lib/wake/ uses it) ----

/** Why the engine refused an example or a set of examples (lib/wake/refusal.ts has the sentences). */
export type WakeRefusal = "empty" | "silent" | "clipped" | "too-short" | "too-long" | "unlike" | "bad-features" | "not-speech";

/** What the engine made of one recorded example. */
export interface WakeExample {
  /**
   * The example's features when it is usable: 16-bit values, WAKE_DIMS a frame, the first frame being the
   * cepstral mean taken from the others. Keep these (not the audio) to teach the detector again after a restart.
   */
  features?: Int16Array;
  refusal?: WakeRefusal;
  /** Voiced 10 ms frames kept (0 when refused early). */
  frames: number;
  /** The largest absolute sample, and how many samples were at full scale. */
  peak: number;
  clipped: number;
}

/** The outcome of teaching the examples' features. */
export interface WakeTeaching {
  refusal?: WakeRefusal;
  /** The normalised distances between the examples (pairs 0-1, 0-2, 1-2; 0 for an absent pair). */
  distances: number[];
  /** The detection threshold the examples and the sensitivity give (a normalised distance). */
  threshold: number;
}

/** A detection: which example matched, at which hop since the last reset, and how closely. */
export interface WakeHit {
  example: number;
  hop: number;
  distance: number;
  threshold: number;
}

/** One stream's detector. Its memory is fixed when it is made; nothing is allocated per frame. */
export interface WakeDetector {
  /** Bytes of fixed memory (the same figure for 1 to 3 examples). */
  readonly bytes: number;
  /** Teaches 1-3 examples' features (from exampleFeatures); on a refusal the detector has no examples. */
  teach(examples: readonly Int16Array[]): WakeTeaching;
  /** 0 (strict) to 1 (eager); 0.5 is the default. Returns the new threshold. */
  setSensitivity(sensitivity: number): number;
  /** Forgets the stream (partial matches, the noise floor, the running mean); keeps the examples. */
  reset(): void;
  /**
   * Feeds 16 kHz mono samples, any count. Returns the first detection among them, or null. `scores`, when
   * given, receives each completed 10 ms hop's best distance over the threshold (under 1 detects; 100 for a
   * hop the gate skipped), as many as fit.
   */
  push(samples: Int16Array, scores?: Float32Array): WakeHit | null;
  /** Frees the memory now; the detector must not be used afterwards. */
  close(): void;
}

export interface WakeKernel {
  /** Samples a second (16000), samples a hop (160), values a frame (13), the most examples (3). */
  readonly sampleRate: number;
  readonly hopSamples: number;
  readonly frameValues: number;
  readonly maxExamples: number;
  /** The longest recording exampleFeatures takes, in samples (4 s). */
  readonly maxExampleSamples: number;
  /** A detector's fixed memory in bytes. */
  readonly detectorBytes: number;
  /** The features of one recorded example (16 kHz mono), or the reason it cannot be used. */
  exampleFeatures(samples: Int16Array): WakeExample;
  createDetector(): WakeDetector;
}

export interface Ports {
  clock: Clock;
  random: Random;
  digest: Digest;
  log: Log;
  settings: Settings;
  http: HttpClient;
  /** Audio up and down in pieces: a streaming client, or `bufferedAudioHttp(http)` where the host has none. */
  audioHttp: AudioHttp;
  timers: Timers;
  /** Resolves host names so files.fetch checks every address before connecting; undefined: names are refused. */
  resolver: Resolver | undefined;
  /** The int8 vector kernels: the native C module on XS hosts, TypeScript on Node. */
  kernels: Kernels;
  /** The wake-word engine (C in modules/wake/); undefined: no wake phrase can be taught on this host. */
  wake: WakeKernel | undefined;
  /** secp256k1 for Nostr: the C module (modules/curve) where the host has it, else the TypeScript curve. */
  curve: Curve;
  /** Where the vector store's rows and per-row fields live: native memory on XS hosts, ArrayBuffers on Node. */
  vectorArena: VectorArena;
  storage: Storage | undefined;
  /** Undefined: files.send delivers through the Telegram channel. */
  messenger: Messenger | undefined;
  system: System | undefined;
  led: Led | undefined;
  button: Button | undefined;
  audioOut: AudioOut | undefined;
  audioIn: AudioIn | undefined;
  ota: Ota | undefined;
  /** The app slots the update engine installs into; undefined: no engine (the ota port reports alone). */
  otaSlots: OtaSlots | undefined;
  /** Nostr relays; undefined: the Nostr subsystem has no relays (keys, encoding and encryption still work). */
  webSocket: WebSocketClient | undefined;
  /** The Wi-Fi radio; undefined: the host's own network is used (the simulator, lin). */
  wifi: Wifi | undefined;
}
