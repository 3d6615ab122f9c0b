// The update engine: checks the release feed (on demand and on a schedule),
// and, once the owner approves a version, streams its image into the spare
// slot, checks its hash and signature, switches the boot slot and restarts.
// After the restart, boot() runs the health check (lib/ota/boot.ts).
import { HaloError } from "../errors";
import { originOfText, type GuardedHttp } from "../net/outbound";
import type { HttpClientResponse, Log, Ota, OtaSlots, OtaSlotWriter, OtaState, OtaStatus, Settings } from "../ports";
import { toHex } from "../util/hash";
import { formatHttpUrl, parseHttpUrl, resolveLocation } from "../util/url";
import { decodeUtf8, encodeUtf8 } from "../util/utf8";
import { runBootChecks, type HealthCheck } from "./boot";
import { streamImage } from "./download";
import { FEED_MAX_BYTES, parseFeed, type Release } from "./feed";
import { OtaRecords } from "./records";
import { verifyRelease } from "./signature";
import { compareVersions } from "./version";

/** Default time between scheduled feed checks. */
export const OTA_CHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;
export const FEED_TIMEOUT_MS = 15_000;

export interface OtaEngineOptions {
  slots: OtaSlots;
  /** The guarded client: the feed's origin is trusted, an image elsewhere must be on the public internet. */
  http: GuardedHttp;
  settings: Settings;
  log: Log;
  now(): number;
  /** The build's version; the slots' own reading of the running image wins when they have one. */
  version: string;
  /** The board name images are listed under in the feed, e.g. "esp32s3". */
  board: string;
  /** Ed25519 public keys (lower-case hex) whose signatures are accepted. */
  trustedKeys: readonly string[];
  /** The feed URL of the build; the owner's own (setFeedUrl) wins. */
  feedUrl?: string;
  /** What a new image must pass after its first restart (network, storage, registry). */
  checks?: HealthCheck[];
  /** 0 turns scheduled checks off. */
  checkIntervalMs?: number;
}

export class OtaEngine implements Ota {
  private state: OtaState = "idle";
  private detail: string | undefined;
  private latest: Release | undefined;
  private progress: { written: number; total: number } | undefined;
  private busy = false;
  private booted: Promise<void> | undefined;
  private readonly observers: Array<(state: OtaState) => void> = [];
  private readonly records: OtaRecords;
  readonly runningVersion: string;

  constructor(private readonly o: OtaEngineOptions) {
    this.records = new OtaRecords(o.settings);
    this.runningVersion = o.slots.boot().version ?? o.version;
  }

  status(): OtaStatus {
    const boot = this.o.slots.boot();
    const s: OtaStatus = { state: this.state, runningVersion: this.runningVersion, slot: boot.slot, autoUpdate: this.interval() > 0 };
    if (this.latest) s.latest = { version: this.latest.version, notes: this.latest.notes };
    const last = this.records.last();
    if (last) s.lastInstall = { version: last.version, outcome: last.outcome, at: last.at };
    if (this.progress) s.progress = { ...this.progress };
    const detail = this.detail ?? (this.feedUrl() ? undefined : "no release feed URL is set");
    if (detail) s.detail = detail;
    return s;
  }

  /** The last install's own sentence (why it failed or rolled back). */
  lastInstallDetail(): string | undefined {
    return this.records.last()?.detail;
  }

  feedUrl(): string | undefined {
    return this.records.feedUrl() ?? this.o.feedUrl;
  }

  /** The owner's feed URL (undefined returns to the build's); throws a HaloError when it is not an http(s) URL. */
  setFeedUrl(url: string | undefined): void {
    if (url !== undefined) {
      const parsed = parseHttpUrl(url);
      if (typeof parsed === "string" || url.length > 512)
        throw new HaloError("invalid", `the feed URL is not usable: ${typeof parsed === "string" ? parsed : "too long"}.`);
    }
    this.records.setFeedUrl(url);
  }

