// Runs on XS (and Node): deep-freezes what lib/ modules export, as the device's preload leaves them in flash.
// Built-in objects are left alone (the host's own), and so are ArrayBuffers and typed arrays, which
// Object.freeze cannot freeze; those are listed in the report.

export interface FreezeReport {
  modules: number;
  /** Objects and functions frozen, counting each once. */
  frozen: number;
  /** "module: export path" of each buffer or typed array reached (cannot be frozen). */
  buffers: string[];
}

function intrinsics(): Set<unknown> {
  const found = new Set<unknown>();
  const add = (v: unknown): void => {
    if ((typeof v === "object" && v !== null) || typeof v === "function") found.add(v);
  };
  for (const key of Reflect.ownKeys(globalThis)) {
    const v = (globalThis as Record<PropertyKey, unknown>)[key];
    add(v);
    if (typeof v === "function") {
      add(v.prototype);
      add(Object.getPrototypeOf(v));
    }
  }
  add(Object.getPrototypeOf(Uint8Array));
  add(Object.getPrototypeOf(Uint8Array.prototype));
  return found;
}

/** Freezes every module namespace and, deeply, every object and function its exports reach. */
export function freezeModules(modules: Array<[string, object]>): FreezeReport {
  const skip = intrinsics();
  const seen = new Set<unknown>();
  const report: FreezeReport = { modules: 0, frozen: 0, buffers: [] };
  const walk = (value: unknown, path: string): void => {
    if ((typeof value !== "object" || value === null) && typeof value !== "function") return;
    if (seen.has(value) || skip.has(value)) return;
    seen.add(value);
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
      report.buffers.push(path);
      return;
    }
    Object.freeze(value);
    report.frozen++;
    for (const key of Reflect.ownKeys(value)) {
      const d = Reflect.getOwnPropertyDescriptor(value, key)!;
      const at = `${path}.${String(key)}`;
      if ("value" in d) walk(d.value, at);
      else {
        walk(d.get, at);
        walk(d.set, at);
      }
    }
    if (value instanceof Map) {
      for (const [k, v] of value) {
        walk(k, `${path}[key]`);
        walk(v, `${path}[value]`);
      }
    }
    if (value instanceof Set) for (const v of value) walk(v, `${path}[item]`);
  };
  for (const [name, namespace] of modules) {
    // A namespace's properties are live bindings: read each value, then freeze the namespace itself.
    for (const key of Object.keys(namespace)) walk((namespace as Record<string, unknown>)[key], `${name}: ${key}`);
    Object.freeze(namespace);
    report.modules++;
  }
  return report;
}
