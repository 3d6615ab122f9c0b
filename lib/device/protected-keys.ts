// The human-web-only rail for device config: keys no device action may carry.
// A key is compared by its letters and digits only, lower-cased, so case
// changes and separators (oai_key, OAI-KEY, oai.key) do not slip through.

/** Names (normalised) that are protected outright: the documented aliases. */
const PROTECTED_NAMES: readonly string[] = [
  "oaikey",
  "antkey",
  "mistralkey",
  "tavilykey",
  "tgtoken",
  "tgallow",
  "openai",
  "anthropic",
  "mistral",
  "tavily",
  "telegram",
  "apikey",
  "secrets",
  "providerpriority",
  "priority",
  "providers",
  "provorder",
  "providerorder",
  "routing",
  "providerrouting",
  "orchhost",
  "orchestratorhost",
  "orchurl",
  "fabric",
  "subagentfabric",
  "subagents",
  "allowlist",
  "allowed",
  "chats",
  "chatids",
  "owners",
  "admins",
  "authallow",
  "auth",
  "loops",
  "localloops",
  "routines",
  "budget",
  "budgets",
  "governor",
  "ceilings",
  "rates",
];

/** Fragments that protect every key containing them (secrets, routing, auth, loops, budget). */
const PROTECTED_FRAGMENTS: readonly string[] = [
  "key",
  "token",
  "secret",
  "passw",
  "credential",
  "bearer",
  "priorit",
  "prio",
  "rout",
  "fallback",
  "provider",
  "order",
  "host",
  "url",
  "endpoint",
  "apibase",
  "server",
  "proxy",
  "fabric",
  "subagent",
  "spawn",
  "allow",
  "auth",
  "whitelist",
  "acl",
  "chatid",
  "loop",
  "routine",
  "schedule",
  "budget",
  "governor",
  "ceiling",
  "spend",
  "rate",
  "cost",
  "billing",
  "usage",
  "limit",
];

/** Deepest nesting the scan follows; anything deeper is refused unread. */
export const PROTECTED_SCAN_MAX_DEPTH = 8;
/** Most keys the scan visits in one action; more is refused unread. */
export const PROTECTED_SCAN_MAX_KEYS = 256;

export function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, "");
}

export function isProtectedKey(key: string): boolean {
  const k = normaliseKey(key);
  if (PROTECTED_NAMES.indexOf(k) >= 0) return true;
  for (const fragment of PROTECTED_FRAGMENTS) if (k.indexOf(fragment) >= 0) return true;
  return false;
}

export type ScanVerdict = "clean" | "protected" | "too-deep" | "too-many-keys";

/**
 * Walks every key of `value` (objects and arrays, at any depth up to the
 * bound) and reports whether any is protected. Iterative, so hostile nesting
 * cannot exhaust the stack.
 */
export function scanForProtectedKeys(value: unknown): ScanVerdict {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  let visited = 0;
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= PROTECTED_SCAN_MAX_DEPTH) return "too-deep";
    if (Array.isArray(v)) {
      visited += v.length;
      if (visited > PROTECTED_SCAN_MAX_KEYS) return "too-many-keys";
      for (const item of v) stack.push({ v: item, depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(v);
    visited += keys.length;
    if (visited > PROTECTED_SCAN_MAX_KEYS) return "too-many-keys";
    for (const key of keys) {
      if (isProtectedKey(key)) return "protected";
      stack.push({ v: (v as { [k: string]: unknown })[key], depth: depth + 1 });
    }
  }
  return "clean";
}
