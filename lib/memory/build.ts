// Assembles the memory engine from the ports: the core calls this once.
import type { Ports } from "../ports";
import { selectEmbedder, type SecretReader } from "./embedders/select";
import { MemoryEngine } from "./engine";
import { EpisodicStore } from "./episodic/episodic";

/** The ports memory is built from. */
export type MemoryPorts = Pick<Ports, "clock" | "log" | "settings" | "digest" | "kernels" | "vectorArena" | "http" | "storage">;

export function buildMemoryEngine(ports: MemoryPorts, getSecret: SecretReader): MemoryEngine {
  return new MemoryEngine({
    clock: ports.clock,
    log: ports.log,
    settings: ports.settings,
    digest: ports.digest,
    kernels: ports.kernels,
    arena: ports.vectorArena,
    embedder: selectEmbedder(ports.settings, getSecret, ports.http, ports.log),
    storage: ports.storage,
  });
}

/** An episodic store over the ports' SD card, or undefined when the host has none. */
export function episodicOverStorage(ports: Pick<Ports, "storage" | "clock" | "log">): EpisodicStore | undefined {
  return ports.storage ? new EpisodicStore(ports.storage, ports.clock, ports.log) : undefined;
}
