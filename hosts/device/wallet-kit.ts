// The device's Cashu kit. lib/wallet/cashu/kit.ts, and through it @cashu/cashu-ts and the @noble modules only it
// reaches, are not preloaded (tools/gen/preload.ts RUN_TIME_ONLY, docs/wallet.md "Preloading"): they keep
// module-level state that preloading would freeze. This preloaded door loads them with Modules.importNow the
// first time the wallet is used (WalletService builds its kit then), never at boot.
import Modules from "modules";
import { HaloError } from "../../lib/errors";
import type { Log } from "../../lib/ports";
import type { CashuKitDeps } from "../../lib/wallet/cashu/kit";
import type { CashuKit, WalletKitFactory } from "../../lib/wallet/types";

/** The module whose default export is createCashuKit (Modules.importNow returns a module's default). */
export const CASHU_KIT_MODULE = "lib/wallet/cashu/kit";

/**
 * Window of @noble/curves' base-point table, built at the first blinding and kept: 4 holds about a third of the
 * default 6's 352 KB (docs/wallet.md, "Tests and figures"), each blinding a little slower.
 */
export const DEVICE_BASE_TABLE_WINDOW = 4;

/** The kit factory, or undefined when the build has no lib/wallet/cashu/ (the wallet tools then say so). */
export function deviceWalletKit(log: Log): WalletKitFactory | undefined {
  if (!Modules.has(CASHU_KIT_MODULE)) return undefined;
  return (deps): CashuKit => {
    let create: (deps: CashuKitDeps) => CashuKit;
    try {
      create = Modules.importNow(CASHU_KIT_MODULE) as typeof create;
    } catch (e) {
      // Out of memory, or an engine cashu-ts does not run on: the wallet says so and the device keeps serving.
      log.warn(`wallet: the Cashu library did not load (${e instanceof Error ? e.message : "error"})`);
      throw new HaloError("unavailable", "the Cashu library did not load on this device.");
    }
    return create({ ...deps, baseTableWindow: DEVICE_BASE_TABLE_WINDOW });
  };
}
