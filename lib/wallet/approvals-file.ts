// What waits for the owner (payments over the limits, tokens held for the owner) on the card beside the
// wallet's log, so a restart keeps it: a held token is money. One file, `<8 hex djb2> <json>\n`, rewritten
// whole for every change by the Storage port's writeAtomic (temporary file, flush, rename), before the state
// in memory changes. A file that fails its checksum is kept aside (approvals.bad) for the owner rather than
// overwritten, and the wallet starts with nothing waiting.
import { HaloError } from "../errors";
import type { Log, Storage } from "../ports";
import { djb2Hex } from "../util/hash";
import { toJson } from "../util/json";
import { decodeUtf8, encodeUtf8 } from "../util/utf8";

/** Where the approvals live on the card (short: the device's file module limits path length). */
export const WALLET_APPROVALS_PATH = "wallet/approvals.json";
export const WALLET_APPROVALS_BAD_PATH = "wallet/approvals.bad";
/** The largest approvals file read (16 approvals with tokens of at most 16 KB each, and room). */
export const WALLET_APPROVALS_FILE_MAX_BYTES = 320 * 1024;

/** Reads the stored list; [] when there is none, or when it is damaged (kept aside, logged). */
export function loadApprovals<T>(storage: Storage, log: Log): T[] {
  const data = guard(() => storage.read(WALLET_APPROVALS_PATH));
  if (!data) return [];
  const text = data.length <= WALLET_APPROVALS_FILE_MAX_BYTES ? decodeUtf8(data) : "";
  const json = text.slice(9, text.length - 1);
  if (text.charCodeAt(8) === 32 && text.endsWith("\n") && text.slice(0, 8) === djb2Hex(json)) {
    try {
      const v = JSON.parse(json) as { approvals?: unknown };
      if (Array.isArray(v.approvals)) return v.approvals as T[];
    } catch {
      // falls through to the damaged file
    }
  }
  log.warn("wallet: the approvals file on the card is damaged; kept as wallet/approvals.bad, nothing waits");
  guard(() => storage.rename(WALLET_APPROVALS_PATH, WALLET_APPROVALS_BAD_PATH));
  return [];
}

/** Writes the whole list (crash-safe); throws no-card or storage-error and leaves the old file as it was. */
export function saveApprovals<T>(storage: Storage, approvals: T[]): void {
  if (!storage.present()) throw new HaloError("no-card", "the wallet needs the SD card, and none is in.");
  const json = toJson({ approvals });
  guard(() => storage.writeAtomic(WALLET_APPROVALS_PATH, encodeUtf8(`${djb2Hex(json)} ${json}\n`)));
}

function guard<T>(step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof HaloError) throw e;
    throw new HaloError("storage-error", "the wallet could not use the SD card.");
  }
}
