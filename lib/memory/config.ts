import { toJson } from "../util/json";
// MemConfig: the device-global knobs of recall and forgetting, each with a
// range, validated on update and persisted in Settings.
import type { Log, Settings } from "../ports";
import { MAX_VECTORS_DEFAULT, MAX_VECTORS_LIMIT, MAX_VECTORS_MIN, SEARCH_MAX_RESULTS } from "./bounds";

export interface MemConfig {
  retrieval_count: number;
  relevance_threshold: number;
  decay_factor: number;
  max_context_bytes: number;
  max_vectors: number;
  recency_half_life_hours: number;
  mmr_lambda: number;
  lexical_weight: number;
}

export type KnobName = keyof MemConfig;

export interface Knob {
  name: KnobName;
  min: number;
  max: number;
  integer: boolean;
  default: number;
  help: string;
}

export const MEM_CONFIG_KNOBS: readonly Knob[] = [
  { name: "retrieval_count", min: 1, max: SEARCH_MAX_RESULTS, integer: true, default: 5, help: "results a search returns by default" },
  { name: "relevance_threshold", min: 0, max: 1, integer: false, default: 0.3, help: "hits under this similarity are dropped" },
  { name: "decay_factor", min: 0.5, max: 1, integer: false, default: 0.98, help: "importance kept per day (1 = no decay)" },
  { name: "max_context_bytes", min: 256, max: 8192, integer: true, default: 2048, help: "cap on a search's formatted output" },
  {
    name: "max_vectors",
    min: MAX_VECTORS_MIN,
    max: MAX_VECTORS_LIMIT,
    integer: true,
    default: MAX_VECTORS_DEFAULT,
    help: "capacity of the live store",
  },
  {
    name: "recency_half_life_hours",
    min: 24,
    max: 2160,
    integer: true,
    default: 168,
    help: "age at which recency is halfway to its floor",
  },
  {
    name: "mmr_lambda",
    min: 0,
    max: 1,
    integer: false,
    default: 0.7,
    help: "relevance vs. diversity among near-tied results (1 = relevance only)",
  },
  {
    name: "lexical_weight",
    min: 0,
    max: 1,
    integer: false,
    default: 0.6,
    help: "how far a search's word matches lift a result toward full relevance (0 = embeddings only)",
  },
];

export const MEM_CONFIG_SETTINGS_KEY = "memory.config";

export function defaultMemConfig(): MemConfig {
  const config = {} as MemConfig;
  for (const k of MEM_CONFIG_KNOBS) config[k.name] = k.default;
  return config;
}

/** Why `value` is not a valid setting of `knob`, or undefined when it is. */
export function knobError(knob: Knob, value: unknown): string | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return `${knob.name} must be a number`;
  if (knob.integer && !Number.isInteger(value)) return `${knob.name} must be a whole number`;
  if (value < knob.min || value > knob.max) return `${knob.name} must be between ${knob.min} and ${knob.max}`;
  return undefined;
}

/**
 * The persisted config; an unreadable or out-of-range stored value falls back to its default (logged).
 * max_vectors is clamped to `vectorLimit`, what this host's vector arena fits (logged; the stored value stays).
 */
export function loadMemConfig(settings: Settings, log: Log, vectorLimit: number): MemConfig {
  const config = readStored(settings, log);
  if (config.max_vectors > vectorLimit) {
    log.warn(`memory: max_vectors ${config.max_vectors} is more than this device's vector arena fits; using ${vectorLimit}`);
    config.max_vectors = vectorLimit;
  }
  return config;
}

function readStored(settings: Settings, log: Log): MemConfig {
  const config = defaultMemConfig();
  const text = settings.get(MEM_CONFIG_SETTINGS_KEY);
  if (text === undefined) return config;
  let stored: { [key: string]: unknown };
  try {
    stored = JSON.parse(text);
  } catch {
    log.warn(`memory: ${MEM_CONFIG_SETTINGS_KEY} is not JSON; using the defaults`);
    return config;
  }
  for (const k of MEM_CONFIG_KNOBS) {
    if (!(k.name in stored)) continue;
    if (knobError(k, stored[k.name])) log.warn(`memory: stored ${k.name} is out of range; using ${k.default}`);
    else config[k.name] = stored[k.name] as number;
  }
  return config;
}

export function saveMemConfig(settings: Settings, config: MemConfig): void {
  settings.set(MEM_CONFIG_SETTINGS_KEY, toJson(config));
}
