// What device.status, system.health and device.selftest read: the ports, the knobs, whether each
// secret is set, and every subsystem's usage. With an update engine, it is what the ota port reports.
import { agentsUsageSource } from "../../agents/usage";
import { webUsageSource } from "../../web/search-budget";
import { nostrUsageSource } from "../../nostr/usage";
import { memoryUsageSource } from "../../memory/usage";
import type { IntrospectionDeps } from "../../status/sources";
import { filesUsageSource } from "../../store/artifact-usage";
import { budgetUsageSource } from "../../turn/usage";
import { defineSubsystem } from "../subsystem";

export const STATUS = defineSubsystem({
  name: "status",
  ports: ["clock", "log", "random", "settings", "storage", "system", "led", "audioOut", "audioIn", "ota", "timers"],
  needs: [
    "config",
    "secrets",
    "priority",
    "chats",
    "models",
    "memory",
    "artifacts",
    "agents",
    "routines",
    "governor",
    "budget",
    "turn",
    "webBudget",
    "telegram",
    "updates",
    "wake",
    "nostr",
  ],
  provides: ["status"],
  build(p, d): { status: IntrospectionDeps } {
    const web = webUsageSource(d.webBudget);
    return {
      status: {
        ports: { ...p, ota: d.updates ?? p.ota },
        config: d.config,
        secretStatus: () => d.secrets.status(),
        sources: {
          memory: memoryUsageSource(d.memory),
          files: filesUsageSource(d.artifacts),
          agents: agentsUsageSource(d.agents, d.routines, d.governor, () => p.clock.now()),
          budget: budgetUsageSource(d.budget, d.turn.usage),
          // Web search is "not configured" until the owner sets its key, and counts from then on.
          get web() {
            return d.secrets.isSet("tavily") ? web : undefined;
          },
          nostr: nostrUsageSource(d.nostr),
          chatLink: { health: () => d.telegram.linkHealth() },
        },
        providerOrder: () => d.priority.get(),
        allowedChats: () => d.chats.list().length,
        providerModels: () => d.models.all().map((m) => `${m.provider} ${m.model}${m.chosen ? " (owner's choice)" : " (default)"}`),
        wake: d.wake ? () => d.wake!.state() : undefined,
        embedder: () => ({ id: d.memory.embedder.id, vectors: d.memory.store.count }),
      },
    };
  },
});
