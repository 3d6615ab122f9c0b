// Which embedder the core uses. The offline one by default; an OpenAI-compatible
// service when the owner set it up (Settings `memory.embedder` plus a key from
// the secrets reader). Only the owner API writes either: no tool does.
import type { HttpClient, Log, Settings } from "../../ports";
import { DEFAULT_EMBEDDING_DIMS, MAX_EMBEDDING_DIMS } from "../bounds";
import type { Embedder } from "./embedder";
import { hashingEmbedder } from "./hashing";
import { openAiEmbedder } from "./openai";

/** Reads one secret by name; undefined when it is not set. Never logs it. */
export type SecretReader = (name: string) => string | undefined;

/** Settings key of the owner's embedder choice (no tool writes it). */
export const EMBEDDER_SETTINGS_KEY = "memory.embedder";
/** The secret that holds the embeddings service's API key. */
export const EMBEDDER_SECRET_NAME = "openai";

export interface EmbedderSettings {
  provider: "offline" | "openai";
  dims: number;
  /** openai: the model name and the base URL (e.g. https://api.openai.com/v1). */
  model?: string;
  baseUrl?: string;
}

const MODEL_PATTERN = /^[A-Za-z0-9._:/-]{1,100}$/;
const BASE_URL_PATTERN = /^https?:\/\/[^\s]{1,300}$/;

/** The stored embedder settings, or the offline default when absent or unreadable. */
export function readEmbedderSettings(settings: Settings, log: Log): EmbedderSettings {
  const fallback: EmbedderSettings = { provider: "offline", dims: DEFAULT_EMBEDDING_DIMS };
  const text = settings.get(EMBEDDER_SETTINGS_KEY);
  if (text === undefined) return fallback;
  let raw: { [key: string]: unknown };
  try {
    raw = JSON.parse(text);
  } catch {
    log.warn(`memory: ${EMBEDDER_SETTINGS_KEY} is not JSON; using the offline embedder`);
    return fallback;
  }
  const dims = raw.dims === undefined ? DEFAULT_EMBEDDING_DIMS : raw.dims;
  const dimsOk = typeof dims === "number" && Number.isInteger(dims) && dims >= 8 && dims <= MAX_EMBEDDING_DIMS;
  if (raw.provider === "offline" && dimsOk) return { provider: "offline", dims: dims as number };
  if (
    raw.provider === "openai" &&
    dimsOk &&
    typeof raw.model === "string" &&
    MODEL_PATTERN.test(raw.model) &&
    typeof raw.base_url === "string" &&
    BASE_URL_PATTERN.test(raw.base_url)
  ) {
    return { provider: "openai", dims: dims as number, model: raw.model, baseUrl: raw.base_url };
  }
  log.warn(`memory: ${EMBEDDER_SETTINGS_KEY} is not a valid embedder setting; using the offline embedder`);
  return fallback;
}

/** Builds the embedder the settings ask for; without a key it falls back to the offline one (and says so). */
export function selectEmbedder(settings: Settings, getSecret: SecretReader, http: HttpClient, log: Log): Embedder {
  const chosen = readEmbedderSettings(settings, log);
  if (chosen.provider === "openai") {
    const apiKey = getSecret(EMBEDDER_SECRET_NAME);
    if (apiKey) return openAiEmbedder({ http, baseUrl: chosen.baseUrl!, model: chosen.model!, dims: chosen.dims, apiKey });
    log.warn(`memory: the openai embedder needs the secret ${EMBEDDER_SECRET_NAME}; using the offline embedder`);
    return hashingEmbedder(DEFAULT_EMBEDDING_DIMS);
  }
  return hashingEmbedder(chosen.dims);
}