  /** Runs once at start (later calls get the same promise): records how the last install ended, and health-checks a new image. */
  boot(): Promise<void> {
    this.booted ??= this.settleBoot();
    return this.booted;
  }

  private async settleBoot(): Promise<void> {
    const outcome = await runBootChecks(this.o.slots, this.records, this.o.checks ?? [], this.runningVersion, this.o.now);
    if (outcome.rollingBack) this.setState("restarting");
    this.detail = outcome.detail;
    if (outcome.detail) this.o.log[outcome.ok ? "info" : "warn"](`ota: ${outcome.detail}`);
  }

  /** Checks the feed if the schedule says it is time (the host calls this now and then). */
  async tick(): Promise<void> {
    const every = this.interval();
    if (every <= 0 || this.busy || !this.feedUrl() || this.state === "ready" || this.state === "restarting") return;
    const last = this.records.lastChecked();
    if (last !== undefined && this.o.now() - last < every) return;
    await this.check();
  }

  /** Reads the feed; the status says whether an update is available, or why not. */
  async check(): Promise<OtaStatus> {
    const url = this.feedUrl();
    if (!url) throw new HaloError("not-configured", "no release feed URL is set; the owner sets one first.");
    if (this.state === "ready") throw new HaloError("conflict", "a verified update waits for its restart; restart first.");
    this.enter();
    try {
      this.set("checking");
      this.latest = undefined;
      const release = await this.readFeed(url);
      this.records.setLastChecked(this.o.now());
      const newer = compareVersions(release.version, this.runningVersion);
      if (newer === 0) return this.set("up-to-date", `version ${this.runningVersion} is the newest release`);
      if (newer < 0)
        return this.fail(
          `the feed offers ${release.version}, older than the running ${this.runningVersion}: Halo never installs an older version`,
        );
      if (compareVersions(this.runningVersion, release.minVersion) < 0)
        return this.fail(
          `version ${release.version} installs only over ${release.minVersion} or later; this device runs ${this.runningVersion}`,
        );
      this.latest = release;
      return this.set("available", `version ${release.version} is available; installing waits for the owner's approval`);
    } catch (e) {
      return this.fail(e instanceof Error ? e.message : String(e));
    } finally {
      this.busy = false;
    }
  }

  /** The owner approved `version`: download, verify and make it the boot image. `restart` then restarts into it. */
  async install(version: string, restart: boolean): Promise<OtaStatus> {
    const release = this.latest;
    if (this.state === "ready" && this.records.pending()?.version === version) return restart ? this.restart() : this.status();
    if (this.state !== "available" || !release) throw new HaloError("conflict", "no update is available to install: check for one first.");
    if (version !== release.version) throw new HaloError("conflict", `the available version is ${release.version}; approve that one.`);
    this.enter();
    try {
      const failure = await this.writeAndVerify(release);
      if (failure) {
        this.records.setLast({ version, outcome: "failed", at: this.o.now(), detail: failure });
        return this.fail(failure);
      }
      this.set("ready", `version ${version} is written and verified; it runs after a restart`);
    } finally {
      this.busy = false;
      this.progress = undefined;
    }
    return restart ? this.restart() : this.status();
  }

  /** Restarts into the image that install() made ready. */
  restart(): OtaStatus {
    const pending = this.records.pending();
    if (this.state !== "ready" || !pending) throw new HaloError("conflict", "no verified update is waiting for a restart.");
    this.records.setPending({ ...pending, restarted: true });
    this.set("restarting", `restarting into version ${pending.version}`);
    this.o.slots.restart();
    return this.status();
  }

