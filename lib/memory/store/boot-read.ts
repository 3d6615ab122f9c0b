// Reading the vector files when memory starts (or when the card comes back):
// the snapshot with its journal replayed, the log lines about what was found,
// and a damaged snapshot moved aside, never overwritten.
import { errorTag } from "../../errors";
import type { LexiconKernels, Log, Storage, VectorArena } from "../../ports";
import { type RangeReader, VectorFileError } from "./vector-file";
import { type LoadedVectors, VECTOR_FILE_PATH, VECTOR_JOURNAL_PATH, type VectorFiles } from "./vector-files";
import type { JournalSource } from "./vector-journal";

/** unread: the card is absent or refused (try again on the next call); read: `file` when there was one, `blocked` when saving must stop. */
export type BootRead = { state: "unread" } | { state: "read"; file?: LoadedVectors; blocked?: string };

export function readVectorFiles(
  storage: Storage,
  files: VectorFiles,
  log: Log,
  into: { capacity: number; arena: VectorArena; lexicon?: LexiconKernels },
  nowMs: number,
): BootRead {
  let snapshot: RangeReader | undefined;
  let journal: JournalSource | undefined;
  /** Set when the card failed while a file was read: nothing is known about the files then. */
  let cardFailed = false;
  const reader =
    (path: string): RangeReader =>
    (offset, into) => {
      try {
        const n = storage.readRange(path, offset, into);
        if (n === undefined) throw new Error("a memory file went away while it was read");
        return n;
      } catch (e) {
        cardFailed = true;
        throw e;
      }
    };
  try {
    if (!storage.present()) return { state: "unread" };
    const info = storage.stat(VECTOR_FILE_PATH);
    if (info && !info.directory) snapshot = reader(VECTOR_FILE_PATH);
    // Both are read in pieces: the snapshot 16 KB at a time (vector-file.ts), the journal a frame at a
    // time (vector-journal.ts), so a boot holds neither file whole.
    const journalInfo = storage.stat(VECTOR_JOURNAL_PATH);
    if (journalInfo && !journalInfo.directory) journal = { length: journalInfo.size, read: reader(VECTOR_JOURNAL_PATH) };
  } catch {
    return { state: "unread" };
  }
  try {
    const file = files.open(snapshot, journal, into.capacity, into.arena, into.lexicon);
    if (journal && journal.length > 0 && (!file || file.journal.state === "stale"))
      log.info(`memory: ${VECTOR_JOURNAL_PATH} belongs to an earlier snapshot; ignored`);
    if (!file) return { state: "read" };
    if (file.journal.state === "torn")
      log.warn(
        `memory: ${VECTOR_JOURNAL_PATH} ends in a torn or damaged record; dropped its last ${journal!.length - file.journal.bytes} bytes`,
      );
    log.info(`memory: loaded ${file.store.count} memories (${file.embedderId})`);
    return { state: "read", file };
  } catch (e) {
    if (cardFailed) return { state: "unread" }; // the card went while a file was read: try again later
    if (errorTag(e) === "full") {
      // The file is intact; this host cannot hold it. Keep it as it is and save nothing over it.
      const why = "the memory file holds more memories than this device's vector arena fits";
      log.warn(`memory: ${why} (${(e as Error).message}); it is kept as it is and memory is read-only`);
      return { state: "read", blocked: why };
    }
    if (!(e instanceof VectorFileError)) throw e;
    return { state: "read", blocked: setAside(storage, files, log, e.message, journal !== undefined, nowMs) };
  }
}

/** Moves a damaged snapshot (and the journal that extends it) aside; says why saving must stop when it can't. */
function setAside(storage: Storage, files: VectorFiles, log: Log, why: string, withJournal: boolean, nowMs: number): string | undefined {
  const suffix = `.bad-${Math.floor(nowMs / 1000)}`;
  const aside = VECTOR_FILE_PATH + suffix;
  try {
    // The journal first: a snapshot left behind alone is set aside again on the next boot.
    if (withJournal) storage.rename(VECTOR_JOURNAL_PATH, VECTOR_JOURNAL_PATH + suffix);
    storage.rename(VECTOR_FILE_PATH, aside);
    files.reset();
    log.warn(`memory: ${VECTOR_FILE_PATH} is unreadable (${why}); kept aside as ${aside}; starting with an empty store`);
    return undefined;
  } catch {
    log.warn(`memory: ${VECTOR_FILE_PATH} is unreadable (${why}) and could not be moved aside; memory is read-only`);
    return `the memory file is damaged (${why}) and could not be moved aside`;
  }
}
