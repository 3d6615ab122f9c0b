// Rigs for the turn tests: the real core over memory ports and a fake clock,
// its providers pointed at local servers that speak their wire formats.
import { nodeTimers } from "../../hosts/sim/ports/timers.ts";
import { makePrincipal, type Principal, type Role } from "../../lib/registry/principal.ts";
import type { ProviderId } from "../../lib/providers/types";
import { memoryCore, type CoreRig } from "../support/memory.ts";
import { ProviderServer, recordingSleep, type SeenRequest } from "../support/provider-server.ts";
import { anthropicMessage, mistralCompletion, openAiCall, openAiResponse, openAiText } from "../scenarios/provider-fixtures.ts";
import { contractAnswer } from "../scenarios/turn.ts";

export interface TurnRig extends CoreRig {
  servers: { [id in ProviderId]: ProviderServer };
  sleeps: number[];
  close(): Promise<void>;
}

/** The core with every provider on a local server; `keys` says which providers have a key (default: OpenAI only). */
export async function turnRig(options: { keys?: ProviderId[]; storage?: boolean } = {}): Promise<TurnRig> {
  const servers = { openai: await ProviderServer.start(), anthropic: await ProviderServer.start(), mistral: await ProviderServer.start() };
  const { sleeps, sleep } = recordingSleep();
  const baseUrls = { openai: servers.openai.url, anthropic: servers.anthropic.url, mistral: servers.mistral.url };
  const rig = memoryCore({ storage: options.storage, core: { baseUrls }, ports: { timers: { every: nodeTimers.every, sleep } } });
  for (const id of options.keys ?? ["openai"]) rig.core.secrets.set(id, `sk-test-${id}-KEYVALUE`);
  return {
    ...rig,
    servers,
    sleeps,
    async close() {
      await Promise.all(Object.values(servers).map((s) => s.close()));
    },
  };
}

/** A principal for turns (the engine sets via "turn" itself). */
export function person(role: Role = "admin", ns: string = role === "admin" ? "owner" : role): Principal {
  return makePrincipal(ns, role, "turn");
}

/** A full contract answer: the three strings and every array null unless given. */
export const answer = (fields: { [key: string]: unknown } = {}): { [key: string]: unknown } => contractAnswer(fields);

let responseCounter = 0;

/** An OpenAI Responses reply carrying a final answer (JSON text). */
export function openAiAnswer(value: unknown, usage: { input?: number; output?: number } = {}): { body: object } {
  return {
    body: openAiResponse([openAiText(typeof value === "string" ? value : JSON.stringify(value))], {
      id: `resp_${++responseCounter}`,
      ...usage,
    }),
  };
}

/** An OpenAI Responses reply asking for tool calls: [wire name, arguments JSON text]. */
export function openAiTools(...calls: Array<[string, string]>): { body: object } {
  return {
    body: openAiResponse(
      calls.map(([name, args], i) => openAiCall(`call_${++responseCounter}_${i}`, name, args)),
      { id: `resp_${++responseCounter}` },
    ),
  };
}

/** An Anthropic Messages reply whose forced answer tool carries `value`. */
export function anthropicAnswer(value: unknown): { body: object } {
  return {
    body: anthropicMessage([{ type: "tool_use", id: `toolu_${++responseCounter}`, name: "turn_answer", input: value }], {
      stop: "tool_use",
    }),
  };
}

/** A Mistral chat completion with `value` as its JSON content. */
export function mistralAnswer(value: unknown): { body: object } {
  return { body: mistralCompletion({ content: JSON.stringify(value) }) };
}

/** The system prompt and the input of a request an OpenAI server saw. */
export function openAiPrompt(seen: SeenRequest): { instructions: string; input: any[] } {
  return { instructions: seen.json.instructions, input: seen.json.input };
}
