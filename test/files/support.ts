// A registry with the files subsystem over chosen ports: memory or folder
// storage, a fake clock, a local image server, test-only http downloads.
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
import { ResultsRing } from "../../lib/registry/results-ring";
import { buildFilesSubsystem, type FilesSubsystem } from "../../lib/app/subsystems/files.ts";

export interface FilesHarness extends FilesSubsystem {
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
  const registry = new ToolRegistry({ validators: VALIDATORS, ring: new ResultsRing(), log });
  const sub = buildFilesSubsystem(registry, ports, {
    image: { apiKey: () => options.imageKey, baseUrl: () => options.imageBaseUrl },
    downloads: options.downloads,
  });
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
