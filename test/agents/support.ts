// Rigs for the sub-agent and routine tests: the real core over memory ports
// with a fake clock, its ProviderRouter pointed at three local provider servers.
import type { ServerResponse } from "node:http";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { memoryStorage, type MemoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { fakeClock, memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import type { ScheduledTurnOutcome, ScheduledTurnRequest } from "../../lib/agents/scheduler.ts";
import { nodeTimers } from "../../hosts/sim/ports/timers.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import type { Settings } from "../../lib/ports.ts";
import { makePrincipal, type Principal } from "../../lib/registry/principal.ts";
import type { DispatchResult } from "../../lib/registry/types.ts";
import type { ProviderId } from "../../lib/providers/types.ts";
import { anthropicMessage, mistralCompletion, openAiResponse, openAiText } from "../scenarios/provider-fixtures.ts";
import { ProviderServer, recordingSleep, type ScriptedReply } from "../support/provider-server.ts";

export const MINUTE = 60 * 1000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const KEYS: Record<ProviderId, string> = {
  openai: "sk-openai-AGENTS-1234",
  anthropic: "sk-ant-AGENTS-1234",
  mistral: "mistral-AGENTS-1234",
};

export const owner: Principal = makePrincipal("owner", "admin", "turn");
export const alice: Principal = makePrincipal("alice", "user", "turn");
export const bob: Principal = makePrincipal("bob", "user", "mcp");

export interface AgentRig {
  core: Core;
  clock: ReturnType<typeof fakeClock>;
  storage: MemoryStorage;
  settings: Settings;
  log: ReturnType<typeof memoryLog>;
  servers: Record<ProviderId, ProviderServer>;
  call(name: string, args: unknown, p?: Principal): Promise<DispatchResult>;
  /** A new core over the same flash, card and clock: what a restart sees. */
  reboot(): Core;
  close(): Promise<void>;
}

/** The core with keys for `keyed` providers, tried in that order. */
export async function agentRig(options: { keyed?: ProviderId[]; start?: number; settings?: Settings } = {}): Promise<AgentRig> {
  const keyed = options.keyed ?? ["openai", "anthropic", "mistral"];
  const servers = {} as Record<ProviderId, ProviderServer>;
  for (const id of ["openai", "anthropic", "mistral"] as const) servers[id] = await ProviderServer.start();
  const clock = fakeClock(options.start ?? Date.UTC(2026, 0, 5, 9, 0));
  const storage = memoryStorage();
  const settings = options.settings ?? memorySettings();
  const log = memoryLog();
  const build = (): Core => {
    const timers = { every: nodeTimers.every, sleep: recordingSleep().sleep };
    const core = buildCore(memoryPorts({ clock, log, storage, settings, timers }), {
      baseUrls: { openai: servers.openai.url, anthropic: servers.anthropic.url, mistral: servers.mistral.url },
      otaBuild: undefined,
      walletKit: undefined,
    });
    for (const id of keyed) core.secrets.set(id, KEYS[id]);
    if (keyed.length) core.priority.set(keyed);
    return core;
  };
  const rig: AgentRig = {
    core: build(),
    clock,
    storage,
    settings,
    log,
    servers,
    call: (name, args, p = owner) => rig.core.registry.dispatch(name, args, p),
    reboot: () => (rig.core = build()),
    // Closing the servers first ends any request still held open, so nothing is left running.
    close: async () => {
      for (const s of Object.values(servers)) await s.close();
      await rig.core.agents.settled();
    },
  };
  return rig;
}

/** A provider's text answer in its wire format. */
export function textReply(provider: ProviderId, text: string, id?: string): ScriptedReply {
  if (provider === "openai") return { body: openAiResponse([openAiText(text)], { id }) };
  if (provider === "anthropic") return { body: anthropicMessage([{ type: "text", text }], { id }) };
  return { body: mistralCompletion({ content: text }) };
}

/** Replies held open until release(): keeps sub-agents "running" without any timer. */
export function heldReplies(): { hold(reply: ScriptedReply): ScriptedReply; held(): number; release(): void } {
  const waiting: Array<[ServerResponse, ScriptedReply]> = [];
  return {
    hold: (reply) => ({ raw: (res) => void waiting.push([res, reply]) }),
    held: () => waiting.length,
    release() {
      for (const [res, reply] of waiting.splice(0)) {
        res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
        res.end(JSON.stringify(reply.body));
      }
    },
  };
}

/** Waits (on I/O, not a clock) until `condition` holds; fails after `tries` turns of the event loop. */
export async function until(condition: () => boolean, tries = 400): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (condition()) return;
    await new Promise((ok) => setTimeout(ok, 5));
  }
  throw new Error("condition never held");
}

/** The sub-agent id in a spawn result. */
export function spawnedId(r: DispatchResult): string {
  const m = /sub-agent (sa[0-9a-f]{8})/.exec(r.text);
  if (!m) throw new Error(`no sub-agent id in: ${r.text}`);
  return m[1];
}

/** A scripted scheduled-turn runner that records every call. */
export function scriptedRunner(outcomes: Array<ScheduledTurnOutcome | Error> = []): {
  calls: Array<{ principal: Principal; request: ScheduledTurnRequest }>;
  outcomes: Array<ScheduledTurnOutcome | Error>;
  runScheduledTurn(principal: Principal, request: ScheduledTurnRequest): Promise<ScheduledTurnOutcome>;
} {
  const calls: Array<{ principal: Principal; request: ScheduledTurnRequest }> = [];
  return {
    calls,
    outcomes,
    async runScheduledTurn(principal, request) {
      calls.push({ principal, request });
      const next = outcomes.shift() ?? { ok: true };
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

export { switchableScheduler } from "../support/scheduler.ts";
