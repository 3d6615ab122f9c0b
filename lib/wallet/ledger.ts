// The wallet's log on the card (Storage port): one record per line, `<8 hex djb2> <json>\n`, appended and
// flushed before the state in memory changes, so what the card holds is never behind what the wallet did. A
// line torn by a power cut fails its checksum and is dropped with everything after it; the log is then
// rewritten as one snapshot before anything more is appended (an append after a torn line would be lost
// behind it). A log past WALLET_LOG_COMPACT_BYTES is rewritten the same way (write to a temporary file,
// flush, rename: the old log stays whole until the new one is).
import { HaloError } from "../errors";
import type { Storage } from "../ports";
import { djb2Hex } from "../util/hash";
import { toJson } from "../util/json";
import { decodeUtf8, encodeUtf8 } from "../util/utf8";
import { applyRecord, emptyState, type LedgerRecord, type LedgerState, snapshotOf } from "./ledger-state";
import { WALLET_LOG_COMPACT_BYTES, WALLET_LOG_MAX_BYTES } from "./limits";

/** Where the log lives on the card (short: the device's file module limits path length). */
export const WALLET_LOG_PATH = "wallet/ledger.log";

export interface LedgerLoad {
  /** Records read. */
  records: number;
  /** True when a damaged tail was dropped (and the log rewritten). */
  torn: boolean;
}

function encodeLine(record: LedgerRecord): string {
  const json = toJson(record);
  return `${djb2Hex(json)} ${json}\n`;
}

export class Ledger {
  private current: LedgerState = emptyState();
  private bytes = 0;

  constructor(
    private readonly storage: Storage | undefined,
    private readonly path: string = WALLET_LOG_PATH,
  ) {}

  get state(): LedgerState {
    return this.current;
  }

  /** Reads the log from the card into memory; an absent log is an empty wallet. */
  load(): LedgerLoad {
    const storage = this.card();
    const stat = this.guard(() => storage.stat(this.path));
    if (stat && stat.size > WALLET_LOG_MAX_BYTES)
      throw new HaloError("too-large", "the wallet log on the card is larger than a wallet log can be.");
    const data = this.guard(() => storage.read(this.path));
    let state = emptyState();
    let records = 0;
    let torn = false;
    if (data) {
      const text = decodeUtf8(data);
      let at = 0;
      while (at < text.length) {
        const end = text.indexOf("\n", at);
        const line = end < 0 ? text.slice(at) : text.slice(at, end);
        const json = line.slice(9);
        let record: LedgerRecord | undefined;
        if (end >= 0 && line.charCodeAt(8) === 32 && line.slice(0, 8) === djb2Hex(json)) {
          try {
            record = JSON.parse(json) as LedgerRecord;
          } catch {
            record = undefined;
          }
        }
        if (!record) {
          torn = true;
          break;
        }
        state = applyRecord(state, record);
        records++;
        at = end + 1;
      }
      this.bytes = data.length;
    }
    this.current = state;
    if (torn) this.compact();
    return { records, torn };
  }

  /** Writes one record to the card, then applies it. Throws (and changes nothing) when the card refuses. */
  append(record: LedgerRecord): void {
    const storage = this.card();
    const line = encodeUtf8(encodeLine(record));
    this.guard(() => storage.append(this.path, line));
    this.bytes += line.length;
    this.current = applyRecord(this.current, record);
    if (this.bytes > WALLET_LOG_COMPACT_BYTES) this.compact();
  }

  /** Rewrites the log as one snapshot record. */
  compact(): void {
    const storage = this.card();
    const line = encodeUtf8(encodeLine({ t: "snapshot", state: snapshotOf(this.current) }));
    this.guard(() => storage.writeAtomic(this.path, line));
    this.bytes = line.length;
  }

  private card(): Storage {
    const storage = this.storage;
    if (!storage?.present()) throw new HaloError("no-card", "the wallet needs the SD card, and none is in.");
    return storage;
  }

  private guard<T>(step: () => T): T {
    try {
      return step();
    } catch (e) {
      if (e instanceof HaloError) throw e;
      throw new HaloError("storage-error", "the wallet could not use the SD card.");
    }
  }
}
