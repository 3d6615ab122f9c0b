import { HaloError } from "../errors";
// The durable artifact store on the SD card: files/<project>/<name>, one owner
// per file, private unless shared read-only. Every method takes the caller's
// Principal; a file the caller may not see is reported exactly like a miss.
import { ARTIFACTS_MAX_COUNT } from "../limits";
import type { Clock, Storage } from "../ports";
import type { Principal } from "../registry/principal";
import { clipForMessage } from "../util/text";
import { ArtifactIndex, artifactKey, artifactPath, type ArtifactRecord } from "./artifact-index";
import { checkNames, checkProject, contentMatchesName, FETCH_EXTENSIONS, kindOf, SAVE_EXTENSIONS } from "./artifact-names";
import type { SearchHit } from "./artifact-search";
import { textArtifactBytes, textPage } from "./artifact-text";
import { CARD_ABSENT_SENTENCE, onCard } from "./card";
import { FilesSearch } from "./files-search";
import { pickRecords } from "./sorted-records";

export type { ArtifactRecord } from "./artifact-index";

/** Free space kept on the card beyond a file being written (the index, temp files). */
const CARD_FREE_MARGIN_BYTES = 64 * 1024;
/** Longest note (image prompt, download source) kept for search. */
const NOTE_MAX_CHARS = 300;

export interface SaveOptions {
  note?: string;
  /** Save quarantined under this fetch id (a download awaiting its scan verdict). */
  quarantine?: string;
}

export interface Saved {
  record: ArtifactRecord;
  /** True when the caller's earlier file of that name was overwritten. */
  replaced: boolean;
}

export interface TextPage {
  record: ArtifactRecord;
  text: string;
  /** Byte offset of the next page, or undefined at the end. */
  next?: number;
}

export function fileNotFound(project: string, name: string): HaloError {
  return new HaloError("not-found", `no file ${clipForMessage(project, 40)}/${clipForMessage(name, 80)}.`);
}

export class ArtifactStore {
  private readonly index = new ArtifactIndex();
  private readonly searcher = new FilesSearch();

  constructor(
    private readonly storage: Storage | undefined,
    private readonly clock: Clock,
    /** How many files the store takes; benchmarks open larger stores than the device's. */
    private readonly maxCount: number = ARTIFACTS_MAX_COUNT,
  ) {}

  /** artifact.save: a text document of at most ARTIFACT_TEXT_MAX_BYTES. */
  saveText(p: Principal, project: string, name: string, text: string): Saved {
    checkNames(project, name, SAVE_EXTENSIONS);
    return this.save(p, project, name, textArtifactBytes(name, text));
  }

  /** Saves any allowed kind of file (images, downloads); the content must match the extension. */
  save(p: Principal, project: string, name: string, bytes: Uint8Array, options: SaveOptions = {}): Saved {
    checkNames(project, name, FETCH_EXTENSIONS);
    if (!contentMatchesName(name, bytes)) {
      throw new HaloError("invalid", `the content does not match the file type of ${clipForMessage(name, 80)}.`);
    }
    return this.withIndex((card) => {
      const key = artifactKey(project, name);
      const existing = this.index.get(key);
      if (existing && existing.owner !== p.ns) {
        throw new HaloError(
          "conflict",
          `${project}/${clipForMessage(name, 80)} cannot be written: the name is taken; choose another name.`,
        );
      }
      if (!existing && this.index.size >= this.maxCount) {
        throw new HaloError("limit", `the store holds ${this.maxCount} files, its maximum.`);
      }
      const used = this.usedBy(p.ns) - (existing ? existing.size : 0);
      if (used + bytes.length > p.quota.bytes) {
        throw new HaloError(
          "quota",
          `this file (${bytes.length} bytes) would exceed your file storage quota (${used} of ${p.quota.bytes} bytes used).`,
        );
      }
      if (card.freeBytes() < bytes.length + CARD_FREE_MARGIN_BYTES) {
        throw new HaloError("card-full", "the SD card has too little free space for this file.");
      }
      const now = this.clock.now();
      const record: ArtifactRecord = {
        project,
        name: existing ? existing.name : name,
        owner: p.ns,
        kind: kindOf(name),
        size: bytes.length,
        created: existing ? existing.created : now,
        // Never the old version's time: files.search takes (updated, size) for the version it indexed.
        updated: existing ? Math.max(now, existing.updated + 1) : now,
        shared: existing ? existing.shared && !options.quarantine : false,
      };
      if (options.note) record.note = options.note.slice(0, NOTE_MAX_CHARS);
      if (options.quarantine) record.quarantine = options.quarantine;
      this.index.write(card, record, bytes, existing ? "overwrite" : "new");
      this.searcher.saved(card, record, bytes);
      return { record, replaced: !!existing };
    });
  }

