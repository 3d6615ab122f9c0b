import { VALIDATORS } from "./generated/validators.js";
import type { AlertLog } from "./agents/alerts";
import { buildAgentsSubsystem, scheduledPrincipal } from "./agents/build";
import type { Routines } from "./agents/routines";
import type { RoutineScheduler } from "./agents/scheduler";
import type { SubAgents } from "./agents/sessions";
import type { TelegramChannel } from "./chat/telegram-channel";
import type { VoiceSynth } from "./chat/voice";
import { DOCS_PACK } from "./generated/docs-pack";
import { DeviceActuator } from "./device/actuator";
import { ConfigStore } from "./device/config";
import type { IntrospectionSources } from "./device/introspection";
import { ProviderPriority } from "./device/provider-priority";
import { SecretStore } from "./device/secrets";
import { ChatAllowList } from "./people/chat-allowlist";
import { ClientTokens } from "./people/clients";
import { PeopleStore } from "./people/people";
import { buildMemoryEngine } from "./memory/build";
import type { SecretReader } from "./memory/embedder-select";
import type { MemoryEngine } from "./memory/engine";
import type { EpisodicStore } from "./memory/episodic";
import { memoryUsageSource } from "./memory/usage";
import type { Ports } from "./ports";
import { ToolRegistry } from "./registry/registry";
import type { CompiledValidator } from "./registry/types";
import type { BudgetGovernor } from "./turn/budget";
import type { ProviderModels } from "./turn/provider-models";
import type { ProviderRouter } from "./turn/providers/router";
import { buildProviderRouter } from "./turn/providers/wiring";
import type { ArtifactStore } from "./store/artifact-store";
import { DocsLibrary } from "./store/docs-pack";
import type { Downloads } from "./store/downloads";
import { ResultsRing } from "./store/results-ring";
import type { SkillStore } from "./store/skills";
import { registerDeviceTools } from "./tools/device";
import { registerDocsTools } from "./tools/docs";
import { registerMemoryTools } from "./tools/memory";
import { registerArchiveTool, registerEpisodicTool } from "./tools/memory-history";
import { buildFilesSubsystem, filesUsageSource } from "./tools/files-subsystem";
import { registerResultTools } from "./tools/results";
import { registerTenantTools } from "./tools/tenant";
import { buildTurn } from "./turn/build";
import type { TurnEngine } from "./turn/engine";
import { buildChannelsSubsystem } from "./tools/channels-subsystem";
import type { WebSearchBudget } from "./web/search-budget";

/** Every subsystem of the device, built once from the ports. Hosts and the HTTP routes reach them here. */
export interface Core {
  ports: Ports;
  registry: ToolRegistry;
  ring: ResultsRing;
  clients: ClientTokens;
  /** Provider keys and the bot token: write-only from outside; `secrets.getSecret` is for provider code, never tools. */
  secrets: SecretStore;
  people: PeopleStore;
  /** The chat allow-list (owner API only). */
  chats: ChatAllowList;
  /** Provider priority (owner API only). */
  priority: ProviderPriority;
  config: ConfigStore;
  /** Carries out device[] actions (the turn engine's end-of-turn array, device.control). */
  actuator: DeviceActuator;
  /** What device.status and system.health report on; a subsystem built later adds itself here. */
  introspection: IntrospectionSources;
  /** The SD artifact store (files.*, artifact.save); the owner API may call `remove`. */
  artifacts: ArtifactStore;
  /** files.fetch jobs; the owner API calls `setPolicy`, `approveFetch`, `rejectFetch`, `setVerdict`. */
  downloads: Downloads;
  /** Skill capsules; the owner API calls `listPending`, `approve`, `reject`, `saveByOwner`, `removeByOwner`. */
  skills: SkillStore;
  /** Associative memory: vector store, config, scratchpad, SD archive. */
  memory: MemoryEngine;
  /** The episodic log, when the host bound one (CoreOptions.episodic). */
  episodic?: EpisodicStore;
  /** The orchestrator turn: `turn.runTurn(principal, {text, channel?, scheduled?, onReply?})` (docs/turn.md). */
  turn: TurnEngine;
  /** Telegram outbound (reply.telegram, the Messenger of files.send); `telegram.client` is what a host's TelegramInbound polls with. */
  telegram: TelegramChannel;
  /** The monthly web-search counter; web.search is registered only when the Tavily key was set at boot. */
  webBudget: WebSearchBudget;
  /** The LLM providers in the owner's order, shared by turns and sub-agents; `budget` is its governor. */
  router: ProviderRouter;
  budget: BudgetGovernor;
  /** The owner's model per provider, and each provider's model list. */
  models: ProviderModels;
  /** Sub-agents (session.*). */
  agents: SubAgents;
  /** Routines and wakeups (loop.*, wakeup.set); the owner API approves and rejects here. */
  routines: Routines;
  /** Fires due routines: the host calls `scheduler.tick()` every SCHEDULER_TICK_MS; the turn engine binds with `setRunner`. */
  scheduler: RoutineScheduler;
  /** Failures nobody saw (wakeups, routines): the owner API reads and clears them. */
  alerts: AlertLog;
}

