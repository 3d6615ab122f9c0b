// TTL classes: how long an entry lives after it was written or last recalled.

export const TTL_CLASSES = ["session", "days", "weeks", "months", "permanent"] as const;
export type TtlClass = (typeof TTL_CLASSES)[number];

/** Hours each class lives; 0 = forever. Indexed like TTL_CLASSES. */
export const TTL_HOURS: readonly number[] = [12, 96, 504, 2160, 0];
export const TTL_PERMANENT = 4;
/** The class of a new memory when the caller names none. */
export const DEFAULT_TTL: TtlClass = "months";

const HOUR_MS = 3600 * 1000;

export function ttlIndex(name: TtlClass): number {
  return TTL_CLASSES.indexOf(name);
}

/**
 * The longest class that fits a quota's maximum TTL (hours, 0 = no maximum),
 * at most `wanted`: quotas clamp, they do not refuse.
 */
export function clampTtl(wanted: number, maxHours: number): number {
  if (maxHours <= 0) return wanted;
  let ttl = wanted;
  while (ttl > 0 && (TTL_HOURS[ttl] === 0 || TTL_HOURS[ttl] > maxHours)) ttl--;
  return ttl;
}

/** When an entry of class `ttl` renewed at `renewed` expires (Infinity for permanent). */
export function expiresAt(ttl: number, renewed: number): number {
  const hours = TTL_HOURS[ttl];
  return hours === 0 ? Infinity : renewed + hours * HOUR_MS;
}

/** The part of the entry's TTL still left, in [0, 1] (1 for permanent). */
export function ttlFractionLeft(ttl: number, renewed: number, now: number): number {
  const hours = TTL_HOURS[ttl];
  if (hours === 0) return 1;
  const left = (renewed + hours * HOUR_MS - now) / (hours * HOUR_MS);
  return left < 0 ? 0 : left > 1 ? 1 : left;
}