  /**
   * Whether `p` may write `project/name`: it is free or already theirs. It
   * tells no more than a save attempt would (image.generate asks before it pays).
   */
  canWrite(p: Principal, project: string, name: string): boolean {
    checkNames(project, name, FETCH_EXTENSIONS);
    return this.withIndex(() => {
      const existing = this.index.get(artifactKey(project, name));
      return !existing || existing.owner === p.ns;
    });
  }

  /** The files `p` may see, sorted by project and name; optionally one project only. */
  list(p: Principal, project?: string): ArtifactRecord[] {
    if (project !== undefined) checkProject(project);
    return this.withIndex(() => this.visibleTo(p, project));
  }

  /** One visible file's record; not-found otherwise. */
  stat(p: Principal, project: string, name: string): ArtifactRecord {
    return this.withIndex(() => this.findVisible(p, project, name));
  }

  /** One page of a text file, from byte `offset`. */
  readText(p: Principal, project: string, name: string, offset: number): TextPage {
    return this.withIndex((card) => {
      const record = this.readable(p, project, name);
      if (record.kind !== "text") {
        throw new HaloError(
          "binary",
          `${record.project}/${record.name} is ${record.kind === "image" ? "an image" : record.kind === "audio" ? "a recording (audio.transcribe reads it)" : "a binary document"}; files.read serves text files only (deliver it with files.send).`,
        );
      }
      const bytes = card.read(artifactPath(record));
      if (!bytes) throw fileNotFound(project, name);
      return { record, ...textPage(bytes, offset, `${record.project}/${record.name}`) };
    });
  }

  /** A visible, readable file's bytes (files.send). */
  readBytes(p: Principal, project: string, name: string): { record: ArtifactRecord; bytes: Uint8Array } {
    return this.withIndex((card) => {
      const record = this.readable(p, project, name);
      const bytes = card.read(artifactPath(record));
      if (!bytes) throw fileNotFound(project, name);
      return { record, bytes };
    });
  }

  /** BM25 search over the files `p` may read (files-search.ts). */
  search(p: Principal, terms: string[], project?: string): SearchHit[] {
    if (project !== undefined) checkProject(project);
    return this.withIndex((card) => {
      // The searcher keeps what it looked up per position of the sorted list: it gets the positions searched.
      const sorted = this.index.sorted();
      const chosen = new Int32Array(sorted.records.length);
      let count = 0;
      for (let i = 0; i < sorted.records.length; i++) {
        const r = sorted.records[i];
        if ((project === undefined || r.project === project) && visible(r, p) && !r.quarantine) chosen[count++] = i;
      }
      const some = chosen.subarray(0, count);
      return this.storage
        ? this.searcher.search(card, sorted, some, terms)
        : this.searcher.scan(undefined, pickRecords(sorted, some), terms);
    });
  }

  /** The same search without the index, reading every file (benchmarks and tests compare the two). */
  scan(p: Principal, terms: string[], project?: string): SearchHit[] {
    if (project !== undefined) checkProject(project);
    return this.withIndex((card) =>
      this.searcher.scan(
        card,
        this.visibleTo(p, project).filter((r) => !r.quarantine),
        terms,
      ),
    );
  }

  /** files.share: only a file's owner changes its sharing; guests cannot share. */
  share(p: Principal, project: string, name: string, shared: boolean): ArtifactRecord {
    if (p.role === "guest" || p.role === "unknown") throw new HaloError("guest-refused", "guests cannot share files.");
    return this.withIndex((card) => {
      const record = this.readable(p, project, name);
      if (record.owner !== p.ns) {
        throw new HaloError("read-only", `${record.project}/${record.name} was shared with you; only its owner can change its sharing.`);
      }
      if (record.shared === shared) return record;
      const next = { ...record, shared };
      this.index.put(card, next);
      return next;
    });
  }

  /** Deletes one of `p`'s own files (the owner's web API; no tool deletes yet). */
  remove(p: Principal, project: string, name: string): void {
    this.withIndex((card) => {
      const record = this.findVisible(p, project, name);
      if (record.owner !== p.ns) throw fileNotFound(project, name);
      this.drop(card, record);
    });
  }

