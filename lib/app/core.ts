import { VALIDATORS } from "../generated/validators.js";
import type { AlertLog } from "../agents/alerts";
import type { Routines } from "../agents/routines";
import type { RoutineScheduler } from "../agents/scheduler";
import type { SubAgents } from "../agents/sessions";
import { buildSubsystem, type Subsystem } from "./subsystem";
import {
  AGENTS,
  BOARD,
  CHANNELS,
  DOCS,
  FILES,
  INTROSPECTION,
  MEMORY,
  OWNERSHIP,
  PROVIDERS,
  scheduledPrincipal,
  TENANTS,
  TURN,
  AUDIO_TOOLS,
  VOICE,
} from "./subsystems";
import { OWNER_PERSON_ID } from "../people/people";
import { derivePrincipal } from "../people/principals";
import type { AudioHttp } from "../voice/audio-http";
import type { VoiceSubsystem } from "../voice/build";
import type { TelegramChannel } from "../chat/telegram-channel";
import type { VoiceSynth } from "../chat/voice";
import type { DeviceActuator } from "../device/actuator";
import type { ConfigStore } from "../device/config";
import type { IntrospectionSources } from "../status/sources";
import type { ProviderPriority } from "../device/provider-priority";
import type { SecretStore } from "../device/secrets";
import type { ChatAllowList } from "../people/chat-allowlist";
import type { ClientTokens } from "../people/clients";
import type { PeopleStore } from "../people/people";
import type { SecretReader } from "../memory/embedders/select";
import type { MemoryEngine } from "../memory/engine";
import type { EpisodicStore } from "../memory/episodic/episodic";
import type { Ports } from "../ports";
import { ToolRegistry } from "../registry/registry";
import type { CompiledValidator } from "../registry/types";
import type { BudgetGovernor } from "../providers/budget";
import type { ProviderModels } from "../providers/models";
import type { ProviderRouter } from "../providers/router";
import type { ArtifactStore } from "../store/artifact-store";
import type { Downloads } from "../store/downloads";
import { ResultsRing } from "../registry/results-ring";
import type { SkillStore } from "../store/skills";
import type { TurnEngine } from "../turn/engine";
import { UPDATES, type OtaBuildOptions } from "./subsystems/ota";
import type { OtaEngine } from "../ota/engine";
import type { WebSearchBudget } from "../web/search-budget";
import { bindNostrChannel, NOSTR } from "./subsystems/nostr";
import type { NostrSubsystem } from "../nostr/subsystem";
import type { NostrChannel } from "../nostr/dm-channel";

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
  /** Speech to text, spoken replies, and the press-to-talk pipeline (`voice.press()`, `voice.subscribe(phase)`). */
  voice: VoiceSubsystem;
  /** The update engine, when the host has app slots (ports.otaSlots) and gave CoreOptions.ota; start() boots and ticks it. */
  ota?: OtaEngine;
  /** The device's Nostr key, relays and owner (docs/nostr.md); `halo.start` starts its relays. */
  nostr: NostrSubsystem;
  /** DMs to the device's key run as turns; `halo.start` starts it after the relays. */
  nostrChannel: NostrChannel;
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
  /** Streaming HTTP for voice (capture up, speech down as it arrives); default: whole bodies over ports.http. */
  audioHttp?: AudioHttp;
  /** The host's timer, for provider retry backoff (without one, retries do not wait). */
  sleep?(ms: number): Promise<void>;
  /** The build's version, board name, trusted release keys and feed URL (lib/ota/build.ts). */
  ota?: OtaBuildOptions;
  /** Called after each subsystem is built, with its name (the XS heap bench measures each one's share). */
  onBuilt?(subsystem: string): void;
}

/**
 * Builds the subsystems of lib/app/subsystems.ts in order, each from the
 * ports it names, and registers every tool the device offers. The generators
 * call it too (with pass-through validators) to read the tools.
 */
