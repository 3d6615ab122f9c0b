// Issue 27's Linux-target curve figures. Boots an app built with `curveBench=<events>` under halo-lin on a fresh
// data folder, where main.ts signs and verifies that many events with the native curve (modules/curve) and with
// the TypeScript curve before it boots as usual, and prints the `lin-nostr-*` lines it traced:
//   MODDABLE=... hosts/lin/build.sh curveBench=100          (-d as well for the heap lines)
//   node hosts/lin/check-curve.mjs <that mc.so>
// Stops halo-lin once the app serves http. Exits 1 when the lines do not come within 5 minutes, the app stops
// first, or the verification speedup is under issue 27's aim of 10.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const AIM = 10;
const so = process.argv[2];
if (!so) {
  console.error("usage: node hosts/lin/check-curve.mjs <mc.so built with curveBench=<events>>");
  process.exit(64);
}
const data = mkdtempSync(join(tmpdir(), "halo-lin-curve-"));
const child = spawn(join(dirname(new URL(import.meta.url).pathname), "halo-lin"), [so, data], { stdio: ["ignore", "pipe", "inherit"] });
const figures = new Map();
let text = "";
let done = false;

function finish(code) {
  if (done) return;
  done = true;
  clearTimeout(deadline);
  child.kill("SIGINT");
  child.once("exit", () => {
    rmSync(data, { recursive: true, force: true });
    process.exit(code);
  });
}

const deadline = setTimeout(() => {
  console.error("check-curve: no bench lines and boot within 5 minutes (was the app built with curveBench=<events>?)");
  finish(1);
}, 300_000);

child.stdout.on("data", (chunk) => {
  text += chunk;
  const lines = text.split("\n");
  text = lines.pop();
  for (const line of lines) {
    const figure = /^(lin-nostr-[a-z0-9-]+): (.*)$/.exec(line);
    if (figure) {
      figures.set(figure[1], figure[2]);
      console.log(line);
    } else if (line.includes("serving http")) {
      const speedup = Number(figures.get("lin-nostr-verify-speedup-native-vs-ts"));
      if (!figures.has("lin-nostr-verify-speedup-native-vs-ts")) console.error("check-curve: the app booted without the bench lines");
      else if (!(speedup >= AIM)) console.error(`check-curve: verification speedup ${speedup} is under the aim of ${AIM}`);
      finish(figures.has("lin-nostr-verify-speedup-native-vs-ts") && speedup >= AIM ? 0 : 1);
      return;
    }
  }
});
child.on("exit", (code) => {
  if (done) return;
  console.error(`check-curve: halo-lin exited (${code}) before it served http`);
  done = true;
  clearTimeout(deadline);
  rmSync(data, { recursive: true, force: true });
  process.exit(1);
});
