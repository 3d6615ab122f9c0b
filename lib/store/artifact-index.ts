// The artifact store's index: who owns each file, its kind, size, times,
// sharing and quarantine. It lives on the card as an append-only record log
// (files/.index) and in memory as a Map; one stat per operation notices a
// reinserted or swapped card and reloads.
//
// A file and its record change together, whatever step a power cut or a pulled
// card stops them at. A save writes the content whole to files/.staged, appends
// its record marked staged (the commit), renames files/.staged over the file and
// appends a "moved" line. A delete appends its "del" line (the commit), then
// removes the file. Loading the log finishes what its last line began: a staged
// record's content still waiting is moved into place, a deleted file still on
// the card is removed, and a staged file no record names (a save cut before its
// commit) is dropped. So a reader sees the old file with its old record or the
// new file with its new record, never one with the other's size or time.
import type { Storage } from "../ports";
import { decodeUtf8, encodeUtf8, utf8Length } from "../util/utf8";
import { CARD_PULLED_SENTENCE, PartialWrite } from "./card";
import { FETCH_EXTENSIONS, nameProblem, projectProblem, type ArtifactKind } from "./artifact-names";
import { decodeRecords, encodeRecord } from "./record-log";
import { sortRecords, withoutRecord, withRecord, type SortedRecords } from "./sorted-records";

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
/** Where a save's content waits for its record (the store runs one save at a time). */
const STAGED_PATH = "files/.staged";
/** The log is rewritten compactly once it holds this many more lines than live records. */
const COMPACT_SLACK_LINES = 256;

export function artifactKey(project: string, name: string): string {
  return `${project}/${name.toLowerCase()}`;
}

export function artifactPath(record: { project: string; name: string }): string {
  return `${FILES_DIR}/${record.project}/${record.name}`;
}

/** A put with `s` is a save's commit (its content waits at STAGED_PATH until "moved"); a del's `n` names the file removed after it. */
type LogEntry = { t: "put"; r: ArtifactRecord; s?: 1 } | { t: "moved" } | { t: "del"; k: string; n?: string };

/** What a save or delete is changing; a pulled card's refusal says what each step leaves. */
export type FileChange = "new" | "overwrite" | "delete";
type Step = "staging" | "recording" | "recorded";

const PULLED = "the SD card was removed during the operation; ";
const PULLED_SENTENCES: { [step in Step]: { [change in FileChange]: string } } = {
  staging: { new: PULLED + "the file was not saved.", overwrite: CARD_PULLED_SENTENCE, delete: CARD_PULLED_SENTENCE },
  recording: {
    new: PULLED + "the file is either saved whole or not at all.",
    overwrite: PULLED + "the file holds either its previous version or the new one, never a mix.",
    delete: PULLED + "the file is either deleted or intact.",
  },
  recorded: {
    new: PULLED + "the file was saved and is in place once the card is back.",
    overwrite: PULLED + "the new version was saved and is in place once the card is back.",
    delete: PULLED + "the file was deleted.",
  },
};

export class ArtifactIndex {
  private readonly records = new Map<string, ArtifactRecord>();
  /** Bytes each owner's files take, kept in step with `records` (quota checks stay O(1)). */
  private readonly bytesByOwner = new Map<string, number>();
  /** Bytes of the log as last read or written; -1 when nothing is loaded. */
  private logBytes = -1;
  private logLines = 0;
  /** What sorted() returns, changed record by record (sorted-records.ts): 2 references a file. */
  private inOrder: SortedRecords | undefined;

