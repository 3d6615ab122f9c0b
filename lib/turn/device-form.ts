// A device[] element as the strict answer schema has it (every action key
// present, all but one null; config as a list of {key, value}) turned into the
// form the device validator reads ({led: {...}} with one key; config as an
// object). Anything malformed is passed on so the validator refuses it with
// its own reason; nothing here judges or repeats a value.

type Obj = { [key: string]: unknown };

function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The object without its null-valued fields (the strict schema's "absent"). */
function withoutNulls(o: Obj): Obj {
  const out: Obj = {};
  for (const k of Object.keys(o)) if (o[k] !== null) out[k] = o[k];
  return out;
}

/**
 * `[{key, value}, ...]` as `{key: value}`, on an object without a prototype so
 * no key (`__proto__` included) can do anything but be a key. Undefined when a
 * pair is malformed.
 */
function configObject(pairs: unknown[]): Obj | undefined {
  const out = Object.create(null) as Obj;
  for (const pair of pairs) {
    if (!isObject(pair) || typeof pair.key !== "string" || !("value" in pair) || Object.keys(pair).length !== 2) return undefined;
    out[pair.key] = pair.value;
  }
  return out;
}

/** One element in the validator's form. */
export function deviceElement(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const present = Object.keys(raw).filter((k) => raw[k] !== null && raw[k] !== undefined && !(k === "reboot" && raw[k] === false));
  const out: Obj = {};
  for (const kind of present) {
    const params = raw[kind];
    if (kind === "config" && Array.isArray(params)) out.config = configObject(params) ?? "malformed";
    else if ((kind === "led" || kind === "orch_model" || kind === "tts" || kind === "lights") && isObject(params))
      out[kind] = withoutNulls(params);
    else out[kind] = params;
  }
  return out;
}
