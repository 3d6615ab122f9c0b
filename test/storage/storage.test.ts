// The Storage contract against every implementation the Node side can run.
// The device's fileStorage (hosts/device/ports/storage.ts) needs Moddable's
// `file` module: it runs only under the Moddable SDK, not here.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { folderStorage } from "../../hosts/sim/ports/folder-storage.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { storageContract } from "./storage-contract.ts";

storageContract("memoryStorage", (options) => ({ storage: memoryStorage(options.capacityBytes, options) }));

storageContract("folderStorage", (options) => {
  const parent = mkdtempSync(join(tmpdir(), "halo-sd-"));
  return {
    storage: folderStorage(join(parent, "sd"), options),
    outside: () => readdirSync(parent).filter((n) => n !== "sd"),
    cleanup: () => rmSync(parent, { recursive: true, force: true }),
  };
});
