// JSON.stringify for values that may reach objects in flash. On the device,
// lib/ is preloaded: its module constants (tool schemas, knob tables) live in
// flash, and XS's JSON.stringify refuses a read-only object ("read only
// value") because it marks each object it visits. Such objects report neither
// frozen nor non-extensible, so the device host installs a native check,
// haloInFlash (modules/flash), and the replacer hands the engine a RAM copy of
// each object in flash; the text is the same. Hosts without flash (Node, the
// XS test host) install none and stringify directly, copying nothing.

function ramCopy(value: object): unknown {
  if (Array.isArray(value)) return value.slice();
  return { ...(value as { [key: string]: unknown }) };
}

function copyFlashObjects(inFlash: (value: object) => boolean): (key: string, value: unknown) => unknown {
  return (_key, value) => (value !== null && typeof value === "object" && inFlash(value) ? ramCopy(value) : value);
}

/** The global the device host installs (hosts/device/globals.ts); absent elsewhere. */
interface FlashHost {
  haloInFlash?: (value: object) => boolean;
}

/** JSON.stringify that works on preloaded (read-only) objects too. */
export function toJson(value: unknown, indent?: number): string {
  const inFlash = (globalThis as FlashHost).haloInFlash;
  return JSON.stringify(value, inFlash ? copyFlashObjects(inFlash) : undefined, indent);
}
