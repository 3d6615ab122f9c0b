import { nameError } from "../errors";
// Provider priority with fallback: the owner's order, keyed providers only, the budget
// checked before every attempt, bounded retries, usage recorded after a served answer.
import type { Clock, HttpClient, Log, Random } from "../ports";
import { anthropicProvider } from "./anthropic";
import { ProviderError, type ProviderErrorKind } from "./errors";
import type { ProviderConnection } from "./exchange";
import { mistralProvider } from "./mistral";
import { openAiProvider } from "./openai";
import { asProviderError, completeWithRetries, retryPolicy, type AttemptReport, type RetryPolicy } from "./retry";
import {
  DEFAULT_BASE_URLS,
  PROVIDER_IDS,
  PROVIDER_LABELS,
  type BudgetCheck,
  type BudgetGate,
  type ChatProvider,
  type ChatRequest,
  type ChatResponse,
  type ProviderId,
  type TokenUsage,
} from "./types";
import { checkChatRequest } from "./wire";

/** Models used when the owner has not chosen one. */
export const DEFAULT_MODELS: { readonly [id in ProviderId]: string } = {
  openai: "gpt-5.4-mini",
  anthropic: "claude-sonnet-4-6",
  mistral: "mistral-medium-latest",
};

const ADAPTERS: { readonly [id in ProviderId]: (conn: ProviderConnection) => ChatProvider } = {
  openai: openAiProvider,
  anthropic: anthropicProvider,
  mistral: mistralProvider,
};

/** Longest secret accepted as a key (anything longer is treated as no key). */
const MAX_KEY_CHARS = 512;

export interface ProviderRouterOptions {
  http: HttpClient;
  clock: Clock;
  /** Jitter of the backoff. */
  random: Random;
  /** Waits between retries (the host's timer; tests pass a recorder). */
  sleep(ms: number): Promise<void>;
  /** A provider's API key (secret names: openai, anthropic, mistral); absent or empty means not keyed. */
  getSecret(name: ProviderId): string | undefined;
  /** The owner's priority order, read on every call. Providers not listed are never used. */
  priority(): readonly ProviderId[];
  /** The owner's model for a provider, read on every call; DEFAULT_MODELS otherwise. */
  model?(provider: ProviderId): string | undefined;
  /** API base URLs (the simulator points them at local servers); DEFAULT_BASE_URLS otherwise. */
  baseUrls?: { [id in ProviderId]?: string };
  budget?: BudgetGate;
  retry?: Partial<RetryPolicy>;
  maxResponseBytes?: number;
  log?: Log;
}

/** A ChatRequest without a model: the router picks provider and model. */
export interface RouteRequest extends Omit<ChatRequest, "model"> {
  /** Try this provider first (the head's own choice), with `model` if given. */
  provider?: ProviderId;
  model?: string;
  /** false: only `provider` (or the first keyed one). A `previousResponseId` implies false. */
  fallback?: boolean;
}

export interface RoutedResponse extends ChatResponse {
  /** The provider that served. */
  provider: ProviderId;
  model: string;
  /** Every attempt made, failures first, the serving one last. */
  attempts: AttemptReport[];
}

/** The router's failure: the kind of the decisive error plus every attempt made. */
export class RouteError extends ProviderError {
  readonly attempts: AttemptReport[];
  constructor(kind: ProviderErrorKind, message: string, attempts: AttemptReport[], provider?: ProviderId) {
    super(kind, message, { provider });
    nameError(this, "RouteError");
    this.attempts = attempts;
  }
}

export class ProviderRouter {
  private readonly options: ProviderRouterOptions;
  private readonly policy: RetryPolicy;

  constructor(options: ProviderRouterOptions) {
    this.options = options;
    this.policy = retryPolicy(options.retry);
  }

  /** The provider's key, or undefined when it has none usable. */
  private key(id: ProviderId): string | undefined {
    const key = this.options.getSecret(id);
    return typeof key === "string" && key.trim() && key.length <= MAX_KEY_CHARS ? key.trim() : undefined;
  }

