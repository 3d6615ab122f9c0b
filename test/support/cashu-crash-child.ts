// The wallet in a child process for the crash test (test/support/cashu-crash.ts): a folder as the card, the
// stand-in mint and the test relay of the parent, and a step counter on every card write, mint request and
// relay publish, before and after each. At the step the parent chose the child kills itself with SIGKILL
// (kill -9): before a write, after it, or halfway through an append (a torn record, as a power cut leaves);
// before a request reaches the mint or after the mint answered; before a relay acknowledged or after.
// Prints `TOKEN <token>` for each token sent, `BOOT <json>` after recovery and `DONE <steps>` at the end.
// The TypeScript curve: this child is bundled into one file, where the addon's build script cannot find its sources.
import { tsCurve } from "../../lib/nostr/curve/ts-curve.ts";
import { VerifyQueue } from "../../lib/nostr/verify-queue.ts";
import { folderStorage } from "../../hosts/sim/ports/folder-storage.ts";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { systemClock } from "../../hosts/sim/ports/node-basics.ts";
import { wsClient } from "../../hosts/sim/ports/websocket.ts";
import { portableSha256 } from "../../lib/nostr/event.ts";
import { NOSTR_KEY_SETTING, NostrIdentity } from "../../lib/nostr/identity.ts";
import { RelayPool } from "../../lib/nostr/pool.ts";
import type { HttpClient, Random, Storage } from "../../lib/ports.ts";
import { createCashuKit } from "../../lib/wallet/cashu/kit.ts";
import { CashuWallet } from "../../lib/wallet/wallet.ts";
import { seededRandom, walletNostr } from "./cashu-wallet.ts";

export type CrashOp =
  { op: "claim"; amount: number } | { op: "send"; amount: number } | { op: "receive"; token: string } | { op: "melt"; amount: number };

export interface CrashPlan {
  dir: string;
  mint: string;
  relay: string;
  /** The device's Nostr key (hex), the same in every run. */
  nostrKey: string;
  seed: number;
  /** Step at which to die; 0 or less: never. */
  dieAt: number;
  ops: CrashOp[];
}

const plan = JSON.parse(process.argv[2]) as CrashPlan;
let step = 0;

function die(): never {
  process.kill(process.pid, "SIGKILL");
  throw new Error("unreachable");
}

/** Counts a step; dies when it is the chosen one. */
function tick(): void {
  if (++step === plan.dieAt) die();
}

function countedStorage(inner: Storage): Storage {
  return {
    ...inner,
    append(path, data) {
      tick();
      if (++step === plan.dieAt) {
        // A torn append: half the record reaches the card, then the power goes.
        inner.append(path, data.subarray(0, data.length >> 1));
        die();
      }
      inner.append(path, data);
      tick();
    },
    writeAtomic(path, data) {
      tick();
      inner.writeAtomic(path, data);
      tick();
    },
  };
}

function countedHttp(inner: HttpClient): HttpClient {
  return {
    async request(req) {
      tick();
      const res = await inner.request(req);
      tick();
      return res;
    },
  };
}

async function main(): Promise<void> {
  const random: Random = seededRandom(plan.seed);
  const settings = memorySettings();
  settings.set(NOSTR_KEY_SETTING, plan.nostrKey);
  const log = { info: () => undefined, warn: () => undefined };
  const pool = new RelayPool({
    ws: wsClient,
    verifier: new VerifyQueue({
      curve: tsCurve,
      digest: portableSha256,
      log,
      now: () => Date.now(),
      sleep: (ms) => new Promise((ok) => setTimeout(ok, ms).unref()),
      isPreferred: () => true,
    }),
    log,
    now: () => Date.now(),
    sleep: (ms) => new Promise((ok) => setTimeout(ok, ms).unref()),
    backoffMinMs: 50,
  });
  pool.setRelays([plan.relay]);
  for (let i = 0; i < 100 && pool.connectedCount() === 0; i++) await new Promise((ok) => setTimeout(ok, 10));
  const nostr = walletNostr(new NostrIdentity(settings, random, log, tsCurve, portableSha256), pool, 500);
  const publish = nostr.relays.publish;
  nostr.relays.publish = async (event) => {
    tick();
    const ok = await publish(event);
    tick();
    return ok;
  };
  const wallet = new CashuWallet({
    kit: createCashuKit({ http: countedHttp(nodeHttpClient), random, timeoutMs: 5000 }),
    storage: countedStorage(folderStorage(plan.dir)),
    clock: systemClock,
    random,
    log,
    nostr,
  });
  wallet.open();
  if (wallet.config().allowed.length === 0) {
    await wallet.setAllowedMints([plan.mint]);
    await wallet.setMints("both", [plan.mint], [plan.mint]);
  }
  const boot = await wallet.boot();
  console.log(`BOOT ${JSON.stringify({ ...boot.recovery, pendingAfter: wallet.pendingOps().length })}`);
  for (const op of plan.ops) {
    try {
      if (op.op === "claim") {
        const q = await wallet.mintQuote(op.amount, "sat");
        await wallet.mintClaim(q.quote);
      } else if (op.op === "send") {
        console.log(`TOKEN ${(await wallet.sendToken(op.amount)).token}`);
      } else if (op.op === "receive") {
        await wallet.receiveToken(op.token);
      } else {
        const bytes = new Uint8Array(12);
        random.fill(bytes);
        const letters = [...bytes].map((b) => "qpzry9x8gf2tvdw0"[b & 15]).join("");
        const q = await wallet.meltQuote(`lnbc${op.amount * 10}n1p${letters}`);
        await wallet.meltPay(q.quote);
      }
    } catch (e) {
      console.log(`REFUSED ${op.op} ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  pool.stop();
  console.log(`DONE ${step}`);
  process.exit(0);
}

main().catch((e) => {
  console.log(`FAILED ${e instanceof Error ? e.stack : String(e)}`);
  process.exit(1);
});
