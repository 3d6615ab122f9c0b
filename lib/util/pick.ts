/** The named members of `from`, and nothing else: what a route or a tool is handed of the whole. */
export function pick<T, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = from[k];
  return out;
}
