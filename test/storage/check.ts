// A few assertions that run on Node and on the XS host alike (no node:assert
// there), for the suites in this folder that run on both engines.

export class CheckError extends Error {}

function show(value: unknown): string {
  if (value instanceof Uint8Array)
    return `Uint8Array(${value.length})[${Array.from(value.subarray(0, 16)).join(",")}${value.length > 16 ? ",..." : ""}]`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return same(ka, kb) && ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

export function ok(value: unknown, label = "expected a true value"): void {
  if (!value) throw new CheckError(label);
}

export function equal(actual: unknown, expected: unknown, label = ""): void {
  if (actual !== expected) throw new CheckError(`${label ? label + ": " : ""}${show(actual)} !== ${show(expected)}`);
}

export function deepEqual(actual: unknown, expected: unknown, label = ""): void {
  if (!same(actual, expected)) throw new CheckError(`${label ? label + ": " : ""}${show(actual)} differs from ${show(expected)}`);
}

/** Expects `run` to throw an Error matching `expected` (a pattern for its message, or a predicate). */
export function throws(run: () => unknown, expected?: RegExp | ((e: Error) => boolean), label = ""): void {
  let thrown: unknown;
  try {
    run();
  } catch (e) {
    thrown = e;
  }
  const where = label ? ` (${label})` : "";
  if (thrown === undefined) throw new CheckError(`expected an error${where}`);
  if (!(thrown instanceof Error)) throw new CheckError(`threw a non-Error${where}`);
  if (expected instanceof RegExp && !expected.test(thrown.message))
    throw new CheckError(`error "${thrown.message}" does not match ${expected}${where}`);
  if (typeof expected === "function" && !expected(thrown))
    throw new CheckError(`error "${thrown.message}" was not the expected one${where}`);
}
