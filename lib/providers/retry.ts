// Bounded retries of one provider: exponential backoff with jitter, Retry-After honoured up to a cap.
import type { Random } from "../ports";
import { clipForMessage } from "../util/text";
import { ProviderError, type ProviderErrorKind } from "./errors";
import type { ChatProvider, ChatRequest, ChatResponse, ProviderId } from "./types";

export interface RetryPolicy {
  /** Attempts per provider, the first included. */
  maxAttempts: number;
  /** First backoff; doubles per retry. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the router moves on to the next provider. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 20000 };
/** Bounds on a caller's policy. */
const MAX_ATTEMPTS_CEILING = 6;
const MAX_DELAY_CEILING_MS = 120000;
/** Up to this fraction of a backoff is taken off at random, so devices do not retry in step. */
const JITTER_FRACTION = 0.25;

/** One attempt as the router reports it. */
export interface AttemptReport {
  provider: ProviderId;
  /** 1-based, per provider. */
  attempt: number;
  /** Absent when the attempt succeeded. */
  kind?: ProviderErrorKind;
  message?: string;
  status?: number;
}

export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const p = { ...DEFAULT_RETRY_POLICY, ...overrides };
  const bound = (n: number, min: number, max: number, fallback: number): number =>
    Number.isFinite(n) ? Math.min(max, Math.max(min, Math.floor(n))) : fallback;
  return {
    maxAttempts: bound(p.maxAttempts, 1, MAX_ATTEMPTS_CEILING, DEFAULT_RETRY_POLICY.maxAttempts),
    baseDelayMs: bound(p.baseDelayMs, 0, MAX_DELAY_CEILING_MS, DEFAULT_RETRY_POLICY.baseDelayMs),
    maxDelayMs: bound(p.maxDelayMs, 0, MAX_DELAY_CEILING_MS, DEFAULT_RETRY_POLICY.maxDelayMs),
    maxRetryAfterMs: bound(p.maxRetryAfterMs, 0, MAX_DELAY_CEILING_MS, DEFAULT_RETRY_POLICY.maxRetryAfterMs),
  };
}

/** The wait before retry number `retry` (1 = the first retry). */
export function backoffDelay(retry: number, policy: RetryPolicy, random: Random): number {
  const full = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const byte = new Uint8Array(1);
  random.fill(byte);
  return Math.round(full * (1 - (JITTER_FRACTION * byte[0]) / 255));
}

/** Anything thrown that is not a ProviderError (a bug in an adapter) becomes one, so the router can move on. */
export function asProviderError(provider: ProviderId, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const detail = error instanceof Error ? clipForMessage(error.message, 120) : "unknown failure";
  return new ProviderError("bad-response", `Reading the ${provider} answer failed: ${detail}`, { provider });
}

export interface RetryRun {
  policy: RetryPolicy;
  random: Random;
  sleep(ms: number): Promise<void>;
  /** Runs before every attempt; throwing (a budget refusal) ends the run without a request. */
  beforeAttempt?(): void;
  onAttempt?(report: AttemptReport): void;
}

/** `provider.complete(req)` with retries on rate limits, overload, 5xx and network failures. */
export async function completeWithRetries(provider: ChatProvider, req: ChatRequest, run: RetryRun): Promise<ChatResponse> {
  for (let attempt = 1; ; attempt++) {
    run.beforeAttempt?.();
    let failure: ProviderError;
    try {
      const res = await provider.complete(req);
      run.onAttempt?.({ provider: provider.id, attempt });
      return res;
    } catch (error) {
      failure = asProviderError(provider.id, error);
    }
    run.onAttempt?.({ provider: provider.id, attempt, kind: failure.kind, message: failure.message, status: failure.status });
    if (!failure.retryable || attempt >= run.policy.maxAttempts) throw failure;
    const asked = failure.retryAfterMs;
    if (asked !== undefined && asked > run.policy.maxRetryAfterMs) throw failure;
    await run.sleep(asked !== undefined ? asked : backoffDelay(attempt, run.policy, run.random));
  }
}
