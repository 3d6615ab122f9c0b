// Installs the web text globals that lib/ uses. A bare XS machine has neither;
// Moddable ships them as the native text/encoder and text/decoder modules.
// main.ts imports this module first so the globals exist before lib/ loads.
import TextEncoder from "text/encoder";
import TextDecoder from "text/decoder";

const host = globalThis as { TextEncoder?: unknown; TextDecoder?: unknown };
host.TextEncoder ??= TextEncoder;
host.TextDecoder ??= TextDecoder;
