// The table of the device's subsystems: each names the ports it is built from
// and what it needs of the subsystems built before it. lib/core.ts builds them
// in this order; nothing here holds state of its own.
import { buildAgentsSubsystem, scheduledPrincipal } from "./subsystems/agents";
import type { VoiceSynth } from "../chat/voice";
import { DeviceActuator } from "../device/actuator";
import { ConfigStore } from "../device/config";
import type { IntrospectionDeps, IntrospectionSources } from "../status/sources";
import { ProviderPriority } from "../device/provider-priority";
import { SecretStore } from "../device/secrets";
import { buildMemoryEngine } from "../memory/build";
import type { SecretReader } from "../memory/embedders/select";
import type { MemoryEngine } from "../memory/engine";
import type { EpisodicStore } from "../memory/episodic/episodic";
import { memoryUsageSource } from "../memory/usage";
import { ChatAllowList } from "../people/chat-allowlist";
import { ClientTokens } from "../people/clients";
import { PeopleStore } from "../people/people";
import type { ToolRegistry } from "../registry/registry";
import { DocsLibrary } from "../store/docs-pack";
import { FIRMWARE_DOCS, FIRMWARE_DOCS_LOWERED } from "../store/firmware-docs";
import type { ResultsRing } from "../registry/results-ring";
import { buildChannelsSubsystem, type ChannelsSubsystem } from "./subsystems/channels";
import { registerDeviceTools } from "../tools/device";
import { registerDocsTools } from "../tools/docs";
import { buildFilesSubsystem, filesUsageSource, type FilesSubsystem } from "./subsystems/files";
import { registerMemoryTools } from "../tools/memory";
import { registerArchiveTool, registerEpisodicTool } from "../tools/memory-history";
import { registerResultTools } from "../tools/results";
import { registerTenantTools } from "../tools/tenant";
import { buildTurn } from "./subsystems/turn";
import type { BudgetGovernor } from "../providers/budget";
import type { ProviderRouter } from "../providers/router";
import type { ProviderModels } from "../providers/models";
import { buildProviderRouter } from "./subsystems/providers";
import { registerAudioTools } from "../tools/audio";
import type { AudioHttp } from "../voice/audio-http";
import { VoiceSubsystem } from "../voice/build";
import type { ArtifactStore } from "../store/artifact-store";
import { defineSubsystem } from "./subsystem";

/** Where every subsystem registers its tools, and the ring their outputs are kept in. */
interface Tools {
  registry: ToolRegistry;
  ring: ResultsRing;
}

/** Docs and results: read-only tools over the docs pack and the results ring. */
export const DOCS = defineSubsystem({
  name: "docs",
  ports: [],
  build(_ports, { registry, ring }: Tools): void {
    registerDocsTools(registry, new DocsLibrary(FIRMWARE_DOCS, FIRMWARE_DOCS_LOWERED));
    registerResultTools(registry, ring);
  },
});

/** Who may call: MCP client tokens, people and roles, the chat allow-list; the owner's secrets and choices. */
export const OWNERSHIP = defineSubsystem({
  name: "ownership",
  ports: ["settings", "digest", "random", "log", "clock"],
  build(p) {
    const now = (): number => p.clock.now();
    const clients = new ClientTokens(p.settings, p.digest, p.random, p.log, now);
    const people = new PeopleStore(p.settings, p.log, now);
    people.ensureAdmin();
    const chats = new ChatAllowList(p.settings, p.log);
    return {
      clients,
      people,
      chats,
      secrets: new SecretStore(p.settings, p.log),
      priority: new ProviderPriority(p.settings, p.log),
      config: new ConfigStore(p.settings, p.log),
    };
  },
});

export interface VoiceDeps {
  registry: ToolRegistry;
  config: ConfigStore;
  secrets: SecretStore;
  baseUrls: { [service: string]: string | undefined } | undefined;
  audioHttp: AudioHttp | undefined;
}

/** Speech to text, spoken replies, press to talk and realtime speech; its turn is bound once the turn exists. */
export const VOICE = defineSubsystem({
  name: "voice",
  ports: ["http", "random", "clock", "audioIn", "audioOut", "webSocket"],
  build: (p, d: VoiceDeps): VoiceSubsystem => new VoiceSubsystem({ ...d, ports: p, getSecret: (n) => d.secrets.getSecret(n) }),
});

/** The board: device[] actions on the ring and speaker (speech through voice); introspection sources filled by later subsystems. */
export const BOARD = defineSubsystem({
  name: "board",
  ports: ["log", "led", "audioOut", "system"],
  build(p, { config, voice }: { config: ConfigStore; voice: VoiceSubsystem }) {
    const speak = p.audioOut ? voice.speakOnSpeaker(p.audioOut) : undefined;
    const actuator = new DeviceActuator({ config, log: p.log, led: p.led, audioOut: p.audioOut, system: p.system, speak });
    const introspection: IntrospectionSources = {};
    return { actuator, introspection };
  },
});

export interface MemoryDeps extends Tools {
  getSecret: SecretReader;
  episodic: EpisodicStore | undefined;
  introspection: IntrospectionSources;
}

