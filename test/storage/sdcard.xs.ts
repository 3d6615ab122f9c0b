// XS entry: the SD module's POSIX backend on the XS host. Runs the Storage
// contract against the device's storage port over the module, then the
// module's own suites and the NVS settings suite, and prints one RESULT line a
// case, then END.
// Argument: an empty folder the cards are made in.
import { sdcard } from "../../modules/sdcard/sdcard.ts";
import { simulateCard } from "../../modules/sdcard/simulate.ts";
import { sdContractFactory, sdHarness } from "./sd-harness.ts";
import { runStorageCase, STORAGE_CASES } from "./storage-contract.ts";
import { PLAIN_SUITES, RESULT_PREFIX, SD_SUITES, type CaseResult } from "./suites.ts";

const base = scriptArgs[0];
if (!base?.startsWith("/")) {
  print("usage: sdcard.xs.ts <absolute folder>");
  exit(2);
}

function report(suite: string, name: string, run: () => void): void {
  let result: CaseResult;
  try {
    run();
    result = { suite, name, ok: true };
  } catch (e) {
    result = { suite, name, ok: false, message: e instanceof Error ? `${e.message}\n${e.stack ?? ""}` : String(e) };
  }
  print(RESULT_PREFIX + JSON.stringify(result));
}

const harness = sdHarness(sdcard, simulateCard, base);
const factory = sdContractFactory(harness);
for (const c of STORAGE_CASES) report("Storage contract", c.name, () => runStorageCase(c, factory));
for (const suite of Object.keys(SD_SUITES)) {
  for (const c of SD_SUITES[suite]) {
    report(suite, c.name, () => {
      try {
        c.run(harness);
      } finally {
        simulateCard("insert");
        sdcard.unmount();
      }
    });
  }
}
for (const suite of Object.keys(PLAIN_SUITES)) for (const c of PLAIN_SUITES[suite]) report(suite, c.name, () => c.run());
print("END");
