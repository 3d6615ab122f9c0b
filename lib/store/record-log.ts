import { toJson } from "../util/json";
// Append-only record logs: one JSON record per line, each line carrying a
// checksum, so a write torn by a power cut or a pulled card is detected and
// dropped on the next read instead of corrupting the store.
import { djb2Hex } from "../util/hash";

/** One line: 8 hex digits of djb2 over the JSON, a space, the JSON, a newline. */
export function encodeRecord(value: unknown): string {
  const json = toJson(value);
  return `${djb2Hex(json)} ${json}\n`;
}

export interface DecodedLog {
  records: unknown[];
  /** True when a line failed its checksum or lacked its newline: it and everything after were dropped. */
  torn: boolean;
}

/** The records of a log, up to the first damaged line. */
export function decodeRecords(text: string): DecodedLog {
  const records: unknown[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf("\n", at);
    if (end < 0) return { records, torn: true };
    const line = text.slice(at, end);
    at = end + 1;
    const json = line.slice(9);
    if (line.charCodeAt(8) !== 32 || line.slice(0, 8) !== djb2Hex(json)) return { records, torn: true };
    try {
      records.push(JSON.parse(json));
    } catch {
      return { records, torn: true };
    }
  }
  return { records, torn: false };
}