/** Associative memory, its tools, the episodic history and the SD archive. */
export const MEMORY = defineSubsystem({
  name: "memory",
  ports: ["clock", "log", "settings", "digest", "kernels", "vectorArena", "http", "storage"],
  build(p, deps: MemoryDeps): MemoryEngine {
    const memory = buildMemoryEngine(p, deps.getSecret);
    registerMemoryTools(deps.registry, memory);
    if (deps.episodic) registerEpisodicTool(deps.registry, deps.episodic, () => p.clock.now());
    if (p.storage) registerArchiveTool(deps.registry, memory);
    deps.introspection.memory = memoryUsageSource(memory);
    return memory;
  },
});

export interface ChannelsTableDeps extends Tools {
  secrets: SecretStore;
  config: ConfigStore;
  chats: ChatAllowList;
  actuator: DeviceActuator;
  introspection: IntrospectionSources;
  baseUrls: { [service: string]: string | undefined } | undefined;
  voice: VoiceSynth | undefined;
}

/** Telegram (out), reply.*, web.search. */
export const CHANNELS = defineSubsystem({
  name: "channels",
  ports: ["http", "random", "clock", "settings", "log"],
  build: (p, d: ChannelsTableDeps): ChannelsSubsystem => buildChannelsSubsystem(d.registry, p, d),
});

export interface FilesTableDeps extends Tools {
  secrets: SecretStore;
  introspection: IntrospectionSources;
  baseUrls: { [service: string]: string | undefined } | undefined;
  /** Where files.send delivers when the host has no messenger of its own (Telegram). */
  fallbackMessenger: ChannelsSubsystem["telegram"];
}

/** The SD artifact store, downloads, images and skills. */
export const FILES = defineSubsystem({
  name: "files",
  ports: ["storage", "clock", "http", "resolver", "settings", "random", "messenger"],
  build(p, d: FilesTableDeps): FilesSubsystem {
    const files = buildFilesSubsystem(
      d.registry,
      { ...p, messenger: p.messenger ?? d.fallbackMessenger },
      { image: { apiKey: () => d.secrets.getSecret("openai"), baseUrl: () => d.baseUrls?.openai } },
    );
    d.introspection.files = filesUsageSource(files.artifacts);
    return files;
  },
});

/** tenant.*: people and roles, for admins. */
export const TENANTS = defineSubsystem({
  name: "tenants",
  ports: [],
  build(_ports, d: Tools & { people: PeopleStore; chats: ChatAllowList }): void {
    registerTenantTools(d.registry, d.people, d.chats);
  },
});

/** audio.transcribe: a stored recording, or N seconds from the microphone. */
export const AUDIO_TOOLS = defineSubsystem({
  name: "audio-tools",
  ports: ["audioIn", "storage"],
  build(p, d: Tools & { voice: VoiceSubsystem; artifacts: ArtifactStore }): void {
    registerAudioTools(d.registry, { voice: d.voice, mic: p.audioIn, artifacts: p.storage ? d.artifacts : undefined });
  },
});

export interface IntrospectionTableDeps extends Tools {
  config: ConfigStore;
  secrets: SecretStore;
  introspection: IntrospectionSources;
  actuator: DeviceActuator;
  /** What device.status reads from subsystems built around it (provider order and models, chats, embedder). */
  statusLines: Pick<IntrospectionDeps, "providerOrder" | "allowedChats" | "providerModels" | "embedder">;
}

/** device.status, system.health, device.selftest, device.control, ota.status. */
export const INTROSPECTION = defineSubsystem({
  name: "introspection",
  ports: ["clock", "log", "random", "settings", "storage", "system", "led", "audioOut", "audioIn", "ota"],
  build(p, d: IntrospectionTableDeps): void {
    registerDeviceTools(
      d.registry,
      { ports: p, config: d.config, secretStatus: () => d.secrets.status(), sources: d.introspection, ...d.statusLines },
      d.actuator,
    );
  },
});

export interface ProvidersDeps {
  secrets: SecretStore;
  priority: ProviderPriority;
  config: ConfigStore;
  baseUrls: { [service: string]: string | undefined } | undefined;
  sleep: ((ms: number) => Promise<void>) | undefined;
}

/** The LLM providers in the owner's order and the budget governor every call goes through. */
export const PROVIDERS = defineSubsystem({
  name: "providers",
  ports: ["clock", "http", "log", "random", "settings"],
  build(p, d: ProvidersDeps): { router: ProviderRouter; budget: BudgetGovernor; models: ProviderModels } {
    return buildProviderRouter({
      ports: p,
      getSecret: (n) => d.secrets.getSecret(n),
      priority: () => d.priority.get(),
      utcOffsetMinutes: () => d.config.number("utcOffsetMin"),
      baseUrls: d.baseUrls,
      sleep: d.sleep,
    });
  },
});

/** Sub-agents, routines and wakeups. */
export const AGENTS = defineSubsystem({
  name: "agents",
  ports: ["clock", "log", "random", "settings"],
  build: (p, d: Omit<Parameters<typeof buildAgentsSubsystem>[1], "ports"> & Tools) => buildAgentsSubsystem(d.registry, { ...d, ports: p }),
});

/** The orchestrator turn, bound as the scheduler's runner. */
export const TURN = defineSubsystem({
  name: "turn",
  ports: ["clock", "log", "storage", "system"],
  build: (p, d: Omit<Parameters<typeof buildTurn>[0], "ports">) => buildTurn({ ...d, ports: p }),
});

export { scheduledPrincipal };
