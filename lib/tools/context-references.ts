// What a skill's `{{...}}` reference may stand for (lib/nostr/references.ts): only the context tools
// below, each read-only and taking no arguments, by Halo's name, its plain spelling or a reference agent's
// name (lib/registry/seed-names.ts). A reference runs its tool through the registry under the turn's own
// principal, so a guest's skill gets no admin-only block and a scheduled turn none that scheduled turns
// refuse. Nothing else resolves: no setting, secret, knob or tool with arguments is reachable this way.
import type { ReferenceResolver } from "../nostr/references";
import type { Principal } from "../registry/principal";
import { resolveToolName } from "../registry/seed-names";

/** The tools a reference may run (Halo's names). */
export const CONTEXT_REFERENCE_TOOLS: readonly string[] = [
  "agent.identity",
  "agent.version",
  "nostr.admin_identity",
  "nostr.admin_profile",
  "nostr.admin_contacts",
  "nostr.admin_relays",
  "nostr.admin_notes",
  "nostr.agent_profile",
  "nostr.agent_contacts",
  "nostr.agent_relays",
  "nostr.agent_notes",
  "memory.nostr_recall",
  "task.list",
];

/** The registry's part a resolver uses. */
export interface ReferenceRegistry {
  has(name: string): boolean;
  all(): Array<{ name: string }>;
  dispatch(name: string, args: unknown, principal: Principal): Promise<{ text: string; isError?: boolean; error?: { tag: string } }>;
}

/** The context tool a reference names, or undefined when it names none (whatever else it may name). */
export function contextToolFor(name: string, registry: Pick<ReferenceRegistry, "has" | "all">): string | undefined {
  const tool = resolveToolName(name, registry);
  return tool !== undefined && CONTEXT_REFERENCE_TOOLS.indexOf(tool) >= 0 ? tool : undefined;
}

/** A resolver over `registry`, for the DM channel and the skill triggers. */
export function referenceResolver(registry: ReferenceRegistry): ReferenceResolver {
  return async (name, principal) => {
    const tool = contextToolFor(name, registry);
    if (tool === undefined) return { unavailable: "not a context block" };
    const r = await registry.dispatch(tool, {}, principal);
    if (r.isError) return { unavailable: r.error?.tag ?? "failed" };
    return { text: r.text };
  };
}