  /** Loads the index on first use and again whenever the card's log is not the one last seen. */
  sync(card: Storage): void {
    const stat = card.stat(INDEX_PATH);
    const size = stat ? stat.size : 0;
    if (size === this.logBytes) return;
    this.clear();
    this.logLines = 0;
    let torn = false;
    let last: LogEntry | undefined;
    if (size > 0) {
      const bytes = card.read(INDEX_PATH);
      const decoded = decodeRecords(bytes ? decodeUtf8(bytes) : "");
      torn = decoded.torn;
      for (const entry of decoded.records) this.apply(entry);
      this.logLines = decoded.records.length;
      last = decoded.records[decoded.records.length - 1] as LogEntry | undefined;
    }
    this.logBytes = size;
    this.finish(card, last, torn);
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

  /** Every record and its key, by project, then name ignoring case. Shared arrays: callers must not change them. */
  sorted(): SortedRecords {
    if (this.inOrder === undefined) this.inOrder = sortRecords(this.records);
    return this.inOrder;
  }

  get size(): number {
    return this.records.size;
  }

  /** Bytes of the files `owner` holds. */
  bytesOf(owner: string): number {
    return this.bytesByOwner.get(owner) ?? 0;
  }

  /** Changes a record only (sharing, quarantine): one appended line. */
  put(card: Storage, record: ArtifactRecord): void {
    this.append(card, { t: "put", r: record });
    this.set(record);
  }

  /** Saves `bytes` as `record`'s file (see the header); a failure is a PartialWrite. */
  write(card: Storage, record: ArtifactRecord, bytes: Uint8Array, change: FileChange): void {
    let step: Step = "staging";
    try {
      card.writeAtomic(STAGED_PATH, bytes);
      step = "recording";
      this.append(card, { t: "put", r: record, s: 1 }, false);
      this.set(record);
      step = "recorded";
      card.rename(STAGED_PATH, artifactPath(record));
      this.append(card, { t: "moved" });
    } catch (e) {
      throw new PartialWrite(e, PULLED_SENTENCES[step][change]);
    }
  }

  /** Deletes `record` and its file (see the header); a failure is a PartialWrite. */
  remove(card: Storage, record: ArtifactRecord): void {
    let step: Step = "recording";
    try {
      const key = artifactKey(record.project, record.name);
      this.append(card, { t: "del", k: key, n: record.name });
      this.unset(key);
      step = "recorded";
      removeFile(card, record.project, record.name);
    } catch (e) {
      throw new PartialWrite(e, PULLED_SENTENCES[step].delete);
    }
  }

  /** Completes the save or delete the log's last line began, drops a stray staged file, then a torn tail. */
  private finish(card: Storage, last: LogEntry | undefined, torn: boolean): void {
    if (last && last.t === "put" && last.s === 1 && isRecord(last.r) && pathOf(last.r.project, last.r.name)) {
      if (card.stat(STAGED_PATH)) card.rename(STAGED_PATH, artifactPath(last.r));
      if (!torn) this.append(card, { t: "moved" });
    } else if (last && last.t === "del" && typeof last.k === "string" && typeof last.n === "string") {
      const project = last.k.slice(0, last.k.indexOf("/"));
      const path = pathOf(project, last.n);
      if (path && artifactKey(project, last.n) === last.k && card.stat(path)) removeFile(card, project, last.n);
    }
    if (card.stat(STAGED_PATH)) card.remove(STAGED_PATH);
    // A torn tail (power cut or pulled card mid-append) is dropped by rewriting the live records.
    if (torn) this.compact(card);
  }

  /** Appends a line; `compactable` is false while a save's content waits at STAGED_PATH (a compacted log would lose the mark). */
  private append(card: Storage, entry: LogEntry, compactable = true): void {
    const line = encodeRecord(entry);
    try {
      card.append(INDEX_PATH, encodeUtf8(line));
    } catch (e) {
      this.forget();
      throw e;
    }
    this.logBytes += utf8Length(line);
    this.logLines++;
    if (compactable && this.logLines > 2 * this.records.size + COMPACT_SLACK_LINES) this.compact(card);
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
    const old = this.records.get(key);
    if (old) {
      this.records.delete(key);
      this.bytesByOwner.set(old.owner, this.bytesOf(old.owner) - old.size);
    }
    this.records.set(key, record);
    if (this.inOrder !== undefined) this.inOrder = withRecord(this.inOrder, key, record, old !== undefined);
    this.bytesByOwner.set(record.owner, this.bytesOf(record.owner) + record.size);
  }

  private unset(key: string): void {
    const old = this.records.get(key);
    if (!old) return;
    this.records.delete(key);
    if (this.inOrder !== undefined) this.inOrder = withoutRecord(this.inOrder, key);
    this.bytesByOwner.set(old.owner, this.bytesOf(old.owner) - old.size);
  }

  private clear(): void {
    this.records.clear();
    this.inOrder = undefined;
    this.bytesByOwner.clear();
  }
}

/** The file path of a project and name read from the log, when both are valid names. */
function pathOf(project: string, name: string): string | undefined {
  if (typeof project !== "string" || typeof name !== "string") return undefined;
  return projectProblem(project) || nameProblem(name, FETCH_EXTENSIONS) ? undefined : artifactPath({ project, name });
}

/** Removes a file, and its project's folder once empty. */
function removeFile(card: Storage, project: string, name: string): void {
  card.remove(artifactPath({ project, name }));
  if (card.list(`${FILES_DIR}/${project}`).length === 0) card.remove(`${FILES_DIR}/${project}`);
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
