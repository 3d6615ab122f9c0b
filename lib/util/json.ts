// JSON.stringify for values that may reach objects in flash. On the device,
// lib/ is preloaded: its module constants (tool schemas, knob tables) live in
// flash, and XS's JSON.stringify refuses a read-only object ("read only
// value") because it marks each object it visits. The replacer hands the
// engine a RAM copy of each object instead; the text is the same. (Objects in
// flash do not all report themselves frozen, so every object is copied.)

function copyInRam(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.slice();
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") return value;
  return { ...(value as { [key: string]: unknown }) };
}

/** JSON.stringify that works on preloaded (read-only) objects too. */
export function toJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, copyInRam, indent);
}
