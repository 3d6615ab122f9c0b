// XS entry of bench/sdcard.mjs: the device's storage port over the SD module's
// POSIX backend (a folder on this PC), timed with hostNow(). Prints one line:
// SDCARD-XS {json}. Argument: an empty folder, then the number of samples.
import { sdStorage } from "../hosts/device/ports/storage.ts";
import { sdcard } from "../modules/sdcard/sdcard.ts";

declare function print(...args: unknown[]): void;
declare function hostNow(): number;
declare const scriptArgs: readonly string[];

const root = scriptArgs[0];
const samples = Number(scriptArgs[1] ?? "21");
const data = new Uint8Array(4096).map((_, i) => (i * 7) & 0xff);

function median(run: (i: number) => void): number {
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = hostNow();
    run(i);
    ms.push(hostNow() - start);
  }
  ms.sort((a, b) => a - b);
  return ms[ms.length >> 1];
}

const port = sdStorage({ card: sdcard, mount: { root }, now: hostNow });
port.writeAtomic("bench/atomic.bin", data);
port.writeAtomic("bench/plain.bin", data);
const atomicMs = median(() => port.writeAtomic("bench/atomic.bin", data));
// the baseline: one synced overwrite in place, no protocol (what a crash could tear)
const plainMs = median(() => {
  const f = sdcard.open("bench/plain.bin", "w");
  sdcard.write(f, data);
  sdcard.sync(f);
  sdcard.close(f);
});
const appendMs = median(() => port.append("bench/log.bin", data.subarray(0, 256)));
const readMs = median(() => void port.read("bench/atomic.bin"));
const listMs = median(() => void port.list("bench"));
print(`SDCARD-XS ${JSON.stringify({ atomicMs, plainMs, appendMs, readMs, listMs })}`);
