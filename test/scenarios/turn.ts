// Scripted orchestrator turns without a network: the real core (registry,
// memory, device validator, actuator) with a scripted in-process router in
// place of the providers. No Node imports: the XS run and the benchmark use it.
// runTurnScenario returns a transcript; the Node and XS runs must match line for line.
import { tsCurve } from "../../lib/nostr/curve/ts-curve.ts";
import { bufferedAudioHttp } from "../../lib/voice/audio-http.ts";
import { TEST_HOST } from "../support/halo.ts";
import { NO_BOARD, STILL_TIMERS } from "../support/portable-ports.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import { EpisodicStore } from "../../lib/memory/episodic/episodic.ts";
import { tsKernels } from "../../lib/memory/store/kernel-ts.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import type { Digest, HttpClient, Led, LedPattern, Ports } from "../../lib/ports.ts";
import { standInDigest } from "../support/digests.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { turnEngine } from "../../lib/app/subsystems/turn.ts";
import type { TurnEngine, TurnResult } from "../../lib/turn/engine.ts";
import type { TurnRouter } from "../../lib/turn/loop.ts";
import type { RouteRequest, RoutedResponse } from "../../lib/providers/router";
import type { ChatResponse } from "../../lib/providers/types";
import { djb2Bytes, djb2Hex } from "../../lib/util/hash.ts";

/** Not SHA-256: a deterministic stand-in with no Node import (the vector file's checksum). */
const checksumDigest: Digest = standInDigest((data) => {
  const out = new Uint8Array(32);
  let h = djb2Bytes(data);
  for (let i = 0; i < 32; i++) {
    h = Math.imul(h ^ (h >>> 13), 0x5bd1e995) >>> 0;
    out[i] = h & 0xff;
  }
  return out;
});

function scenarioLed(): Led {
  let current: LedPattern = { mode: "off", r: 0, g: 0, b: 0, brightness: 0 };
  return {
    pixels: 24,
    show: (p) => {
      current = { ...p };
    },
    current: () => current,
    check: () => undefined,
  };
}

export type Step = (req: RouteRequest) => Partial<ChatResponse>;

/** A router that answers from a script, in process; it records what it was asked. */
export class ScriptedRouter implements TurnRouter {
  readonly seen: RouteRequest[] = [];
  private steps: Step[] = [];
  private counter = 0;

  script(...steps: Step[]): void {
    this.steps.push(...steps);
  }

  available(): Array<"openai"> {
    return ["openai"];
  }

  provider(): { continuation: "history" } {
    return { continuation: "history" };
  }

  complete(req: RouteRequest): Promise<RoutedResponse> {
    this.seen.push({ ...req, messages: req.messages.slice() });
    const step = this.steps.shift();
    const base: ChatResponse = {
      text: "",
      toolCalls: [],
      usage: { inputTokens: 100, outputTokens: 20 },
      finish: "stop",
      responseId: `r${++this.counter}`,
    };
    const res = { ...base, ...(step ? step(req) : { text: "no script", jsonError: "the answer is not valid JSON" }) };
    return Promise.resolve({ ...res, provider: "openai", model: "scripted", attempts: [] });
  }
}

/** A step asking for tool calls: [registry name, arguments]. */
export function calls(...list: Array<[string, { [key: string]: unknown }]>): Step {
  return () => ({ finish: "tool_calls", toolCalls: list.map(([name, args], i) => ({ id: `call_${i}`, name, arguments: args })) });
}

/** A step giving a final answer (a JSON value, or text that is not JSON). */
export function final(value: unknown): Step {
  return () =>
    typeof value === "string" ? { text: value, jsonError: "the answer is not valid JSON" } : { text: JSON.stringify(value), json: value };
}

export function contractAnswer(fields: { [key: string]: unknown }): { [key: string]: unknown } {
  return {
    reply: "ok",
    memory: "",
    ask: "",
    mem_write: null,
    mem_query: null,
    session_ops: null,
    device: null,
    scratchpad: null,
    ...fields,
  };
}

const NULL_ACTIONS = { led: null, lights: null, config: null, orch_model: null, reboot: null, tts: null };

export interface TurnRig {
  core: Core;
  engine: TurnEngine;
  router: ScriptedRouter;
  episodic?: EpisodicStore;
}

/** The real core over memory ports with a fixed clock, and a TurnEngine on a scripted router (recording its episodic history when asked). */
const NO_NETWORK: HttpClient = { request: () => Promise.reject(new Error("no network in this scenario")) };

