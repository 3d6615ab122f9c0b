import { toJson } from "../util/json";
// What the update engine keeps across restarts, in the Settings port (each
// key is written atomically): the install under way, the outcome of the last
// one, the owner's feed URL and when the feed was last checked.
import type { OtaStatus, Settings } from "../ports";

export const KEY_PENDING = "ota.pending";
export const KEY_WRITING = "ota.writing";
export const KEY_LAST = "ota.last";
export const KEY_FEED = "ota.feed";
export const KEY_CHECKED = "ota.checked";

/** An image written and made the boot slot; `restarted` is set just before the restart into it. */
export interface PendingInstall {
  version: string;
  from: string;
  restarted: boolean;
}

export type LastInstall = NonNullable<OtaStatus["lastInstall"]> & { detail?: string };

function readJson(settings: Settings, key: string): { [k: string]: unknown } | undefined {
  const text = settings.get(key);
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as { [k: string]: unknown }) : undefined;
  } catch {
    return undefined; // a record that does not parse is treated as absent
  }
}

export class OtaRecords {
  constructor(private readonly settings: Settings) {}

  pending(): PendingInstall | undefined {
    const v = readJson(this.settings, KEY_PENDING);
    if (!v || typeof v.version !== "string" || typeof v.from !== "string") return undefined;
    return { version: v.version, from: v.from, restarted: v.restarted === true };
  }

  setPending(p: PendingInstall | undefined): void {
    if (p) this.settings.set(KEY_PENDING, toJson(p));
    else this.settings.remove(KEY_PENDING);
  }

  /** The version whose download is under way (set before the first byte, removed after the last). */
  writing(): string | undefined {
    return this.settings.get(KEY_WRITING);
  }

  setWriting(version: string | undefined): void {
    if (version) this.settings.set(KEY_WRITING, version);
    else this.settings.remove(KEY_WRITING);
  }

  last(): LastInstall | undefined {
    const v = readJson(this.settings, KEY_LAST);
    if (!v || typeof v.version !== "string" || typeof v.at !== "number") return undefined;
    if (v.outcome !== "ok" && v.outcome !== "failed" && v.outcome !== "rolled-back") return undefined;
    const last: LastInstall = { version: v.version, outcome: v.outcome, at: v.at };
    if (typeof v.detail === "string") last.detail = v.detail;
    return last;
  }

  setLast(last: LastInstall): void {
    this.settings.set(KEY_LAST, toJson(last));
  }

  feedUrl(): string | undefined {
    return this.settings.get(KEY_FEED);
  }

  setFeedUrl(url: string | undefined): void {
    if (url) this.settings.set(KEY_FEED, url);
    else this.settings.remove(KEY_FEED);
  }

  lastChecked(): number | undefined {
    const v = Number(this.settings.get(KEY_CHECKED));
    return Number.isFinite(v) && v > 0 ? v : undefined;
  }

  setLastChecked(at: number): void {
    this.settings.set(KEY_CHECKED, String(at));
  }
}
