// Binds the native flash check (flash.c) and installs it as the global
// haloInFlash that lib/util/json.ts looks for. The device's globals.ts imports
// this module; the XS test host calls the same function in its JSON tests.

// biome-ignore lint/suspicious/noExplicitAny: the bound C function's signature is given where it is used
declare function native(name: string): (...args: any[]) => any;

const contains = native("xs_flash_contains");

/** True when `value` is an object kept read-only in flash (a preloaded module's constant). */
export function inFlash(value: object): boolean {
  return contains(value);
}
