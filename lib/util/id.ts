// Short random ids for jobs, sub-agents and routines.
import type { Random } from "../ports";
import { toHex } from "./hash";

/** `prefix` followed by `byteCount` random bytes in lower-case hex. */
export function randomHexId(random: Random, prefix: string, byteCount: number): string {
  const bytes = new Uint8Array(byteCount);
  random.fill(bytes);
  return prefix + toHex(bytes);
}
