// Associative memory (the int8 vector store, recall, forgetting, the SD archive) and the episodic
// history on the card.
import { selectEmbedder } from "../../memory/embedders/select";
import { MemoryEngine } from "../../memory/engine";
import { EpisodicStore } from "../../memory/episodic/episodic";
import { defineSubsystem } from "../subsystem";

export const MEMORY = defineSubsystem({
  name: "memory",
  ports: ["clock", "log", "settings", "digest", "kernels", "vectorArena", "http", "storage"],
  needs: ["secrets"],
  provides: ["memory", "episodic"],
  build(p, { secrets }) {
    const memory = new MemoryEngine({
      clock: p.clock,
      log: p.log,
      settings: p.settings,
      digest: p.digest,
      kernels: p.kernels,
      arena: p.vectorArena,
      embedder: selectEmbedder(p.settings, (n) => secrets.getSecret(n), p.http, p.log),
      storage: p.storage,
    });
    return { memory, episodic: p.storage ? new EpisodicStore(p.storage, p.clock, p.log) : undefined };
  },
});