  /** The owner API: each person who has files, with their count and bytes, by namespace. */
  owners(): Array<{ ns: string; files: number; bytes: number }> {
    return this.withIndex(() => {
      const by = new Map<string, { ns: string; files: number; bytes: number }>();
      for (const r of this.index.all()) {
        const o = by.get(r.owner) ?? { ns: r.owner, files: 0, bytes: 0 };
        o.files++;
        o.bytes += r.size;
        by.set(r.owner, o);
      }
      return Array.from(by.values()).sort((a, b) => (a.ns < b.ns ? -1 : 1));
    });
  }

  /** The owner API: one person's own files (quarantined ones too), sorted by project and name. */
  ownedBy(ns: string): ArtifactRecord[] {
    return this.withIndex(() => this.sorted((r) => r.owner === ns));
  }

  /** Bytes of file storage `ns` uses. */
  usage(ns: string): number {
    return this.withIndex(() => this.usedBy(ns));
  }

  /** `p`'s own files and bytes, and the card's free space. */
  summary(p: Principal): { files: number; bytes: number; freeBytes: number } {
    return this.withIndex((card) => {
      let files = 0;
      for (const r of this.index.all()) if (r.owner === p.ns) files++;
      return { files, bytes: this.usedBy(p.ns), freeBytes: card.freeBytes() };
    });
  }

  /** The file quarantined under fetch `id`, if any (it is never visible to other people). */
  quarantined(id: string): ArtifactRecord | undefined {
    return this.withIndex(() => this.findQuarantined(id));
  }

  /** A scan verdict: "safe" makes the file readable, "unsafe" deletes it. Returns false when no file waits under `id`. */
  settleQuarantine(id: string, safe: boolean): boolean {
    return this.withIndex((card) => {
      const record = this.findQuarantined(id);
      if (!record) return false;
      if (safe) {
        const next = { ...record };
        delete next.quarantine;
        this.index.put(card, next);
      } else this.drop(card, record);
      return true;
    });
  }

  /** Runs `fn` with the card and an index in line with it; trouble becomes a clean refusal. */
  private withIndex<T>(fn: (card: Storage) => T): T {
    if (this.storage && !this.storage.present()) {
      this.index.forget(); // the card may come back as a different card
      this.searcher.forget();
      throw new HaloError("no-card", CARD_ABSENT_SENTENCE);
    }
    return onCard(this.storage, (card) => {
      try {
        this.index.sync(card);
        return fn(card);
      } catch (e) {
        if (!(e instanceof HaloError)) {
          this.index.forget();
          this.searcher.forget();
        }
        throw e;
      }
    });
  }

  /** Sorted by project, then name ignoring case. */
  private visibleTo(p: Principal, project?: string): ArtifactRecord[] {
    return this.sorted((r) => (project === undefined || r.project === project) && visible(r, p));
  }

  /** The records `keep` accepts, sorted by project, then name ignoring case (the index keeps that order). */
  private sorted(keep: (r: ArtifactRecord) => boolean): ArtifactRecord[] {
    const out: ArtifactRecord[] = [];
    for (const r of this.index.sorted().records) if (keep(r)) out.push(r);
    return out;
  }

  private findVisible(p: Principal, project: string, name: string): ArtifactRecord {
    checkNames(project, name, FETCH_EXTENSIONS);
    const record = this.index.get(artifactKey(project, name));
    if (!record || !visible(record, p)) throw fileNotFound(project, name);
    return record;
  }

  private readable(p: Principal, project: string, name: string): ArtifactRecord {
    const record = this.findVisible(p, project, name);
    if (record.quarantine) {
      throw new HaloError("quarantined", `${record.project}/${record.name} awaits a safety verdict and cannot be read or sent yet.`);
    }
    return record;
  }

  private findQuarantined(id: string): ArtifactRecord | undefined {
    for (const r of this.index.all()) if (r.quarantine === id) return r;
    return undefined;
  }

  private drop(card: Storage, record: ArtifactRecord): void {
    this.index.remove(card, record);
    this.searcher.dropped(card, record);
  }

  private usedBy(ns: string): number {
    return this.index.bytesOf(ns);
  }
}

function visible(record: ArtifactRecord, p: Principal): boolean {
  return record.owner === p.ns || (record.shared && !record.quarantine);
}