export function buildCore(ports: Ports, validators: { [key: string]: CompiledValidator } = VALIDATORS, options: CoreOptions = {}): Core {
  const build = <K extends keyof Ports, D, O>(subsystem: Subsystem<K, D, O>, on: Ports, deps: D): O => {
    const built = buildSubsystem(subsystem, on, deps);
    options.onBuilt?.(subsystem.name);
    return built;
  };
  const ring = new ResultsRing();
  const registry = new ToolRegistry({ validators, ring, log: ports.log });
  const tools = { registry, ring };
  const { baseUrls } = options;
  build(DOCS, ports, tools);
  const owner = build(OWNERSHIP, ports, undefined);
  const { secrets, config, chats, priority } = owner;
  const voice = build(VOICE, ports, {
    registry,
    config,
    secrets,
    baseUrls,
    audioHttp: options.audioHttp,
  });
  const { actuator, introspection } = build(BOARD, ports, { config, voice });
  const getSecret = options.getSecret ?? ((name: string) => secrets.getSecret(name));
  const memory = build(MEMORY, ports, { ...tools, getSecret, episodic: options.episodic, introspection });
  const channels = build(CHANNELS, ports, {
    ...tools,
    secrets,
    config,
    chats,
    actuator,
    introspection,
    baseUrls,
    voice: options.voiceSynth,
  });
  const files = build(FILES, ports, { ...tools, secrets, introspection, baseUrls, fallbackMessenger: channels.telegram });
  const nostr = build(NOSTR, ports, { registry, artifacts: files.artifacts, sleep: options.sleep });
  build(TENANTS, ports, { ...tools, people: owner.people, chats });
  // device.status lines; read at call time (the providers' models are built just below).
  const statusLines = {
    providerOrder: (): string[] => priority.get(),
    allowedChats: (): number => chats.list().length,
    providerModels: (): string[] => models.all().map((m) => `${m.provider} ${m.model}${m.chosen ? " (owner's choice)" : " (default)"}`),
    embedder: (): { id: string; vectors: number } => ({ id: memory.embedder.id, vectors: memory.store.count }),
  };
  // With app slots, the update engine is what the Ota port reports (ota.status, device.status).
  const ota = build(UPDATES, ports, { registry, options: options.ota });
  build(INTROSPECTION, ota ? { ...ports, ota } : ports, { ...tools, config, secrets, introspection, actuator, statusLines });
  build(AUDIO_TOOLS, ports, { ...tools, voice, artifacts: files.artifacts });
  const { router, budget, models } = build(PROVIDERS, ports, { secrets, priority, config, baseUrls, sleep: options.sleep });
  const agentParts = build(AGENTS, ports, {
    ...tools,
    router,
    artifacts: files.artifacts,
    skills: files.skills,
    config,
    chats,
    principalFor: (ns) => scheduledPrincipal({ people: owner.people, clients: owner.clients, chats }, ns),
  });
  introspection.agents = agentParts.usage;
  const { agents, routines, scheduler, alerts } = agentParts;
  // A fired routine's reply goes to Telegram, or is kept as an owner alert (lib/agents/reply-delivery.ts).
  const turn = build(TURN, ports, {
    registry,
    ring,
    router,
    budget,
    config,
    actuator,
    memory,
    scheduler,
    delivery: { channel: channels.telegram, alerts },
    episodic: options.episodic,
  });
  introspection.budget = turn.budgetSource;
  // A spoken request runs as the person the owner assigned to the device, else the owner.
  voice.bindTurn(turn.engine, () =>
    derivePrincipal({ people: owner.people, clients: owner.clients, chats }, "web", config.string("voicePerson") || OWNER_PERSON_ID),
  );
  const nostrChannel = bindNostrChannel(nostr, turn.engine, { people: owner.people, clients: owner.clients, chats }, ports.log, {
    governor: agentParts.governor,
    config,
  });
  return {
    ports,
    registry,
    ring,
    ...owner,
    actuator,
    introspection,
    artifacts: files.artifacts,
    downloads: files.downloads,
    skills: files.skills,
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
    voice,
    ota,
    nostr,
    nostrChannel,
  };
}
