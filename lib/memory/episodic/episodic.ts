import { redactCashuTokens } from "../../util/cashu-token";
import { HaloError } from "../../errors";
// The episodic store: append-only day-part files under memory/episodic/, a
// bounded index of the newest rows read at boot, and paged queries that reach
// older parts with a bounded cold scan per call.
import type { Clock, Log, Storage } from "../../ports";
import { CARD_ABSENT_SENTENCE, cardError } from "../../store/card";
import { decodeUtf8, encodeUtf8, truncateUtf8 } from "../../util/utf8";
import {
  EPISODIC_BOOT_SCAN_BYTES,
  EPISODIC_INDEX_MAX_ROWS,
  EPISODIC_PART_MAX_BYTES,
  EPISODIC_PARTS_PER_DAY,
  EPISODIC_QUERY_SCAN_PARTS,
  EPISODIC_RETENTION_DAYS,
  EPISODIC_ROLE_MAX_CHARS,
  EPISODIC_SESSION_MAX_CHARS,
  EPISODIC_TEXT_MAX_BYTES,
} from "../bounds";
import {
  comparePositions,
  dayOf,
  dayStart,
  encodeRow,
  pad2,
  parsePart,
  PART_STEM_PATTERN,
  type EpisodicKind,
  type EpisodicRecord,
  type EpisodicRow,
  type Position,
} from "./format";

export const EPISODIC_DIR = "memory/episodic";
const DAY_MS = 24 * 3600 * 1000;
/** Sorts after every real position: "nothing newer than this". */
const NEWEST: Position = { stem: "99999999-99", ordinal: Infinity };

export interface EpisodicFilter {
  /** Rows visible to the caller belong to one of these namespaces. */
  namespaces: string[];
  kind?: EpisodicKind;
  session?: string;
  /** Case-insensitive substring of the text. */
  text?: string;
  /** Only rows at or after / strictly before these times. */
  since?: number;
  until?: number;
}

export interface EpisodicPage {
  rows: EpisodicRow[];
  /** Pass back as `before` to read further into the past; absent when the history is exhausted. */
  next?: Position;
}

