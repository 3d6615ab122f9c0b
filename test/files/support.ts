// A registry with the files subsystem over chosen ports: memory or folder
// storage, a fake clock, a local image server, test-only http downloads.
import { nodeTimers } from "../../hosts/sim/ports/timers.ts";
import { fakeClock, memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import type { RemovableStorage } from "../../hosts/sim/ports/removable.ts";
import { VALIDATORS } from "../../lib/generated/validators.js";
import type { Messenger, OutgoingFile, Ports } from "../../lib/ports.ts";
import type { Principal } from "../../lib/registry/principal.ts";
import { ToolRegistry } from "../../lib/registry/registry.ts";
import type { DispatchResult } from "../../lib/registry/types.ts";
import type { DownloadOptions } from "../../lib/store/downloads.ts";
import { ResultsRing } from "../../lib/registry/results-ring.ts";
import { ArtifactStore } from "../../lib/store/artifact-store.ts";
import { Downloads } from "../../lib/store/downloads.ts";
import { ImageClient } from "../../lib/store/image-client.ts";
import { SkillStore } from "../../lib/store/skills.ts";
import { DELIVERY_TOOLS } from "../../lib/tools/files-deliver.ts";
import { FETCH_TOOLS } from "../../lib/tools/files-fetch.ts";
import { FILES_TOOLS } from "../../lib/tools/files.ts";
import { SKILL_TOOLS } from "../../lib/tools/skill.ts";

export interface FilesHarness {
  artifacts: ArtifactStore;
  downloads: Downloads;
  images: ImageClient;
  skills: SkillStore;
  registry: ToolRegistry;
  ports: Ports;
  storage: RemovableStorage;
  clock: ReturnType<typeof fakeClock>;
  call(name: string, args: unknown, p: Principal): Promise<DispatchResult>;
}

export interface HarnessOptions {
  storage?: RemovableStorage;
  imageBaseUrl?: string;
  imageKey?: string;
  downloads?: DownloadOptions;
  messenger?: Messenger;
}

export function filesHarness(options: HarnessOptions = {}): FilesHarness {
  const clock = fakeClock();
  const storage = options.storage ?? memoryStorage();
  const log = memoryLog();
  const ports = memoryPorts({ clock, storage, log, messenger: options.messenger });
  const registry = new ToolRegistry({ validators: VALIDATORS, ring: new ResultsRing(), log, clock, timers: nodeTimers });
  const artifacts = new ArtifactStore(ports.storage, ports.clock);
  const sub = {
    artifacts,
    downloads: new Downloads(artifacts, ports, options.downloads),
    images: new ImageClient(ports.http, { apiKey: () => options.imageKey, baseUrl: () => options.imageBaseUrl }),
    skills: new SkillStore(ports.storage, ports.clock),
  };
  const services = { ...ports, ...sub, outbox: ports.messenger };
  for (const list of [FILES_TOOLS, DELIVERY_TOOLS, FETCH_TOOLS, SKILL_TOOLS]) registry.registerAll(list, services);
  return { ...sub, registry, ports, storage, clock, call: (name, args, p) => registry.dispatch(name, args, p) };
}

/** A messenger port that keeps what it was given (the Telegram client does not exist yet). */
export function recordingMessenger(
  failWith?: string,
): Messenger & { sent: Array<{ how: "photo" | "document"; file: OutgoingFile; chatId?: string }> } {
  const sent: Array<{ how: "photo" | "document"; file: OutgoingFile; chatId?: string }> = [];
  const deliver =
    (how: "photo" | "document") =>
    async (file: OutgoingFile, chatId?: string): Promise<void> => {
      if (failWith) throw new Error(failWith);
      sent.push({ how, file, chatId });
    };
  return { sent, sendPhoto: deliver("photo"), sendDocument: deliver("document") };
}

/** A tiny valid PNG (1x1, transparent). */
export const TINY_PNG = Uint8Array.from(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64"),
);
