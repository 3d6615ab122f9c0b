// The sentences memory's tools answer with, made from what each memory operation returns
// (lib/memory/outcomes.ts). The owner API's embedder route uses the re-embed's too.
import { MEM_CONFIG_KNOBS, type KnobName } from "../memory/config";
import { TTL_CLASSES } from "../memory/forgetting/ttl";
import type {
  ArchiveHits,
  ArchiveListing,
  ArenaUse,
  ConfigView,
  Eviction,
  Persistence,
  PinOutcome,
  ReembedOutcome,
  RestoreOutcome,
  UpdateOutcome,
  WriteOutcome,
} from "../memory/outcomes";
import type { SearchAnswer } from "../memory/recall/search";
import { formatId } from "../memory/writes";
import { formatBytes } from "../util/format";

/** Characters of an evicted memory's content a write's answer quotes. */
const EVICTED_SNIPPET_CHARS = 80;
/** Characters of an archived memory's content a listing or search shows. */
const ARCHIVE_SNIPPET_CHARS = 160;

function kept(p: Persistence): string {
  return p === "card" ? "" : " (kept in RAM only: this device has no SD card)";
}

function ttlNote(clamped: boolean, ttl: number): string {
  return clamped ? ` TTL clamped to ${TTL_CLASSES[ttl]} by your quota.` : "";
}

function eviction(e: Eviction): string {
  if (!e.mine) return " Evicted a lower-value memory of another person to make room.";
  const text = e.content.replace(/\s+/g, " ");
  const quoted = text.length > EVICTED_SNIPPET_CHARS ? text.slice(0, EVICTED_SNIPPET_CHARS - 3) + "..." : text;
  return ` Evicted your lower-value memory ${formatId(e.id)} ("${quoted}") to make room.`;
}

export function describeWrite(o: WriteOutcome): string {
  if (o.kind === "raised") {
    const what = o.exact ? "Already remembered" : "A near-identical memory exists";
    return `${what} (id ${formatId(o.id)}); importance raised to ${o.importance.toFixed(2)}.${kept(o.kept)}`;
  }
  const notes = ttlNote(o.ttlClamped, o.ttl) + o.evicted.map(eviction).join("");
  return `Remembered (id ${formatId(o.id)}, ttl ${TTL_CLASSES[o.ttl]}).${notes}${kept(o.kept)}`;
}

export function describeUpdate(o: UpdateOutcome): string {
  return `Updated: replaced id ${formatId(o.replaced)} with id ${formatId(o.id)}.${ttlNote(o.ttlClamped, o.ttl)}${kept(o.kept)}`;
}

export function describePin(o: PinOutcome): string {
  const id = formatId(o.id);
  switch (o.done) {
    case "deleted":
      return `Deleted id ${id}.`;
    case "not-pinned":
      return `id ${id} was not pinned.`;
    case "unpinned":
      return `Unpinned id ${id}.`;
    case "already-pinned":
      return `id ${id} is already pinned.`;
    case "pinned":
      return `Pinned id ${id}: it will not be forgotten.`;
  }
}

export function describeSearch(a: SearchAnswer): string {
  if (!a.stored) return "No memories stored yet.";
  return a.text === "" ? "No memories match." : a.text;
}

/** What the host's vector arena holds and what max_vectors can reach on it (memory.config, device.status). */
export function describeArena(a: ArenaUse): string {
  return `Vector arena: ${formatBytes(a.usedBytes)} of ${formatBytes(a.budgetBytes)} in use; this device fits at most ${a.vectorLimit} memories (max_vectors)`;
}

export function describeConfig(v: ConfigView): string {
  const knobs = MEM_CONFIG_KNOBS.map((k) => `- ${k.name}: ${v.config[k.name]} (${k.min}-${k.max}, default ${k.default}; ${k.help})`);
  const stale = v.staleFrom === undefined ? "" : ` (stored vectors are from ${v.staleFrom}: re-embed needed)`;
  return `${knobs.join("\n")}\nEmbedder: ${v.embedderId}${stale}\nLive memories: ${v.count} of ${v.config.max_vectors}\n${describeArena(v.arena)}`;
}

export function describeConfigUpdate(changed: Array<[KnobName, number]>): string {
  return `Updated: ${changed.map(([name, value]) => `${name} = ${value}`).join(", ")}.`;
}

export function describeReembed(o: ReembedOutcome): string {
  return o.already
    ? `Nothing to re-embed: every memory already uses ${o.embedderId}.`
    : `Re-embedded ${o.count} memories with ${o.embedderId}.`;
}

/** The owner's embedder change: the re-embed it did, or that none was needed. */
export function describeEmbedderChange(o: { embedderId: string; reembedded?: ReembedOutcome }): string {
  return o.reembedded ? describeReembed(o.reembedded) : `Embedder set to ${o.embedderId}; no memories needed re-embedding.`;
}

function snippet(text: string): string {
  return text.length > ARCHIVE_SNIPPET_CHARS ? text.slice(0, ARCHIVE_SNIPPET_CHARS) + "…" : text;
}

export function describeArchiveList(l: ArchiveListing): string {
  if (l.shown.length === 0) return "The archive holds none of your memories.";
  const day = (ts: number): string => new Date(ts).toISOString().slice(0, 10);
  const lines = l.shown.map(
    (e) => `- ${formatId(e.meta.id)} (archived ${day(e.archivedAt)}, was ${TTL_CLASSES[e.meta.ttlClass]}): ${snippet(e.meta.content)}`,
  );
  return lines.join("\n") + (l.more > 0 ? `\n[${l.more} more not shown]` : "");
}

export function describeArchiveHits(h: ArchiveHits): string {
  if (!h.comparable) return "The archive holds none of your memories to search.";
  if (h.hits.length === 0) return "No archived memories match.";
  return h.hits
    .map((x) => `- [${Math.round(x.similarity * 100)}%] ${snippet(x.entry.meta.content)} (id ${formatId(x.entry.meta.id)})`)
    .join("\n");
}

export function describeRestore(o: RestoreOutcome): string {
  return o.kind === "already-live"
    ? `id ${formatId(o.id)} is already in live memory; removed it from the archive.`
    : `Restored id ${formatId(o.id)} (ttl ${TTL_CLASSES[o.ttl]}).`;
}
