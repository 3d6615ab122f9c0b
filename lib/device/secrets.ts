import type { Log, Settings } from "../ports";

/** The secrets the owner may set. Names are what the owner API and device.status use. */
export const SECRET_NAMES = ["openai", "anthropic", "mistral", "tavily", "telegram"] as const;
export type SecretName = (typeof SECRET_NAMES)[number];
/** Longest secret value accepted (provider keys and bot tokens are far shorter). */
export const MAX_SECRET_CHARS = 512;

const KEY_PREFIX = "secret.";
const VALUE_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${MAX_SECRET_CHARS}}$`);

export function isSecretName(name: string): name is SecretName {
  return (SECRET_NAMES as readonly string[]).indexOf(name) >= 0;
}

/**
 * Provider keys and the bot token, in Settings under `secret.<name>`.
 * Write-only from outside the core: the owner API sets and clears them and
 * reads only set / not set. The value leaves this class only through
 * `getSecret`, which is handed to the subsystems that call a provider and is
 * never given to a tool. Nothing here logs a value.
 */
export class SecretStore {
  constructor(
    private readonly settings: Settings,
    private readonly log: Log,
  ) {}

  /** Sets a secret; an error sentence (naming no value) when the name or value is not acceptable. */
  set(name: string, value: unknown): string | undefined {
    if (!isSecretName(name)) return `unknown secret; known: ${SECRET_NAMES.join(", ")}.`;
    if (typeof value !== "string" || !VALUE_PATTERN.test(value)) {
      return `a secret value is 1-${MAX_SECRET_CHARS} visible ASCII characters, no spaces.`;
    }
    this.settings.set(KEY_PREFIX + name, value);
    this.log.info(`secrets: ${name} set`);
    return undefined;
  }

  /** Sets a secret only when it is not set yet (first-boot seeding from the host). */
  seed(name: SecretName, value: string): boolean {
    if (this.isSet(name)) return false;
    if (this.set(name, value) === undefined) return true;
    this.log.warn(`secrets: the initial value for ${name} is not a valid secret; not set`);
    return false;
  }

  /** Clears a secret; false when the name is unknown. */
  clear(name: string): boolean {
    if (!isSecretName(name)) return false;
    this.settings.remove(KEY_PREFIX + name);
    this.log.info(`secrets: ${name} cleared`);
    return true;
  }

  isSet(name: SecretName): boolean {
    return this.settings.get(KEY_PREFIX + name) !== undefined;
  }

  /** Each known secret and whether it is set; never a value. */
  status(): Array<{ name: SecretName; set: boolean }> {
    return SECRET_NAMES.map((name) => ({ name, set: this.isSet(name) }));
  }

  /** The value of a secret, for the core's provider code only. Bound so it can be passed on alone. */
  readonly getSecret = (name: string): string | undefined => {
    if (!isSecretName(name)) return undefined;
    const value = this.settings.get(KEY_PREFIX + name);
    return value !== undefined && VALUE_PATTERN.test(value) ? value : undefined;
  };
}
