// tools/list cursors: opaque to clients, an offset plus a check of the listing it came from.

import { djb2Hex } from "../util/hash";

export function encodeCursor(offset: number, listingKey: string): string {
  return `${offset.toString(36)}.${djb2Hex(listingKey)}`;
}

/** The offset a cursor stands for, or undefined when it is malformed or from another listing. */
export function decodeCursor(cursor: unknown, listingKey: string): number | undefined {
  if (typeof cursor !== "string" || cursor.length > 32) return undefined;
  const m = /^([0-9a-z]{1,6})\.([0-9a-f]{8})$/.exec(cursor);
  if (!m || m[2] !== djb2Hex(listingKey)) return undefined;
  return parseInt(m[1], 36);
}
