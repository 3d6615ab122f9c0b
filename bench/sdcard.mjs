// SD module figures (the device's storage port over modules/sdcard), on the XS
// host over its POSIX backend, so they describe this PC's file system, not a
// card; the ratio says what the staged replace costs against one synced
// overwrite in place, measured in the same run. One `name: value` line each:
//
//   sd-write-atomic-ms-4k-xs        writeAtomic of 4 KB (marker, temp, backup, swap, cleanup; three fsyncs)
//   sd-plain-write-ms-4k-xs         open "w", write 4 KB, fsync, close: the baseline
//   sd-write-atomic-vs-plain-ratio  the first over the second
//   sd-append-ms-256b-xs            append of 256 bytes (write and fsync)
//   sd-read-ms-4k-xs                read of a 4 KB file
//   sd-list-ms-xs                   list of a folder of three files
//
// Medians of 21 samples.   node bench/sdcard.mjs   (or through `npm run bench`)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SAMPLES = 21;

/** Every SD figure, as [name, value] pairs. */
export async function runSdcardBench() {
  const { runOnXs } = await import("../hosts/xs/run.mjs");
  const dir = mkdtempSync(join(tmpdir(), "halo-sd-bench-"));
  try {
    const r = await runOnXs("bench/sdcard.xs.ts", { args: [dir, String(SAMPLES)], timeoutMs: 120_000 });
    const line = /SDCARD-XS (\{.*\})/.exec(r.stdout);
    if (r.code !== 0 || !line) throw new Error(`the XS SD bench failed (exit ${r.code}): ${r.stderr.slice(0, 400)}`);
    const f = JSON.parse(line[1]);
    return [
      ["sd-write-atomic-ms-4k-xs", f.atomicMs],
      ["sd-plain-write-ms-4k-xs", f.plainMs],
      ["sd-write-atomic-vs-plain-ratio", f.atomicMs / f.plainMs],
      ["sd-append-ms-256b-xs", f.appendMs],
      ["sd-read-ms-4k-xs", f.readMs],
      ["sd-list-ms-xs", f.listMs],
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [name, value] of await runSdcardBench()) console.log(`${name}: ${value.toFixed(3)}`);
}