export class EpisodicStore {
  private opened = false;
  private parts: string[] = [];
  private current: { stem: string; rows: number; bytes: number } | undefined;
  /** The boot index: newest rows, oldest first, and the position of its oldest row. */
  private recent: EpisodicRow[] = [];
  private coveredFrom: Position = NEWEST;

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
    private readonly log: Log,
  ) {}

  /** Appends a row and returns its position. Throws a HaloError when the card is absent or the write fails. */
  append(input: Omit<EpisodicRecord, "ts">): Position {
    this.open();
    const record: EpisodicRecord = {
      ns: input.ns,
      session: input.session.slice(0, EPISODIC_SESSION_MAX_CHARS),
      ts: this.clock.now(),
      role: input.role.slice(0, EPISODIC_ROLE_MAX_CHARS),
      kind: input.kind,
      // A Cashu token is money to whoever reads it: never kept in the history (docs/wallet.md, "Rails").
      text: truncateUtf8(redactCashuTokens(input.text), EPISODIC_TEXT_MAX_BYTES),
    };
    const line = encodeUtf8(encodeRow(record));
    const target = this.partFor(record.ts, line.length);
    try {
      this.storage.append(`${EPISODIC_DIR}/${target.stem}.log`, line);
    } catch (e) {
      this.opened = false; // a partial append may have left a torn line: re-read before the next one
      throw cardError(this.storage, e);
    }
    if (this.parts.indexOf(target.stem) < 0) this.parts.push(target.stem);
    const row: EpisodicRow = { ...record, stem: target.stem, ordinal: target.rows };
    target.rows++;
    target.bytes += line.length;
    this.current = target;
    this.remember(row);
    return row;
  }

  /** One page of rows matching `filter`, newest first, strictly older than `before`. */
  query(filter: EpisodicFilter, limit: number, before?: Position): EpisodicPage {
    this.open();
    const start = before ?? NEWEST;
    const rows: EpisodicRow[] = [];
    for (let i = this.recent.length - 1; i >= 0 && rows.length < limit; i--) {
      const row = this.recent[i];
      if (comparePositions(row, start) < 0 && matches(row, filter)) rows.push(row);
    }
    if (rows.length >= limit) return { rows, next: rows[rows.length - 1] };
    const cold = comparePositions(start, this.coveredFrom) < 0 ? start : this.coveredFrom;
    let scanned = 0;
    for (let p = this.parts.length - 1; p >= 0; p--) {
      const stem = this.parts[p];
      if (stem > cold.stem) continue;
      if (filter.since !== undefined && dayStart(stem.slice(0, 8)) + DAY_MS <= filter.since) return { rows };
      if (scanned >= EPISODIC_QUERY_SCAN_PARTS) return { rows, next: { stem: this.parts[p + 1], ordinal: 0 } };
      scanned++;
      const older = this.readPart(stem).filter((r) => comparePositions(r, cold) < 0);
      for (let i = older.length - 1; i >= 0; i--) {
        if (!matches(older[i], filter)) continue;
        rows.push(older[i]);
        if (rows.length >= limit) return { rows, next: older[i] };
      }
    }
    return { rows };
  }

  /** Deletes day parts older than the retention period; returns how many went. */
  prune(): number {
    this.open();
    return this.pruneParts();
  }

  // Lists the parts, prunes old ones and builds the boot index, once per card insertion.
  private open(): void {
    if (this.opened) return;
    if (!this.storage.present()) throw new HaloError("no-card", CARD_ABSENT_SENTENCE);
    try {
      this.parts = this.storage
        .list(EPISODIC_DIR)
        .filter((n) => n.endsWith(".log") && PART_STEM_PATTERN.test(n.slice(0, -4)))
        .map((n) => n.slice(0, -4))
        .sort();
    } catch (e) {
      throw cardError(this.storage, e);
    }
    this.pruneParts();
    this.recent = [];
    this.coveredFrom = NEWEST;
    this.current = undefined;
    let bytes = 0;
    for (let p = this.parts.length - 1; p >= 0; p--) {
      const size = this.storage.stat(`${EPISODIC_DIR}/${this.parts[p]}.log`)?.size ?? 0;
      if (this.current && bytes + size > EPISODIC_BOOT_SCAN_BYTES) break;
      bytes += size;
      const rows = this.readPart(this.parts[p]);
      if (!this.current) this.current = { stem: this.parts[p], rows: rows.length, bytes: size };
      this.recent = rows.slice(Math.max(0, rows.length - (EPISODIC_INDEX_MAX_ROWS - this.recent.length))).concat(this.recent);
      this.coveredFrom = this.recent.length > 0 ? this.recent[0] : { stem: this.parts[p], ordinal: 0 };
      if (this.recent.length >= EPISODIC_INDEX_MAX_ROWS) break;
    }
    this.opened = true;
  }

  private readPart(stem: string): EpisodicRow[] {
    const bytes = this.storage.read(`${EPISODIC_DIR}/${stem}.log`);
    if (!bytes) return [];
    const { rows, dropped } = parsePart(stem, decodeUtf8(bytes));
    if (dropped > 0) this.log.warn(`memory: dropped ${dropped} torn or damaged row(s) in episodic part ${stem}`);
    return rows;
  }

  private partFor(ts: number, lineBytes: number): { stem: string; rows: number; bytes: number } {
    const day = dayOf(ts);
    const cur = this.current;
    if (!cur || cur.stem.slice(0, 8) < day) {
      if (cur) this.pruneParts();
      return { stem: `${day}-00`, rows: 0, bytes: 0 };
    }
    // Same day, or the clock went back: stay in the newest part so file order stays time order.
    if (cur.bytes + lineBytes <= EPISODIC_PART_MAX_BYTES) return cur;
    const part = Number(cur.stem.slice(9)) + 1;
    if (part >= EPISODIC_PARTS_PER_DAY) throw new HaloError("full", "the episodic log for today is full.");
    return { stem: `${cur.stem.slice(0, 8)}-${pad2(part)}`, rows: 0, bytes: 0 };
  }

  private pruneParts(): number {
    const oldest = dayOf(this.clock.now() - EPISODIC_RETENTION_DAYS * DAY_MS);
    let removed = 0;
    while (this.parts.length > 0 && this.parts[0].slice(0, 8) < oldest) {
      const stem = this.parts.shift()!;
      this.storage.remove(`${EPISODIC_DIR}/${stem}.log`);
      removed++;
    }
    while (this.recent.length > 0 && this.recent[0].stem.slice(0, 8) < oldest) this.recent.shift();
    if (removed > 0) this.log.info(`memory: pruned ${removed} episodic part(s) older than ${EPISODIC_RETENTION_DAYS} days`);
    return removed;
  }

  private remember(row: EpisodicRow): void {
    this.recent.push(row);
    if (this.recent.length > EPISODIC_INDEX_MAX_ROWS) {
      this.recent.shift();
      this.coveredFrom = this.recent[0];
    } else if (this.coveredFrom === NEWEST) this.coveredFrom = row;
  }
}

function matches(row: EpisodicRow, f: EpisodicFilter): boolean {
  if (f.namespaces.indexOf(row.ns) < 0) return false;
  if (f.kind !== undefined && row.kind !== f.kind) return false;
  if (f.session !== undefined && row.session !== f.session) return false;
  if (f.since !== undefined && row.ts < f.since) return false;
  if (f.until !== undefined && row.ts >= f.until) return false;
  if (f.text !== undefined && row.text.toLowerCase().indexOf(f.text.toLowerCase()) < 0) return false;
  return true;
}
