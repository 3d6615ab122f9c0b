// Issue 27's Linux-target curve figures. Boots an app built with `curveBench=<events>` under halo-lin on a fresh
// data folder, where main.ts signs and verifies that many events with the native curve (modules/curve) and with
// the TypeScript curve before it boots as usual, and prints the `lin-nostr-*` lines it traced:
//   MODDABLE=... hosts/lin/build.sh curveBench=100          (-d as well for the heap lines)
//   node hosts/lin/check-curve.mjs <that mc.so>
// Stops halo-lin once the app serves http. Exits 1 when the lines do not come within 5 minutes, the app stops
// first, or the verification speedup is under issue 27's aim of 10.
import { runHaloLin } from "./run-halo-lin.mjs";

const AIM = 10;
const SPEEDUP = "lin-nostr-verify-speedup-native-vs-ts";
const so = process.argv[2];
if (!so) {
  console.error("usage: node hosts/lin/check-curve.mjs <mc.so built with curveBench=<events>>");
  process.exit(64);
}
const figures = new Map();
runHaloLin({
  so,
  name: "check-curve",
  timeoutMs: 300_000,
  timeoutMessage: "no bench lines and boot within 5 minutes (was the app built with curveBench=<events>?)",
  exitMessage: "before it served http",
  onLine(line, finish) {
    const figure = /^(lin-nostr-[a-z0-9-]+): (.*)$/.exec(line);
    if (figure) {
      figures.set(figure[1], figure[2]);
      console.log(line);
    } else if (line.includes("serving http")) {
      const speedup = Number(figures.get(SPEEDUP));
      if (!figures.has(SPEEDUP)) console.error("check-curve: the app booted without the bench lines");
      else if (!(speedup >= AIM)) console.error(`check-curve: verification speedup ${speedup} is under the aim of ${AIM}`);
      finish(figures.has(SPEEDUP) && speedup >= AIM ? 0 : 1);
    }
  },
});
