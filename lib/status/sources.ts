import type { WakeState } from "../wake/phrase";
import type { Ports } from "../ports";
import type { UsageSource } from "../people/usage";
import type { ConfigStore } from "../device/config";
import type { SecretStore } from "../device/secrets";

/**
 * The subsystems the introspection tools report on. Each is optional: an
 * absent one is reported as not present (or not configured), never guessed.
 * buildCore fills in what exists; a subsystem built later can be added here.
 */
export interface IntrospectionSources {
  memory?: UsageSource;
  files?: UsageSource;
  agents?: UsageSource;
  budget?: UsageSource;
  /** The monthly web-search counter against the owner's budget. */
  web?: UsageSource;
  /** Nostr: the verification queue of received events. */
  nostr?: UsageSource;
  /** The chat transport (Telegram). */
  chatLink?: ChatLinkSource;
}

/** How the chat transport reports itself to system.health: never a secret. */
export interface ChatLinkSource {
  health(): { configured: boolean; ok: boolean; detail: string };
}

/** Everything the device.* / system.* / ota.* tools read. Never the secret values. */
export interface IntrospectionDeps {
  ports: Pick<Ports, "clock" | "log" | "random" | "settings" | "storage" | "system" | "led" | "audioOut" | "audioIn" | "ota" | "timers">;
  config: ConfigStore;
  /** Only whether each secret is set. */
  secretStatus: SecretStore["status"];
  sources: IntrospectionSources;
  /** The owner's provider order (names only); device.status shows it to admins. */
  providerOrder?(): string[];
  /** How many chats are on the allow-list (never which). */
  allowedChats?(): number;
  /** The model each provider is asked for, e.g. "openai gpt-5.4-mini (owner's choice)". */
  providerModels?(): string[];
  /** The owner's wake phrase (never its audio or features); undefined without the wake-word engine. */
  wake?: () => WakeState;
  /** The memory embedder in use and whether its choice is locked (memories exist). */
  embedder?(): { id: string; vectors: number };
}
