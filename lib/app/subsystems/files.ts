// Builds the SD-card subsystems (artifact store, downloads, image client,
// skills) and registers their tools. buildCore calls it with the owner's
// settings; tests call it with their own options (local servers, test-only
// http downloads).
import type { UsageSource } from "../../people/usage";
import type { Ports } from "../../ports";
import type { ToolRegistry } from "../../registry/registry";
import { ArtifactStore } from "../../store/artifact-store";
import { Downloads, type DownloadOptions } from "../../store/downloads";
import { ImageClient, type ImageProviderConfig } from "../../store/image-client";
import { SkillStore } from "../../store/skills";
import { registerDeliveryTools } from "../../tools/files-deliver";
import { registerFetchTool } from "../../tools/files-fetch";
import { registerFilesTools } from "../../tools/files";
import { registerSkillTools } from "../../tools/skill";

export interface FilesSubsystem {
  artifacts: ArtifactStore;
  downloads: Downloads;
  images: ImageClient;
  skills: SkillStore;
}

export interface FilesSubsystemOptions {
  image: ImageProviderConfig;
  imageTimeoutMs?: number;
  downloads?: DownloadOptions;
}

/** The ports the file stores are built from. */
export type FilesPorts = Pick<Ports, "storage" | "clock" | "http" | "resolver" | "settings" | "random" | "messenger">;

export function buildFilesSubsystem(registry: ToolRegistry, ports: FilesPorts, options: FilesSubsystemOptions): FilesSubsystem {
  const artifacts = new ArtifactStore(ports.storage, ports.clock);
  const downloads = new Downloads(
    artifacts,
    { http: ports.http, resolver: ports.resolver, settings: ports.settings, random: ports.random, clock: ports.clock },
    options.downloads,
  );
  const images = new ImageClient(ports.http, options.image, options.imageTimeoutMs);
  const skills = new SkillStore(ports.storage, ports.clock);
  registerFilesTools(registry, artifacts, downloads);
  registerDeliveryTools(registry, { store: artifacts, images, clock: ports.clock, messenger: ports.messenger });
  registerFetchTool(registry, downloads);
  registerSkillTools(registry, skills);
  return { artifacts, downloads, images, skills };
}

/** The store's gauges for device.status and system.health; throws (reported as a failure) when the card is out. */
export function filesUsageSource(store: ArtifactStore): UsageSource {
  return {
    gauges(p) {
      const u = store.summary(p);
      return [
        { label: "your files", used: u.files, unit: "count" },
        { label: "your file storage", used: u.bytes, cap: p.quota.bytes, unit: "bytes" },
        { label: "SD card free", used: u.freeBytes, unit: "bytes" },
      ];
    },
  };
}
