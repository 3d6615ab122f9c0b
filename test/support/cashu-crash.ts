// The crash test: the wallet runs in child processes (cashu-crash-child.ts) over one folder as its card,
// against the stand-in mint and the test relay here in the parent, and each run is killed with SIGKILL at a
// step the seed picks (a card write, a mint request, a relay publish: before, after, or halfway through an
// append). The next run boots (recovery, then reconcile with the relays) and goes on. After the last kill a
// clean run boots once more, and the sats are counted:
//
//   lightning in  = sats the mint issued for paid mint quotes
//   lightning out = sats it paid out for melts (amount and fee) and the change it could not return
//   held          = sats of every proof the mint says is unspent and whose secret is known to the card
//                   (spendable, reserved by an open operation, or in a token it sent) or to this test
//                   (tokens the child printed, tokens made here for it to receive)
//   lost          = lightning in - lightning out - held     (the mint's own ledger: issued - spent = in - out)
//
// `lost` must be 0: a sat that is neither in the wallet, nor in a token someone holds, nor paid out was lost.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getDecodedToken } from "@cashu/cashu-ts";
import * as esbuild from "esbuild";
import { folderStorage } from "../../hosts/sim/ports/folder-storage.ts";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { Ledger } from "../../lib/wallet/ledger.ts";
import { ownsInputs } from "../../lib/wallet/ledger-state.ts";
import type { CrashOp, CrashPlan } from "./cashu-crash-child.ts";
import { startStandInMint } from "./cashu-mint.ts";
import { openWallet, seededRandom } from "./cashu-wallet.ts";
import { startTestRelay } from "./nostr-relay.ts";
import { mulberry32, type Prng } from "./prng.ts";

export interface CrashResult {
  kills: number;
  runs: number;
  lightningIn: number;
  lightningOut: number;
  held: number;
  lost: number;
  /** Sats the card counts as spendable that the mint says are spent (must be 0 after recovery). */
  phantom: number;
  /** Operations still open after the last recovery (the mint is up: must be 0). */
  pendingAfter: number;
  refused: number;
  ms: number;
}

const CHILD = "build/crash/cashu-crash-child.mjs";

async function bundleChild(): Promise<string> {
  await esbuild.build({
    entryPoints: ["test/support/cashu-crash-child.ts"],
    outfile: CHILD,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // One file: a child starts faster without resolving each package (ws's optional natives stay out).
    external: ["bufferutil", "utf-8-validate"],
    banner: { js: "import { createRequire as haloCreateRequire } from 'node:module'; const require = haloCreateRequire(import.meta.url);" },
    logLevel: "silent",
  });
  return CHILD;
}

function runChild(plan: CrashPlan): Promise<{ killed: boolean; lines: string[]; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, JSON.stringify(plan)], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (c) => (out += c));
    child.stderr.setEncoding("utf8").on("data", (c) => (err += c));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const lines = out.split("\n").filter(Boolean);
      if (signal !== "SIGKILL" && code !== 0)
        reject(new Error(`the wallet child failed (${code}): ${out.slice(-2000)} ${err.slice(-2000)}`));
      else resolve({ killed: signal === "SIGKILL", lines, code });
    });
  });
}

function proofsOf(token: string, keysetId: string): Array<{ secret: string; amount: number }> {
  return getDecodedToken(token, [keysetId]).proofs.map((p) => ({ secret: p.secret, amount: Number(p.amount.toString()) }));
}

function planOps(prng: Prng, tokens: string[]): CrashOp[] {
  const ops: CrashOp[] = [];
  const n = prng.int(2, 5);
  for (let i = 0; i < n; i++) {
    const r = prng.next();
    if (r < 0.3) ops.push({ op: "claim", amount: prng.int(20, 300) });
    else if (r < 0.6) ops.push({ op: "send", amount: prng.int(1, 70) });
    else if (r < 0.8 && tokens.length > 0) ops.push({ op: "receive", token: tokens.shift()! });
    else ops.push({ op: "melt", amount: prng.int(3, 60) });
  }
  return ops;
}

interface Lane {
  dir: string;
  nostrKey: string;
  prng: Prng;
  fresh: string[];
  steps: number;
}

/**
 * Runs until `kills` children were killed, on `lanes` cards side by side (each its own card, Nostr key and
 * seed; one mint and one relay), then counts the sats.
 */
