// The SDK's `preference` module, reached when first used instead of imported as a module loads. The lin
// build's `preference` reads its JSON file while its class is defined, which the XS linker cannot run at build
// time, so a module importing it statically could not be preloaded. Through this door config.ts, network.ts
// and settings.ts are preloaded and only `preference` itself (with `file` on lin) loads at run time.
import Modules from "modules";
import type Preference from "preference";

export type PreferenceModule = typeof Preference;

/** The `preference` module; the first call loads it (later ones find it loaded). */
export function preference(): PreferenceModule {
  return Modules.importNow("preference") as PreferenceModule;
}
