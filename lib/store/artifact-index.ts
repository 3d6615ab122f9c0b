// The artifact store's index: who owns each file, its kind, size, times,
// sharing and quarantine. It lives on the card as an append-only record log
// (files/.index) and in memory as a Map; one stat per operation notices a
// reinserted or swapped card and reloads.
import type { Storage } from "../ports";
import { decodeUtf8, encodeUtf8, utf8Length } from "../util/utf8";
import type { ArtifactKind } from "./artifact-names";
import { decodeRecords, encodeRecord } from "./record-log";

export interface ArtifactRecord {
  /** Lower-case project folder. */
  project: string;
  /** File name as first saved (lookups ignore case, as FAT does). */
  name: string;
  /** The namespace of the person who saved it. */
  owner: string;
  kind: ArtifactKind;
  size: number;
  created: number;
  updated: number;
  /** Readable by everyone (read-only) when true. */
  shared: boolean;
  /** Searchable description of a non-text file: an image's prompt, a download's source host. */
  note?: string;
  /** The files.fetch id while the file awaits a scan verdict; such a file cannot be read or shared. */
  quarantine?: string;
}

export const FILES_DIR = "files";
const INDEX_PATH = "files/.index";
/** The log is rewritten compactly once it holds this many more lines than live records. */
const COMPACT_SLACK_LINES = 256;

export function artifactKey(project: string, name: string): string {
  return `${project}/${name.toLowerCase()}`;
}

export function artifactPath(record: { project: string; name: string }): string {
  return `${FILES_DIR}/${record.project}/${record.name}`;
}

type LogEntry = { t: "put"; r: ArtifactRecord } | { t: "del"; k: string };

export class ArtifactIndex {
  private readonly records = new Map<string, ArtifactRecord>();
  /** Bytes each owner's files take, kept in step with `records` (quota checks stay O(1)). */
  private readonly bytesByOwner = new Map<string, number>();
  /** Bytes of the log as last read or written; -1 when nothing is loaded. */
  private logBytes = -1;
  private logLines = 0;

  /** Loads the index on first use and again whenever the card's log is not the one last seen. */
  sync(card: Storage): void {
    const stat = card.stat(INDEX_PATH);
    const size = stat ? stat.size : 0;
    if (size === this.logBytes) return;
    this.clear();
    this.logLines = 0;
    let torn = false;
    if (size > 0) {
      const bytes = card.read(INDEX_PATH);
      const decoded = decodeRecords(bytes ? decodeUtf8(bytes) : "");
      torn = decoded.torn;
      for (const entry of decoded.records) this.apply(entry);
      this.logLines = decoded.records.length;
    }
    this.logBytes = size;
    // A torn tail (power cut or pulled card mid-append) is dropped by rewriting the live records.
    if (torn) this.compact(card);
  }

  /** Drops what is in memory: the next sync reads the card again. */
  forget(): void {
    this.clear();
    this.logBytes = -1;
    this.logLines = 0;
  }

  get(key: string): ArtifactRecord | undefined {
    return this.records.get(key);
  }

  all(): IterableIterator<ArtifactRecord> {
    return this.records.values();
  }

  get size(): number {
    return this.records.size;
  }

  /** Bytes of the files `owner` holds. */
  bytesOf(owner: string): number {
    return this.bytesByOwner.get(owner) ?? 0;
  }

  put(card: Storage, record: ArtifactRecord): void {
    this.append(card, { t: "put", r: record });
    this.set(record);
  }

  delete(card: Storage, key: string): void {
    this.append(card, { t: "del", k: key });
    this.unset(key);
  }

  private append(card: Storage, entry: LogEntry): void {
    const line = encodeRecord(entry);
    try {
      card.append(INDEX_PATH, encodeUtf8(line));
    } catch (e) {
      this.forget();
      throw e;
    }
    this.logBytes += utf8Length(line);
    this.logLines++;
    if (this.logLines > 2 * this.records.size + COMPACT_SLACK_LINES) this.compact(card);
  }

  private compact(card: Storage): void {
    let text = "";
    for (const r of this.records.values()) text += encodeRecord({ t: "put", r });
    const bytes = encodeUtf8(text);
    card.writeAtomic(INDEX_PATH, bytes);
    this.logBytes = bytes.length;
    this.logLines = this.records.size;
  }

  private apply(entry: unknown): void {
    const e = entry as LogEntry;
    if (e && e.t === "del" && typeof e.k === "string") this.unset(e.k);
    else if (e && e.t === "put" && isRecord(e.r)) this.set(e.r);
  }

  private set(record: ArtifactRecord): void {
    const key = artifactKey(record.project, record.name);
    this.unset(key);
    this.records.set(key, record);
    this.bytesByOwner.set(record.owner, this.bytesOf(record.owner) + record.size);
  }

  private unset(key: string): void {
    const old = this.records.get(key);
    if (!old) return;
    this.records.delete(key);
    this.bytesByOwner.set(old.owner, this.bytesOf(old.owner) - old.size);
  }

  private clear(): void {
    this.records.clear();
    this.bytesByOwner.clear();
  }
}

function isRecord(r: unknown): r is ArtifactRecord {
  const x = r as ArtifactRecord;
  return (
    !!x &&
    typeof x.project === "string" &&
    typeof x.name === "string" &&
    typeof x.owner === "string" &&
    (x.kind === "text" || x.kind === "image" || x.kind === "audio" || x.kind === "document") &&
    typeof x.size === "number" &&
    typeof x.created === "number" &&
    typeof x.updated === "number" &&
    typeof x.shared === "boolean"
  );
}
