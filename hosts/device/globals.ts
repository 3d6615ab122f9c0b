// Installs the web text globals that lib/ uses, and the flash check of lib/util/json.ts. A bare XS machine has neither;
// Moddable ships them as the native text/encoder and text/decoder modules.
// main.ts imports this module first so the globals exist before lib/ loads.
import TextEncoder from "text/encoder";
import TextDecoder from "text/decoder";
import { inFlash } from "../../modules/flash/flash";

const host = globalThis as { TextEncoder?: unknown; TextDecoder?: unknown; haloInFlash?: unknown };
host.TextEncoder ??= TextEncoder;
host.TextDecoder ??= TextDecoder;
// lib/util/json.ts copies the objects this says are in flash before JSON.stringify sees them.
host.haloInFlash = inFlash;