  /** The owner's priority order (deduplicated, known ids only) restricted to keyed providers. */
  available(): ProviderId[] {
    const seen = new Set<ProviderId>();
    for (const id of this.options.priority()) if (PROVIDER_IDS.includes(id) && !seen.has(id) && this.key(id)) seen.add(id);
    return Array.from(seen);
  }

  /** The adapter for a keyed provider (for callers that need `continuation`), or undefined. */
  provider(id: ProviderId): ChatProvider | undefined {
    const apiKey = this.key(id);
    if (!apiKey) return undefined;
    const { http, clock, baseUrls, maxResponseBytes } = this.options;
    return ADAPTERS[id]({ http, clock, apiKey, baseUrl: baseUrls?.[id] || DEFAULT_BASE_URLS[id], maxResponseBytes });
  }

  private candidates(req: RouteRequest): ProviderId[] {
    const order = this.available();
    const pinned = req.fallback === false || req.previousResponseId !== undefined;
    if (req.provider !== undefined) {
      if (!this.key(req.provider)) {
        if (pinned)
          throw new RouteError(
            "unavailable",
            `${PROVIDER_LABELS[req.provider]} has no key; the owner can add one through the owner API.`,
            [],
            req.provider,
          );
      } else return pinned ? [req.provider] : [req.provider, ...order.filter((id) => id !== req.provider)];
    }
    return pinned ? order.slice(0, 1) : order;
  }

  /** Serves `req` with the first provider that answers. Throws a RouteError when none does. */
  async complete(req: RouteRequest): Promise<RoutedResponse> {
    const { provider: preferred, model: preferredModel, fallback: _fallback, ...base } = req;
    // Checked once up front (any model name will do): an invalid request fails the same everywhere, so no fallback.
    checkChatRequest({ ...base, model: preferredModel || DEFAULT_MODELS.openai });
    const order = this.candidates(req);
    if (!order.length) throw new RouteError("unavailable", "No LLM provider has a key; the owner can add one through the owner API.", []);
    const attempts: AttemptReport[] = [];
    const failures: string[] = [];
    let last: ProviderError | undefined;
    for (const id of order) {
      const adapter = this.provider(id);
      if (!adapter) continue;
      const model = (id === preferred && preferredModel) || this.options.model?.(id) || DEFAULT_MODELS[id];
      try {
        const res = await completeWithRetries(
          adapter,
          { ...base, model },
          {
            policy: this.policy,
            random: this.options.random,
            sleep: (ms) => this.options.sleep(ms),
            beforeAttempt: () => this.checkBudget(id),
            onAttempt: (report) => attempts.push(report),
          },
        );
        this.record(id, res.usage);
        return { ...res, provider: id, model: res.model || model, attempts };
      } catch (error) {
        const failure = asProviderError(id, error);
        if (failure.kind === "budget") throw new RouteError("budget", failure.message, attempts, id);
        this.options.log?.warn(`provider ${id} failed (${failure.kind}): ${failure.message}`);
        failures.push(failure.message);
        last = failure;
      }
    }
    if (!last) throw new RouteError("unavailable", "No LLM provider has a key; the owner can add one through the owner API.", attempts);
    const kind = order.length === 1 ? last.kind : "unavailable";
    const message = failures.length === 1 ? failures[0] : `No provider could answer. ${failures.join(" ")}`;
    throw new RouteError(kind, message, attempts, order.length === 1 ? order[0] : undefined);
  }

  /** A governor that cannot be read refuses too: spending blind is the wrong side to fail on. */
  private checkBudget(id: ProviderId): void {
    let verdict: BudgetCheck | undefined;
    try {
      verdict = this.options.budget?.check(id);
    } catch {
      verdict = { ok: false, message: "quota: the budget settings could not be read, so nothing was sent." };
    }
    if (verdict && !verdict.ok) throw new ProviderError("budget", verdict.message, { provider: id });
  }

  /** A failed usage write must not lose the answer that was paid for. */
  private record(id: ProviderId, usage: TokenUsage): void {
    try {
      this.options.budget?.record(id, usage);
    } catch (error) {
      this.options.log?.warn(`recording ${id} usage failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
