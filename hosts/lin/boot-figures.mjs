// Boots a debug build of the app under halo-lin on a fresh data folder and prints the engine's figures after
// boot: the first `instruments:` row after "serving http" (lin slots are 32 bytes).
//   node hosts/lin/boot-figures.mjs <debug mc.so>      (build it with hosts/lin/build.sh -d)
// Prints `device-xs-slots-after-boot <n>` and `device-modules-loaded-at-runtime <n>` (aims: 8,000 and 10, issue
// 27), with the chunk bytes, keys and collections beside them. Exits 1 when no row comes within 60 s.
import { runHaloLin } from "./run-halo-lin.mjs";

const so = process.argv[2];
if (!so) {
  console.error("usage: node hosts/lin/boot-figures.mjs <debug mc.so>");
  process.exit(64);
}
const SLOT_BYTES = 32;
let keys;
let serving = false;
runHaloLin({
  so,
  name: "boot-figures",
  timeoutMs: 60_000,
  timeoutMessage: "no instruments row after boot within 60 s (a release build prints none)",
  exitMessage: "before a row after boot",
  onLine(line, finish) {
    if (line.startsWith("instruments key: ")) keys = line.slice("instruments key: ".length).split(",");
    else if (line.includes("serving http")) serving = true;
    else if (serving && keys && line.startsWith("instruments: ")) {
      const values = line.slice("instruments: ".length).split(",").map(Number);
      const value = (name) => values[keys.indexOf(name)];
      console.log(`device-xs-slots-after-boot ${value("Slot used") / SLOT_BYTES}`);
      console.log(`device-modules-loaded-at-runtime ${value("Modules loaded")}`);
      console.log(`device-chunk-bytes-after-boot ${value("Chunk used")}`);
      console.log(`device-keys-used-after-boot ${value("Keys used")}`);
      console.log(`device-collections-first-second ${value("Garbage collections")}`);
      finish(0);
      return;
    }
  },
});
