// Starts halo-lin on a fresh data folder and hands each line it prints to `onLine` until that calls
// `finish(code)`, the deadline passes or halo-lin exits; then stops it, removes the folder and exits with the
// code. For the check scripts beside this file (boot-figures.mjs, check-curve.mjs, check-voice.mjs). `env`, when
// given, is halo-lin's whole environment (check-voice.mjs gives it a private HOME); `onExit` runs before the exit.
// Returns the child process (check-voice.mjs signals it: SIGUSR1 is a button press).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * @param {{ so: string, name: string, timeoutMs: number, timeoutMessage: string, exitMessage: string,
 *   onLine: (line: string, finish: (code: number) => void) => void, env?: NodeJS.ProcessEnv, onExit?: () => void }} run
 * @returns {import("node:child_process").ChildProcess}
 */
export function runHaloLin({ so, name, timeoutMs, timeoutMessage, exitMessage, onLine, env, onExit }) {
  const data = mkdtempSync(join(tmpdir(), `halo-lin-${name}-`));
  const child = spawn(join(dirname(new URL(import.meta.url).pathname), "halo-lin"), [so, data], {
    stdio: ["ignore", "pipe", "inherit"],
    env: env ?? process.env,
  });
  let text = "";
  let done = false;
  const cleanUp = (code) => {
    rmSync(data, { recursive: true, force: true });
    onExit?.();
    process.exit(code);
  };
  const finish = (code) => {
    if (done) return;
    done = true;
    clearTimeout(deadline);
    child.kill("SIGINT");
    // A halo-lin stuck in a driver (the SDK's audio threads wait on their pipes) must not hold the lin lock.
    const hard = setTimeout(() => {
      console.error(`${name}: halo-lin did not stop within 5 s of SIGINT; killing it`);
      child.kill("SIGKILL");
    }, 5000);
    child.once("exit", () => {
      clearTimeout(hard);
      cleanUp(code);
    });
  };
  const deadline = setTimeout(() => {
    console.error(`${name}: ${timeoutMessage}`);
    finish(1);
  }, timeoutMs);
  child.stdout.on("data", (chunk) => {
    text += chunk;
    const lines = text.split("\n");
    text = lines.pop();
    for (const line of lines) {
      if (done) return;
      onLine(line, finish);
    }
  });
  child.on("exit", (code) => {
    if (done) return;
    console.error(`${name}: halo-lin exited (${code}) ${exitMessage}`);
    done = true;
    clearTimeout(deadline);
    cleanUp(1);
  });
  return child;
}
