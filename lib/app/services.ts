// Every service the subsystems provide, by the name subsystems declare in `needs`
// and `provides` and tools in `needs`. The composition root (lib/app/core.ts)
// builds them in the order those declarations give; nothing is set afterwards.
import type { AlertLog } from "../agents/alerts";
import type { DailyGovernor } from "../agents/daily-governor";
import type { Routines } from "../agents/routines";
import type { RoutineScheduler } from "../agents/scheduler";
import type { SubAgents } from "../agents/sessions";
import type { TelegramChannel } from "../chat/telegram-channel";
import type { VoiceSynth } from "../chat/voice";
import type { DeviceActuator } from "../device/actuator";
import type { ConfigStore } from "../device/config";
import type { ProviderPriority } from "../device/provider-priority";
import type { SecretStore } from "../device/secrets";
import type { MemoryEngine } from "../memory/engine";
import type { EpisodicStore } from "../memory/episodic/episodic";
import type { OutboundHttp } from "../net/outbound";
import type { BlossomClient } from "../nostr/blossom";
import type { NostrChannel } from "../nostr/dm-channel";
import type { NostrSubsystem } from "../nostr/subsystem";
import type { SkillTriggers } from "../nostr/triggers";
import type { OtaEngine } from "../ota/engine";
import type { ChatAllowList } from "../people/chat-allowlist";
import type { ClientTokens } from "../people/clients";
import type { PeopleStore } from "../people/people";
import type { SpendRails } from "../people/rails";
import type { Messenger } from "../ports";
import type { BudgetGovernor } from "../providers/budget";
import type { ProviderModels } from "../providers/models";
import type { ProviderRouter } from "../providers/router";
import type { ToolRegistry } from "../registry/registry";
import type { ResultsRing } from "../registry/results-ring";
import type { CompiledValidator } from "../registry/types";
import type { IntrospectionDeps } from "../status/sources";
import type { ArtifactStore } from "../store/artifact-store";
import type { DocsLibrary } from "../store/docs-pack";
import type { Downloads } from "../store/downloads";
import type { ImageClient } from "../store/image-client";
import type { SkillStore } from "../store/skills";
import type { TurnEngine } from "../turn/engine";
import type { Speech } from "../voice/speech-service";
import type { VoiceLoop } from "../voice/voice-loop";
import type { WakePhrase } from "../wake/phrase";
import type { WalletService } from "../wallet/service";
import type { WalletKitFactory } from "../wallet/types";
import type { WebSearchBudget } from "../web/search-budget";
import type { TavilyClient } from "../web/tavily";
import type { OtaBuildOptions } from "./subsystems/updates";

/** Base URLs of outside services by name (`openai`, `telegram`, `tavily`, ...); unset means the public API. */
export type BaseUrls = { readonly [service: string]: string | undefined };

/** What the host decides that no port says: where outside services are, its build, and the compiled validators. */
export interface HostChoices {
  baseUrls: BaseUrls;
  /** The build's version, board, trusted release keys and feed; undefined: no update engine (the ota port reports alone). */
  otaBuild: OtaBuildOptions | undefined;
  /** Makes the Cashu kit (lib/wallet/cashu/kit.ts, loaded at run time); undefined: no wallet on this host. */
  walletKit: WalletKitFactory | undefined;
  /** The build-time argument validators (lib/generated/validators.js; the generators pass pass-through ones). */
  validators: { readonly [key: string]: CompiledValidator };
}

export interface Services extends HostChoices {
  registry: ToolRegistry;
  /** The caller's recent tool outputs (results.*, the registry's clamp). */
  ring: ResultsRing;
  docs: DocsLibrary;
  /** The guarded HTTP client: every request for a caller or from received data (lib/net/outbound.ts). */
  outbound: OutboundHttp;
  clients: ClientTokens;
  people: PeopleStore;
  /** The chat allow-list (owner API only). */
  chats: ChatAllowList;
  /** Provider keys and the bot token: write-only from outside; `getSecret` is for provider code, never tools. */
  secrets: SecretStore;
  /** Provider priority (owner API only). */
  priority: ProviderPriority;
  config: ConfigStore;
  /** The credit and rate rails every door that spends provider credit asks (lib/people/rails.ts). */
  rails: SpendRails;
  speech: Speech;
  /** Carries out device[] actions (the turn's end-of-turn array, device.control). */
  actuator: DeviceActuator;
  memory: MemoryEngine;
  /** The episodic history on the card; undefined on a device without one. */
  episodic: EpisodicStore | undefined;
  telegram: TelegramChannel;
  /** Speech for Telegram voice notes. */
  voiceNotes: VoiceSynth;
  webBudget: WebSearchBudget;
  webSearch: TavilyClient;
  artifacts: ArtifactStore;
  downloads: Downloads;
  images: ImageClient;
  skills: SkillStore;
  /** Where files.send delivers: the host's messenger, else the Telegram channel. */
  outbox: Messenger;
  nostr: NostrSubsystem;
  router: ProviderRouter;
  budget: BudgetGovernor;
  models: ProviderModels;
  agents: SubAgents;
  routines: Routines;
  alerts: AlertLog;
  governor: DailyGovernor;
  turn: TurnEngine;
  scheduler: RoutineScheduler;
  voice: VoiceLoop;
  /** The owner's wake phrase; undefined on a host without the wake-word engine. */
  wake: WakePhrase | undefined;
  triggers: SkillTriggers;
  nostrChannel: NostrChannel;
  /** Blossom blobs on the owner's servers (lib/nostr/blossom.ts). */
  blossom: BlossomClient;
  /** The Cashu wallet and its rails (lib/wallet/service.ts). */
  wallet: WalletService;
  /** The update engine; undefined without app slots or build options. */
  updates: OtaEngine | undefined;
  /** What device.status, system.health and device.selftest read. */
  status: IntrospectionDeps;
}
