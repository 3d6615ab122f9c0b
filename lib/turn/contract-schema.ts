// The JSON schema of a turn's answer, as given to the providers. Strict-mode
// shape (OpenAI/Mistral strict, the strictest common subset): every property is
// listed in `required`, optional ones are nullable, every object has
// `additionalProperties: false`, and there are no length or count keywords —
// the bounds are stated in descriptions and enforced by the parser (contract.ts).
import { ACTION_KINDS, LED_MODES, MAX_DEVICE_ACTIONS, TTS_MAX_CHARS } from "../device/actions";
import { PROVIDERS } from "../device/knobs";
import { TTL_CLASSES } from "../memory/forgetting/ttl";
import type { AnswerSchema, JsonSchema } from "../providers/types";
import {
  ASK_MAX_BYTES,
  MEM_QUERY_MAX_ITEMS,
  MEM_WRITE_MAX_ITEMS,
  MEMORY_NOTE_MAX_BYTES,
  REPLY_MAX_BYTES,
  SESSION_ATTACH_MAX,
  SESSION_OPS_MAX_ITEMS,
} from "./bounds";

/** The answer's name on the wire (OpenAI format name, Anthropic's forced tool, Mistral's json_schema name). */
export const TURN_ANSWER_NAME = "turn_answer";

function object(properties: { [name: string]: JsonSchema }, description?: string, nullable = false): JsonSchema {
  const schema: JsonSchema = {
    type: nullable ? ["object", "null"] : "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
  if (description) schema.description = description;
  return schema;
}

function text(description: string, nullable = false): JsonSchema {
  return { type: nullable ? ["string", "null"] : "string", description };
}

function list(items: JsonSchema, description: string): JsonSchema {
  return { type: ["array", "null"], items, description };
}

function choice(values: readonly string[], description: string): JsonSchema {
  return { type: ["string", "null"], enum: [...values, null], description };
}

const INT_OR_NULL: JsonSchema = { type: ["integer", "null"] };

const MEM_WRITE_ITEM = object({
  content: text("the fact, one self-contained sentence"),
  importance: { type: ["number", "null"], description: "0-1; null for 0.5" },
  permanent: { type: ["boolean", "null"], description: "never expires; null for false" },
  ttl: choice(TTL_CLASSES, "how long it lives unless recalled; null for months"),
});

const MEM_QUERY_ITEM = object({
  query: text("what to look up in your long-term memory"),
  n_results: { ...INT_OR_NULL, description: "1-20; null for the default" },
});

const SESSION_OP_ITEM = object({
  op: { type: "string", enum: ["spawn", "terminate"] },
  task: text("spawn: what the sub-agent should do", true),
  provider: choice(PROVIDERS, "spawn: the sub-agent's provider; null for the owner's priority"),
  model: text("spawn: a model name; null for the provider's default", true),
  skill: text("spawn: an approved skill id injected into its brief", true),
  name: text("spawn: a short display name (also its saved document's name)", true),
  project: text("spawn: a run tag; its full result is saved under this project", true),
  attach: list({ type: "string" }, `spawn: up to ${SESSION_ATTACH_MAX} "<project>/<name>" documents spliced into its brief`),
  id: text("terminate: the sub-agent's id", true),
});

const LED = object(
  {
    mode: { type: "string", enum: LED_MODES.slice() },
    r: INT_OR_NULL,
    g: INT_OR_NULL,
    b: INT_OR_NULL,
    brightness: { ...INT_OR_NULL, description: "0-255; null for the ledBrightness knob" },
  },
  "ring pattern; colour channels 0-255",
  true,
);

const DEVICE_ITEM = object(
  {
    led: LED,
    lights: object({ value: { type: "string", enum: ["off", "full"] } }, "ring on or off", true),
    config: list(
      object({ key: { type: "string" }, value: { anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }] } }),
      "knob changes, at most 8 (the knobs are listed in docs device-actions)",
    ),
    orch_model: object(
      { provider: { type: "string", enum: PROVIDERS.slice() }, model: { type: "string" } },
      "switch your own provider and model from the next turn",
      true,
    ),
    reboot: { type: ["boolean", "null"], description: "true restarts the device after this turn" },
    tts: object({ text: text(`at most ${TTS_MAX_CHARS} characters`) }, "speak text on the device speaker", true),
  },
  `exactly one of ${ACTION_KINDS.join(", ")} is non-null`,
);

const SCRATCHPAD = object(
  {
    active: text("the active task; null leaves it, empty clears it", true),
    short: list({ type: "string" }, "short-term goals (replaces the tier); null leaves it"),
    mid: list({ type: "string" }, "mid-term goals; null leaves it"),
    long: list({ type: "string" }, "long-term goals; null leaves it"),
  },
  "your working scratchpad (admin conversations only); null leaves it unchanged",
  true,
);

/** The schema of one turn's answer. */
export const TURN_ANSWER_SCHEMA: JsonSchema = object({
  reply: text(`what you say to the person (at most ${REPLY_MAX_BYTES} bytes)`),
  memory: text(`a short note to yourself, shown in your next turn (at most ${MEMORY_NOTE_MAX_BYTES} bytes)`),
  ask: text(`a question the person must answer before you can go on, or "" (at most ${ASK_MAX_BYTES} bytes)`),
  mem_write: list(MEM_WRITE_ITEM, `facts to store in long-term memory after the reply (at most ${MEM_WRITE_MAX_ITEMS})`),
  mem_query: list(MEM_QUERY_ITEM, `memory searches whose results you see in the next turn (at most ${MEM_QUERY_MAX_ITEMS})`),
  session_ops: list(SESSION_OP_ITEM, `sub-agents to spawn or terminate (at most ${SESSION_OPS_MAX_ITEMS})`),
  device: list(DEVICE_ITEM, `device actions run at the end of the turn (at most ${MAX_DEVICE_ACTIONS})`),
  scratchpad: SCRATCHPAD,
});

/** What the router sends as the answer schema. */
export const TURN_ANSWER: AnswerSchema = {
  name: TURN_ANSWER_NAME,
  description: "Your answer for this turn: one JSON object.",
  schema: TURN_ANSWER_SCHEMA,
  strict: true,
};