export async function runCrashTest(options: {
  kills: number;
  seed: number;
  lanes?: number;
  onRun?: (line: string) => void;
}): Promise<CrashResult> {
  const started = Date.now();
  await bundleChild();
  const mint = await startStandInMint({ autoPay: true, dleq: false });
  const relay = await startTestRelay();
  const lanes: Lane[] = [];
  for (let i = 0; i < (options.lanes ?? 1); i++) {
    lanes.push({
      dir: mkdtempSync(join(tmpdir(), "halo-cashu-crash-")),
      nostrKey: (0x70 + i).toString(16).repeat(32),
      prng: mulberry32(options.seed * 31 + i),
      fresh: [],
      steps: 40,
    });
  }
  // Tokens made here for the children to receive, and every secret this side of the test holds.
  const giver = await openWallet({ http: nodeHttpClient, storage: memoryStorage(), random: seededRandom(options.seed ^ 0x5eed) }, [
    mint.url,
  ]);
  const held = new Map<string, number>();
  const giveToken = async (lane: Lane): Promise<void> => {
    const q = await giver.mintQuote(lane.prng.int(8, 120), "sat");
    await giver.mintClaim(q.quote);
    const { token } = await giver.sendToken(giver.balance().total);
    for (const p of proofsOf(token, mint.mint.keysetId)) held.set(p.secret, p.amount);
    lane.fresh.push(token);
  };
  let kills = 0;
  let runs = 0;
  let refused = 0;
  const planFor = (lane: Lane, dieAt: number, ops: CrashOp[]): CrashPlan => ({
    dir: lane.dir,
    mint: mint.url,
    relay: relay.url,
    nostrKey: lane.nostrKey,
    seed: options.seed * 100_000 + ++runs,
    dieAt,
    ops,
  });
  const readLines = (lane: Lane, lines: string[]): void => {
    for (const line of lines) {
      if (line.startsWith("TOKEN ")) for (const p of proofsOf(line.slice(6), mint.mint.keysetId)) held.set(p.secret, p.amount);
      if (line.startsWith("REFUSED ")) refused++;
      const done = /^DONE (\d+)$/.exec(line);
      if (done) lane.steps = Math.max(10, Number(done[1]));
    }
  };
  const runLane = async (lane: Lane): Promise<void> => {
    while (kills < options.kills) {
      // Tokens are made one lane at a time: the giver wallet is shared.
      while (lane.fresh.length < 2) await giverTurn(() => giveToken(lane));
      const plan = planFor(lane, lane.prng.int(1, lane.steps + 4), planOps(lane.prng, lane.fresh));
      const r = await runChild(plan);
      readLines(lane, r.lines);
      if (r.killed) kills++;
      options.onRun?.(
        `run ${plan.seed % 100_000}: ${r.killed ? `killed at step ${plan.dieAt}` : "ran to the end"}, ${plan.ops.map((o) => o.op).join(" ")}`,
      );
    }
  };
  let giverQueue: Promise<void> = Promise.resolve();
  const giverTurn = (work: () => Promise<void>): Promise<void> => {
    const run = giverQueue.then(work);
    giverQueue = run.catch(() => undefined);
    return run;
  };
  try {
    await Promise.all(lanes.map(runLane));
    const known = new Map(held);
    let phantom = 0;
    let pendingAfter = 0;
    for (const lane of lanes) {
      const last = await runChild(planFor(lane, 0, []));
      pendingAfter += (JSON.parse(last.lines.find((l) => l.startsWith("BOOT "))!.slice(5)) as { pendingAfter: number }).pendingAfter;
      const ledger = new Ledger(folderStorage(lane.dir, { create: false }));
      ledger.load();
      const s = ledger.state;
      for (const p of s.proofs.values()) {
        known.set(p.secret, p.amount);
        if (mint.mint.stateOf(p.secret) === "SPENT") phantom += p.amount;
      }
      for (const op of s.ops.values()) if (ownsInputs(op)) for (const p of op.inputs) known.set(p.secret, p.amount);
      for (const t of s.sent.values()) for (const p of t.proofs) known.set(p.secret, p.amount);
    }
    let sum = 0;
    for (const [secret, amount] of known) if (mint.mint.stateOf(secret) !== "SPENT") sum += amount;
    const lightningIn = mint.mint.lightningInSats;
    const lightningOut = mint.mint.paidOutSats;
    return {
      kills,
      runs,
      lightningIn,
      lightningOut,
      held: sum,
      lost: lightningIn - lightningOut - sum,
      phantom,
      pendingAfter,
      refused,
      ms: Date.now() - started,
    };
  } finally {
    await mint.close();
    await relay.close();
    for (const lane of lanes) rmSync(lane.dir, { recursive: true, force: true });
  }
}