export function scenarioTurnRig(now = Date.UTC(2026, 4, 4, 10), options: { episodic?: boolean } = {}): TurnRig {
  const ports: Ports = {
    clock: { now: () => now },
    curve: tsCurve,
    random: { fill: (bytes) => bytes.fill(7) },
    digest: checksumDigest,
    log: { info: () => undefined, warn: () => undefined },
    settings: memorySettings(),
    http: NO_NETWORK,
    audioHttp: bufferedAudioHttp(NO_NETWORK),
    timers: STILL_TIMERS,
    resolver: undefined,
    storage: memoryStorage(),
    kernels: tsKernels,
    vectorArena: simVectorArena(),
    ...NO_BOARD,
    led: scenarioLed(),
  };
  const core = buildCore(ports, TEST_HOST);
  const router = new ScriptedRouter();
  const episodic = options.episodic ? new EpisodicStore(ports.storage!, ports.clock, ports.log) : undefined;
  const engine = turnEngine({ ...core, ports, router, episodic });
  return { core, engine, router, episodic };
}

/** A turn with two tool calls and a final answer that uses most of the contract: the benchmark's unit of work. */
export function scriptBenchTurn(router: ScriptedRouter): void {
  router.script(
    calls(["docs.search", { query: "memory" }], ["results.list", {}]),
    final(
      contractAnswer({
        reply: "Here is what I found.",
        memory: "Looked up the docs.",
        mem_query: [{ query: "tea", n_results: 2 }],
        device: [{ ...NULL_ACTIONS, led: { mode: "pulse", r: 0, g: 80, b: 255, brightness: null } }],
      }),
    ),
  );
}

function resultLine(r: TurnResult): string {
  const { provider: _p, model: _m, ...rest } = r;
  return JSON.stringify(rest);
}

function promptLine(req: RouteRequest): string {
  const sections = (req.system.match(/^##? [A-Z &]+$/gm) ?? []).join("|");
  const roles = req.messages.map((m) => m.role[0]).join("");
  return `prompt ${djb2Hex(req.system)} ${req.system.length} ${sections} ${roles} tools=${req.tools?.length ?? 0}`;
}

export async function runTurnScenario(): Promise<string[]> {
  const out: string[] = [];
  const { core, engine, router, episodic } = scenarioTurnRig(undefined, { episodic: true });
  const owner = makePrincipal("owner", "admin", "turn");
  const guest = makePrincipal("visitor", "guest", "turn");
  const turn = async (label: string, who: typeof owner, text: string): Promise<void> => {
    const before = router.seen.length;
    const r = await engine.runTurn(who, { text, channel: "scenario" });
    for (const req of router.seen.slice(before)) out.push(`${label} ${promptLine(req)}`);
    out.push(`${label} ${resultLine(r)}`);
  };

  router.script(
    calls(["docs.search", { query: "device actions" }], ["memory.search", { query: "tea" }]),
    final(
      contractAnswer({
        reply: "Noted, and the ring is blue.",
        memory: "Owner likes green tea.",
        mem_write: [{ content: "The owner likes green tea.", importance: 0.8, permanent: null, ttl: null }],
        mem_query: [{ query: "green tea", n_results: null }],
        device: [
          { ...NULL_ACTIONS, led: { mode: "solid", r: 0, g: 0, b: 255, brightness: 40 } },
          { ...NULL_ACTIONS, config: [{ key: "oaiKey", value: "sk-INJECTED" }] },
        ],
        scratchpad: { active: "remember tea", short: ["buy tea"], mid: null, long: null },
      }),
    ),
  );
  await turn("t1", owner, "I like green tea. Make the ring blue.");
  out.push(`t1 led ${JSON.stringify(core.ports.led!.current())}`);

  router.script(final(contractAnswer({ reply: "Green tea." })));
  await turn("t2", owner, "What tea do I like?");
  const t2 = router.seen[router.seen.length - 1];
  out.push(`t2 recall ${/## RECALLED MEMORIES\n(.*)/.exec(t2.system)?.[1] ?? "none"}`);
  out.push(`t2 results ${t2.system.indexOf("## RESULTS OF YOUR LAST MEMORY QUERIES") >= 0}`);

  router.script(final("plain prose"), final({ reply: "fixed", memory: "" }));
  await turn("t3", owner, "Say something.");

  core.config.apply([["toolLoopRounds", 1]], "owner");
  router.script(calls(["results.list", {}]), calls(["results.list", {}]), final(contractAnswer({ reply: "capped" })));
  await turn("t4", owner, "Loop.");

  router.script(
    calls(["tenant.list", {}], ["nope.tool", {}]),
    final(contractAnswer({ reply: "guest done", device: [{ ...NULL_ACTIONS, reboot: true }] })),
  );
  await turn("t5", guest, "Who else is here?");

  scriptBenchTurn(router);
  await turn("t6", owner, "Bench turn.");

  // The episodic history the turns left, oldest first.
  const rows = episodic!.query({ namespaces: ["owner", "visitor"] }, 100).rows.reverse();
  for (const row of rows)
    out.push(
      `history ${row.ns} ${row.session} ${row.role} ${row.kind} ${row.text.length} ${djb2Hex(row.text)} ${JSON.stringify(row.text.slice(0, 60))}`,
    );
  return out;
}
