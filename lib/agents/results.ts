// Auto-save of sub-agent results to the artifact store: every answer of a
// sub-agent is written as `<project>/<name>-<id>.md` (round 1) or
// `<project>/<name>-<id>-<round>.md` (follow-ups), owned by the spawner. A
// failed save (no card, quota) is noted on the session, never fatal.
import type { Principal } from "../registry/principal";
import { encodeUtf8, truncateUtf8 } from "../util/utf8";
import { SUBAGENT_RESULT_MAX_BYTES } from "./bounds";

/** What the auto-save needs of the artifact store (ArtifactStore implements it). */
export interface ResultStore {
  /** Throws a HaloError with one sentence when the file cannot be written. */
  save(p: Principal, project: string, name: string, bytes: Uint8Array): unknown;
}

/** The file a round's result goes to. */
export function resultFileName(name: string, id: string, round: number): string {
  return round <= 1 ? `${name}-${id}.md` : `${name}-${id}-${round}.md`;
}

export function saveResult(
  store: ResultStore,
  p: Principal,
  s: { id: string; name: string; project: string; rounds: number },
  text: string,
): { savedAs?: string; error?: string } {
  const file = resultFileName(s.name, s.id, s.rounds);
  // A regex literal here, not a module constant: a global regex carries lastIndex state (preloadable core).
  const clean = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "");
  const body = truncateUtf8(clean, SUBAGENT_RESULT_MAX_BYTES);
  const cut = body.length < clean.length ? `\n\n[cut at ${SUBAGENT_RESULT_MAX_BYTES} bytes]` : "";
  try {
    store.save(p, s.project, file, encodeUtf8(body + cut + "\n"));
    return { savedAs: `${s.project}/${file}` };
  } catch (e) {
    return { error: e instanceof Error ? e.message : "the result could not be saved." };
  }
}
