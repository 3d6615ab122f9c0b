import { VALIDATORS } from "./generated/validators.js";
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
import { noSecrets, type SecretReader } from "./memory/embedder-select";
import type { MemoryEngine } from "./memory/engine";
import type { EpisodicStore } from "./memory/episodic";
import { memoryUsageSource } from "./memory/usage";
import type { Ports } from "./ports";
import { ToolRegistry } from "./registry/registry";
import type { CompiledValidator } from "./registry/types";
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
}

/** Host choices buildCore cannot read from the ports. */
export interface CoreOptions {
  /** Secrets for provider code (the embeddings key). Default: reads nothing, so the offline embedder is used. */
  getSecret?: SecretReader;
  /** The episodic store (device and simulator bind one over their SD card); memory.episodic exists only with it. */
  episodic?: EpisodicStore;
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
  const memory = buildMemoryEngine(ports, options.getSecret ?? noSecrets);
  registerMemoryTools(registry, memory);
  if (options.episodic) registerEpisodicTool(registry, options.episodic, () => ports.clock.now());
  if (ports.storage) registerArchiveTool(registry, memory);
  introspection.memory = memoryUsageSource(memory);
  const files = buildFilesSubsystem(registry, ports, { image: { apiKey: () => secrets.getSecret("openai"), baseUrl: () => undefined } });
  introspection.files = filesUsageSource(files.artifacts);
  registerTenantTools(registry, people, chats);
  registerDeviceTools(registry, { ports, config, secretStatus: () => secrets.status(), priority, chats, sources: introspection }, actuator);
  const { artifacts, downloads, skills } = files;
  return { ports, registry, ring, clients, secrets, people, chats, priority, config, actuator, introspection, artifacts, downloads, skills, memory, episodic: options.episodic };
}
