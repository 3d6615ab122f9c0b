// The owner's model per provider (used whenever that provider serves a turn or
// a sub-agent, unless the turn's own orch_model names another) and the list of
// models a provider offers, read from its /models endpoint with the owner's key.
// Settings keys `models.<provider>`; only the owner API writes them.
import type { HttpClient, HttpClientResponse, Log, Settings } from "../ports";
import { decodeUtf8 } from "../util/utf8";
import { ANTHROPIC_VERSION } from "./anthropic";
import { DEFAULT_MODELS } from "./router";
import { DEFAULT_BASE_URLS, PROVIDER_IDS, type ProviderId } from "./types";

export const MODEL_NAME_PATTERN: RegExp = /^[A-Za-z0-9._:/-]{1,64}$/;
const KEY_PREFIX = "models.";
/** A provider's model list: at most this many names, this many bytes, this long a wait. */
export const MODEL_LIST_MAX_ENTRIES = 200;
const MODEL_LIST_MAX_BYTES = 512 * 1024;
const MODEL_LIST_TIMEOUT_MS = 15000;

export interface ProviderModelsDeps {
  settings: Settings;
  http: HttpClient;
  log: Log;
  getSecret(provider: ProviderId): string | undefined;
  baseUrl(provider: ProviderId): string | undefined;
}

export interface ProviderModelView {
  provider: ProviderId;
  /** What the provider is asked for: the owner's choice, else the default. */
  model: string;
  defaultModel: string;
  chosen: boolean;
}

export class ProviderModels {
  constructor(private readonly deps: ProviderModelsDeps) {}

  /** The owner's model for `provider`, or undefined for the default. */
  get(provider: ProviderId): string | undefined {
    const v = this.deps.settings.get(KEY_PREFIX + provider);
    return v !== undefined && MODEL_NAME_PATTERN.test(v) ? v : undefined;
  }

  /** Sets (a name) or clears (undefined) the owner's model; an error sentence when the name is not acceptable. */
  set(provider: ProviderId, model: string | undefined): string | undefined {
    if (model === undefined) {
      this.deps.settings.remove(KEY_PREFIX + provider);
      return undefined;
    }
    if (!MODEL_NAME_PATTERN.test(model)) return "a model name is 1-64 of A-Z a-z 0-9 . _ : / -";
    this.deps.settings.set(KEY_PREFIX + provider, model);
    return undefined;
  }

  all(): ProviderModelView[] {
    return PROVIDER_IDS.map((provider) => {
      const chosen = this.get(provider);
      return { provider, model: chosen ?? DEFAULT_MODELS[provider], defaultModel: DEFAULT_MODELS[provider], chosen: chosen !== undefined };
    });
  }

  /** The model ids the provider lists for the owner's key; throws one sentence (never the key) on failure. */
  async available(provider: ProviderId): Promise<string[]> {
    const key = this.deps.getSecret(provider);
    if (!key) throw new Error(`no ${provider} key is set`);
    const base = (this.deps.baseUrl(provider) ?? DEFAULT_BASE_URLS[provider]).replace(/\/+$/, "");
    const headers: { [name: string]: string } =
      provider === "anthropic" ? { "x-api-key": key, "anthropic-version": ANTHROPIC_VERSION } : { authorization: `Bearer ${key}` };
    let res: HttpClientResponse;
    try {
      res = await this.deps.http.request({
        method: "GET",
        url: `${base}/models`,
        headers,
        timeoutMs: MODEL_LIST_TIMEOUT_MS,
        maxResponseBytes: MODEL_LIST_MAX_BYTES,
      });
    } catch {
      throw new Error(`${provider} could not be reached`);
    }
    if (res.status === 401 || res.status === 403) throw new Error(`${provider} refused the key`);
    if (res.status !== 200) throw new Error(`${provider} answered HTTP ${res.status}`);
    let body: unknown;
    try {
      body = JSON.parse(decodeUtf8(res.body));
    } catch {
      throw new Error(`${provider} sent a model list that is not JSON`);
    }
    const data = (body as { data?: unknown }).data;
    if (!Array.isArray(data)) throw new Error(`${provider} sent no model list`);
    const ids: string[] = [];
    for (const item of data) {
      const id = (item as { id?: unknown } | null)?.id;
      if (typeof id === "string" && MODEL_NAME_PATTERN.test(id) && ids.indexOf(id) < 0) ids.push(id);
      if (ids.length >= MODEL_LIST_MAX_ENTRIES) break;
    }
    return ids.sort();
  }
}