/** Host choices buildCore cannot read from the ports. */
export interface CoreOptions {
  /** Overrides where the memory embedder reads its key (default: the secrets store's `openai` key). */
  getSecret?: SecretReader;
  /** The episodic store (device and simulator bind one over their SD card); memory.episodic exists only with it. */
  episodic?: EpisodicStore;
  /** Base URLs of outside services by name (`telegram`, `tavily`); unset means the public API. The simulator reads HALO_<NAME>_BASE_URL. */
  baseUrls?: { [service: string]: string | undefined };
  /** Speech synthesis for Telegram voice notes; default: OpenAI speech with the owner's openai key (ttsProv openai). */
  voiceSynth?: VoiceSynth;
  /** The host's timer, for provider retry backoff (without one, retries do not wait). */
  sleep?(ms: number): Promise<void>;
}

/**
 * Builds the subsystems and registers every tool the device offers. The
 * generators call it too (with pass-through validators) to read the tools.
 */
export function buildCore(ports: Ports, validators: { [key: string]: CompiledValidator } = VALIDATORS, options: CoreOptions = {}): Core {
  const ring = new ResultsRing();
  const registry = new ToolRegistry({ validators, ring, log: ports.log });
  const clients = new ClientTokens(ports.settings, ports.digest, ports.random, ports.log, () => ports.clock.now());
  registerDocsTools(registry, new DocsLibrary(DOCS_PACK));
  registerResultTools(registry, ring);
  const secrets = new SecretStore(ports.settings, ports.log);
  const people = new PeopleStore(ports.settings, ports.log, () => ports.clock.now());
  people.ensureAdmin();
  const chats = new ChatAllowList(ports.settings, ports.log);
  const priority = new ProviderPriority(ports.settings, ports.log);
  const config = new ConfigStore(ports.settings, ports.log);
  const actuator = new DeviceActuator({ config, log: ports.log, led: ports.led, audioOut: ports.audioOut, system: ports.system });
  const introspection: IntrospectionSources = {};
  const memory = buildMemoryEngine(ports, options.getSecret ?? ((name) => secrets.getSecret(name)));
  registerMemoryTools(registry, memory);
  if (options.episodic) registerEpisodicTool(registry, options.episodic, () => ports.clock.now());
  if (ports.storage) registerArchiveTool(registry, memory);
  introspection.memory = memoryUsageSource(memory);
  const channels = buildChannelsSubsystem(registry, ports, {
    secrets,
    config,
    chats,
    actuator,
    introspection,
    baseUrls: options.baseUrls,
    voice: options.voiceSynth,
  });
  // Telegram is the messenger files.send delivers through, unless the host brought its own.
  const files = buildFilesSubsystem(
    registry,
    { ...ports, messenger: ports.messenger ?? channels.telegram },
    { image: { apiKey: () => secrets.getSecret("openai"), baseUrl: () => options.baseUrls?.openai } },
  );
  introspection.files = filesUsageSource(files.artifacts);
  registerTenantTools(registry, people, chats);
  const providerOrder = (): string[] => priority.get();
  const allowedChats = (): number => chats.list().length;
  const embedder = (): { id: string; vectors: number } => ({ id: memory.deps.embedder.id, vectors: memory.store.count });
  // Read at call time: the provider router (and its models) is built further down.
  const providerModels = (): string[] =>
    models.all().map((m) => `${m.provider} ${m.model}${m.chosen ? " (owner's choice)" : " (default)"}`);
  registerDeviceTools(
    registry,
    { ports, config, secretStatus: () => secrets.status(), sources: introspection, providerOrder, allowedChats, providerModels, embedder },
    actuator,
  );
  const { artifacts, downloads, skills } = files;
  const utcOffsetMinutes = (): number => config.number("utcOffsetMin");
  const { router, budget, models } = buildProviderRouter({
    ports,
    getSecret: (n) => secrets.getSecret(n),
    priority: () => priority.get(),
    utcOffsetMinutes,
    baseUrls: options.baseUrls,
    sleep: options.sleep,
  });
  const agentParts = buildAgentsSubsystem(registry, {
    ports,
    router,
    artifacts,
    skills,
    config,
    chats,
    principalFor: (ns) => scheduledPrincipal({ people, clients, chats }, ns),
  });
  introspection.agents = agentParts.usage;
  const { agents, routines, scheduler, alerts } = agentParts;
  // A fired routine's reply goes to Telegram, or is kept as an owner alert (lib/agents/reply-delivery.ts).
  const delivery = { channel: channels.telegram, alerts };
  const turn = buildTurn({
    ports,
    registry,
    ring,
    router,
    budget,
    config,
    actuator,
    memory,
    scheduler,
    delivery,
    episodic: options.episodic,
  });
  introspection.budget = turn.budgetSource;
  return {
    ports,
    registry,
    ring,
    clients,
    secrets,
    people,
    chats,
    priority,
    config,
    actuator,
    introspection,
    artifacts,
    downloads,
    skills,
    memory,
    episodic: options.episodic,
    turn: turn.engine,
    telegram: channels.telegram,
    webBudget: channels.webBudget,
    router,
    budget,
    models,
    agents,
    routines,
    scheduler,
    alerts,
  };
}
