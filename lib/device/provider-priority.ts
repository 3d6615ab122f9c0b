import { toJson } from "../util/json";
import type { Log, Settings } from "../ports";
import { PROVIDERS, type Provider } from "./knobs";

const SETTINGS_KEY = "provider.priority";
const DEFAULT_PRIORITY: readonly Provider[] = ["openai", "anthropic", "mistral"];

/**
 * The order in which providers are tried for sub-agents and fallbacks.
 * Human-web-only: the owner API writes it; device config actions are refused
 * (protected-BLOCKED) and no tool writes it. Readable in device.status.
 */
export class ProviderPriority {
  private order: Provider[];

  constructor(
    private readonly settings: Settings,
    log: Log,
  ) {
    this.order = DEFAULT_PRIORITY.slice();
    const text = settings.get(SETTINGS_KEY);
    if (text === undefined) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (typeof priorityProblem(parsed) === "string") log.warn(`providers: stored ${SETTINGS_KEY} is invalid; using the default order`);
    else this.order = (parsed as Provider[]).slice();
  }

  get(): Provider[] {
    return this.order.slice();
  }

  /** Replaces the order; an error sentence when the list is not acceptable. */
  set(list: unknown): string | undefined {
    const problem = priorityProblem(list);
    if (problem) return problem;
    this.order = (list as Provider[]).slice();
    this.settings.set(SETTINGS_KEY, toJson(this.order));
    return undefined;
  }
}

function priorityProblem(list: unknown): string | undefined {
  const known = `providers are ${PROVIDERS.join(", ")}`;
  if (!Array.isArray(list) || list.length === 0 || list.length > PROVIDERS.length)
    return `priority is a list of 1-${PROVIDERS.length} providers; ${known}.`;
  for (let i = 0; i < list.length; i++) {
    if ((PROVIDERS as readonly unknown[]).indexOf(list[i]) < 0) return `priority entry ${i + 1} is not a provider; ${known}.`;
    if (list.indexOf(list[i]) !== i) return "priority names a provider twice.";
  }
  return undefined;
}