  private async writeAndVerify(release: Release): Promise<string | undefined> {
    const { image } = release;
    const url = this.imageUrl(image.url);
    if (!url) return "the image URL in the feed is not a usable http(s) URL";
    this.set("downloading", `downloading version ${release.version}`);
    this.progress = { written: 0, total: image.size };
    this.records.setWriting(release.version);
    let writer: OtaSlotWriter;
    try {
      writer = this.o.slots.begin(image.size);
    } catch (e) {
      this.records.setWriting(undefined);
      return `the spare slot could not be opened (${e instanceof Error ? e.message : String(e)})`;
    }
    const hash = this.o.slots.sha256();
    try {
      await streamImage(
        this.o.http,
        url,
        image.size,
        {
          writer,
          hash,
          onProgress: (n) => (this.progress = { written: n, total: image.size }),
        },
        this.trusted(),
      );
      this.set("verifying", `verifying version ${release.version}`);
      if (toHex(hash.digest()) !== image.sha256)
        throw new Error("the image's SHA-256 does not match the signed release; nothing was installed");
      if (verifyRelease(release, this.o.trustedKeys, this.o.slots.sha512) !== "ok")
        throw new Error("the release signature does not verify; nothing was installed");
      this.records.setPending({ version: release.version, from: this.runningVersion, restarted: false });
      try {
        writer.complete();
      } catch (e) {
        this.records.setPending(undefined);
        throw new Error(`the boot slot could not be switched (${e instanceof Error ? e.message : String(e)})`);
      }
      return undefined;
    } catch (e) {
      writer.abort();
      return e instanceof Error ? e.message : String(e);
    } finally {
      this.records.setWriting(undefined);
    }
  }

  private async readFeed(url: string): Promise<Release> {
    let res: HttpClientResponse;
    try {
      res = await this.o.http.request({
        method: "GET",
        url,
        timeoutMs: FEED_TIMEOUT_MS,
        maxResponseBytes: FEED_MAX_BYTES,
        maxRedirects: 0,
        trusted: this.trusted(),
      });
    } catch (e) {
      throw new Error(
        `the release feed could not be fetched (${(e as { code?: string }).code === "too-large" ? "larger than 16 KB" : "network error"})`,
      );
    }
    if (res.status !== 200) throw new Error(`the release feed answered HTTP ${res.status}`);
    const parsed = parseFeed(decodeUtf8(res.body), this.o.board);
    if (typeof parsed === "string") throw new Error(parsed);
    const hash = this.o.slots.sha256();
    hash.update(encodeUtf8(parsed.notes));
    const release: Release = { ...parsed, notesSha256: toHex(hash.digest()) };
    const verdict = verifyRelease(release, this.o.trustedKeys, this.o.slots.sha512);
    if (verdict === "unknown-key") throw new Error("the release is signed by a key this device does not trust");
    if (verdict === "bad-signature") throw new Error("the release signature does not verify: the feed was altered or signed wrongly");
    return release;
  }

  /** The feed's origin: the owner (or the build) chose it, so it may be on the LAN. */
  private trusted(): string[] {
    const origin = originOfText(this.feedUrl() ?? "");
    return origin ? [origin] : [];
  }

  private imageUrl(url: string): string | undefined {
    const base = parseHttpUrl(this.feedUrl() ?? "");
    if (typeof base === "string") return undefined;
    const resolved = resolveLocation(base, url);
    return typeof resolved === "string" ? undefined : formatHttpUrl(resolved);
  }

  private interval(): number {
    return this.o.checkIntervalMs ?? OTA_CHECK_INTERVAL_MS;
  }

  private enter(): void {
    if (this.busy) throw new HaloError("busy", "an update check or install is already running.");
    if (this.state === "restarting") throw new HaloError("busy", "the device is restarting into an update.");
    this.busy = true;
  }

  /** Every change of state goes to `listener` (the status ring shows updating while an image is written). */
  observe(listener: (state: OtaState) => void): void {
    this.observers.push(listener);
  }

  private setState(state: OtaState): void {
    const changed = state !== this.state;
    this.state = state;
    if (changed) for (const l of this.observers.slice()) l(state);
  }

  private set(state: OtaState, detail?: string): OtaStatus {
    this.setState(state);
    this.detail = detail;
    return this.status();
  }

  private fail(sentence: string): OtaStatus {
    this.o.log.warn(`ota: ${sentence}`);
    return this.set("error", sentence);
  }
}
