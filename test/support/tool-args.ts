// Valid-ish arguments for any tool, derived from its input schema, so the
// security tests cover every registered tool, including ones added later.
import type { JsonSchema } from "../../lib/registry/types.ts";

type Schema = { [key: string]: any };

/** Strings tried in order for a string property; the first that fits its bounds and pattern wins. */
const STRING_CANDIDATES = [
  "hello",
  "owner",
  "12345",
  "a",
  "x1",
  "note",
  "notes",
  "test-1",
  "notes/a.md",
  "a.md",
  "hello.txt",
  "https://example.com/a.md",
  "http://127.0.0.1/a.txt",
  "r1",
  "abc",
  "2026-01-01",
  "12:00",
  "view",
  "AAAA",
];

export function sampleString(s: Schema): string {
  if (Array.isArray(s.enum)) return s.enum[0];
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 1000;
  const re = typeof s.pattern === "string" ? new RegExp(s.pattern, "u") : undefined;
  const fits = (v: string): boolean => v.length >= min && v.length <= max && (!re || re.test(v));
  for (const c of STRING_CANDIDATES) if (fits(c)) return c;
  for (const base of ["a", "1", "x"]) {
    const v = base.repeat(Math.max(1, min));
    if (fits(v)) return v;
  }
  return "a".repeat(Math.max(1, min));
}

export function sampleValue(s: Schema | undefined, depth = 0): unknown {
  if (!s || depth > 6) return null;
  if (Array.isArray(s.enum)) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "string":
      return sampleString(s);
    case "integer":
      return Math.max(s.minimum ?? 0, Math.min(s.maximum ?? 1, 1));
    case "number":
      return Math.max(s.minimum ?? 0, Math.min(s.maximum ?? 0.5, 0.5));
    case "boolean":
      return false;
    case "array": {
      const n = s.minItems ?? 0;
      return Array.from({ length: n }, () => sampleValue(s.items, depth + 1));
    }
    default:
      return sampleObject(s, depth + 1);
  }
}

/** The required properties of an object schema, each with a sample value. */
export function sampleObject(s: Schema, depth = 0): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {};
  const props = (s.properties ?? {}) as { [key: string]: Schema };
  for (const key of (s.required ?? []) as string[]) out[key] = sampleValue(props[key], depth);
  return out;
}

/** Arguments for a tool: its required properties with sample values. */
export function sampleArgs(inputSchema: JsonSchema): { [key: string]: unknown } {
  return sampleObject(inputSchema as Schema);
}

/** Arguments with every declared property filled, for calls that should reach deeper into a handler. */
export function fullArgs(inputSchema: JsonSchema): { [key: string]: unknown } {
  const s = inputSchema as Schema;
  const out = sampleObject(s);
  const props = (s.properties ?? {}) as { [key: string]: Schema };
  for (const key of Object.keys(props)) if (!(key in out)) out[key] = sampleValue(props[key], 1);
  return out;
}
