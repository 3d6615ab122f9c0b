import { toJson } from "../../util/json";
// One episodic row as a line of a day-part file, and positions (row ids).
//
//   "\n" <json length> " " <djb2 of json, 8 hex> " " <json>
//
// Each row starts with its own newline, so a row appended after a torn one
// (power cut mid-append) still sits on a line of its own; a torn line fails
// its length or checksum and is dropped, never read as data.
import { djb2Hex } from "../../util/hash";

export const EPISODIC_KINDS = ["message", "tool_output", "llm_response", "file", "image", "audio", "transcript", "log"] as const;
export type EpisodicKind = (typeof EPISODIC_KINDS)[number];

/** What is stored per row; the id is its position, not stored. */
export interface EpisodicRecord {
  ns: string;
  session: string;
  ts: number;
  role: string;
  kind: EpisodicKind;
  text: string;
}

/** A row's place: its day-part file stem (YYYYMMDD-NN) and ordinal among that part's valid rows. */
export interface Position {
  stem: string;
  ordinal: number;
}

export interface EpisodicRow extends EpisodicRecord, Position {}

export const PART_STEM_PATTERN = /^\d{8}-\d{2}$/;
export const POSITION_PATTERN = "^[0-9]{8}-[0-9]{2}:[0-9]{1,7}$";

export function encodeRow(record: EpisodicRecord): string {
  const json = toJson({
    ns: record.ns,
    session: record.session,
    ts: record.ts,
    role: record.role,
    kind: record.kind,
    text: record.text,
  });
  return `\n${json.length} ${djb2Hex(json)} ${json}`;
}

/** The intact rows of one part's text, in order, with their ordinals; torn or damaged lines are skipped. */
export function parsePart(stem: string, text: string): { rows: EpisodicRow[]; dropped: number } {
  const rows: EpisodicRow[] = [];
  let dropped = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const record = parseLine(line);
    if (record) rows.push({ ...record, stem, ordinal: rows.length });
    else dropped++;
  }
  return { rows, dropped };
}

function parseLine(line: string): EpisodicRecord | undefined {
  const a = line.indexOf(" ");
  const b = a < 0 ? -1 : line.indexOf(" ", a + 1);
  if (b < 0) return undefined;
  const json = line.slice(b + 1);
  if (line.slice(0, a) !== String(json.length) || line.slice(a + 1, b) !== djb2Hex(json)) return undefined;
  let r: { [key: string]: unknown };
  try {
    r = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof r !== "object" || r === null) return undefined;
  const { ns, session, ts, role, kind, text } = r;
  if (typeof ns !== "string" || typeof session !== "string" || typeof role !== "string" || typeof text !== "string") return undefined;
  if (typeof ts !== "number" || !Number.isFinite(ts) || EPISODIC_KINDS.indexOf(kind as EpisodicKind) < 0) return undefined;
  return { ns, session, ts, role, kind: kind as EpisodicKind, text };
}

/** Negative when a is older than b. */
export function comparePositions(a: Position, b: Position): number {
  if (a.stem !== b.stem) return a.stem < b.stem ? -1 : 1;
  return a.ordinal - b.ordinal;
}

export function formatPosition(p: Position): string {
  return `${p.stem}:${p.ordinal}`;
}

export function parsePosition(text: string): Position | undefined {
  if (!new RegExp(POSITION_PATTERN).test(text)) return undefined;
  const [stem, ordinal] = text.split(":");
  return { stem, ordinal: Number(ordinal) };
}

/** The UTC day stem (YYYYMMDD) of a time. */
export function dayOf(ts: number): string {
  const d = new Date(ts);
  return `${d.getUTCFullYear()}${pad2(d.getUTCMonth() + 1)}${pad2(d.getUTCDate())}`;
}

/** UTC midnight at the start of a day stem. */
export function dayStart(day: string): number {
  return Date.UTC(Number(day.slice(0, 4)), Number(day.slice(4, 6)) - 1, Number(day.slice(6, 8)));
}

export function pad2(n: number): string {
  return n < 10 ? "0" + n : String(n);
}
