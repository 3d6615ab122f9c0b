// What the XS suites of the SD module share: the card (the module's POSIX
// backend over a folder), its simulated removal, a fresh empty card folder per
// case, a fake clock for the remount backoff, and the Storage contract's
// factory over the device's storage port. Nothing here calls native() itself:
// sdcard.xs.ts passes the bindings in, so Node can import the case lists.
import { sdStorage, type SdStorage, type SdStorageOptions } from "../../hosts/device/ports/storage.ts";
import { REMOUNT_MAX_DELAY_MS } from "../../hosts/device/ports/card-mount.ts";
import type { SdCard } from "../../modules/sdcard/sdcard.ts";
import type { ContractFactory, ContractSubject } from "./storage-contract.ts";

export interface SdHarness {
  card: SdCard;
  simulate(what: "remove" | "insert"): void;
  /** A new empty folder `<base>/<label>-<n>/sd` to mount as a card (nothing mounted on return). */
  freshRoot(label: string): string;
  /** The fake monotonic clock the storage's backoff reads. */
  clock: { t: number };
  /** A storage port over `root`, on the fake clock. */
  storage(root: string, extra?: Partial<SdStorageOptions>): SdStorage;
}

export interface XsCase {
  name: string;
  run(h: SdHarness): void;
}

export function sdHarness(card: SdCard, simulate: (what: "remove" | "insert") => void, base: string): SdHarness {
  let made = 0;
  const clock = { t: 0 };
  return {
    card,
    simulate,
    clock,
    freshRoot(label: string): string {
      card.unmount();
      simulate("insert");
      const folder = `${label}-${++made}`;
      card.mount({ root: base });
      card.mkdir(folder);
      card.mkdir(`${folder}/sd`);
      card.unmount();
      return `${base}/${folder}/sd`;
    },
    storage: (root, extra = {}) => sdStorage({ card, mount: { root }, now: () => clock.t, ...extra }),
  };
}

/** The Storage contract's factory over the SD storage port; pull/insert go through the card simulation. */
export function sdContractFactory(h: SdHarness): ContractFactory {
  return (options): ContractSubject => {
    const root = h.freshRoot("contract");
    const parent = root.slice(0, -"/sd".length);
    const port = h.storage(root, {
      mount: { root, capacity: options.capacityBytes },
      onStep: (step, path) => (step === "temp" ? options.beforeRename?.(path) : undefined),
    });
    return {
      storage: Object.assign(port, {
        pull: (): void => h.simulate("remove"),
        insert: (): void => {
          h.simulate("insert");
          h.clock.t += REMOUNT_MAX_DELAY_MS; // the remount backoff has run out
        },
      }),
      // What sits beside the card's folder: the port must never write there.
      outside: (): string[] => {
        h.card.unmount();
        h.card.mount({ root: parent });
        const names = h.card.readdir("").filter((n) => n !== "sd");
        h.card.unmount(); // the port mounts its card again on its next call
        return names;
      },
      cleanup: (): void => {
        h.simulate("insert");
        h.card.unmount();
      },
    };
  };
}
