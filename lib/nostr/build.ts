// Builds the Nostr subsystem and registers its tools; the DM channel is bound
// to the turn engine once that exists (bindNostrChannel).
import { NostrChannel, type NostrTurnRunner } from "../chat/nostr-channel";
import { OWNER_PERSON_ID } from "../people/people";
import { derivePrincipal, type PrincipalDeps } from "../people/principals";
import type { Ports } from "../ports";
import { makePrincipal } from "../registry/principal";
import type { ToolRegistry } from "../registry/registry";
import { registerNostrEventTools } from "../tools/nostr";
import { registerNostrAgentTools } from "../tools/nostr-agent";
import { registerNostrListTools } from "../tools/nostr-lists";
import { registerNostrMessageTools } from "../tools/nostr-messages";
import { registerNostrProfileTools } from "../tools/nostr-profile";
import { registerNostrSkillTools } from "../tools/nostr-skills";
import type { ArtifactStore } from "../store/artifact-store";
import { NostrSubsystem } from "./subsystem";

export function buildNostrSubsystem(
  registry: ToolRegistry,
  ports: Ports,
  artifacts: ArtifactStore,
  sleep?: (ms: number) => Promise<void>,
): NostrSubsystem {
  const nostr = new NostrSubsystem({
    settings: ports.settings,
    random: ports.random,
    log: ports.log,
    now: () => ports.clock.now(),
    // Without a timer the pool could not back off or time out: no relays then.
    ws: sleep ? ports.webSocket : undefined,
    sleep: sleep ?? (() => Promise.resolve()),
  });
  registerNostrEventTools(registry, nostr);
  registerNostrMessageTools(registry, nostr);
  registerNostrAgentTools(registry, nostr, ports.system);
  registerNostrProfileTools(registry, nostr, ports.http, artifacts);
  registerNostrListTools(registry, nostr);
  registerNostrSkillTools(registry, nostr, nostr.skills);
  return nostr;
}

/** The DM channel over the core's turn engine: the owner's key runs as the owner, followed keys as guests. */
export function bindNostrChannel(nostr: NostrSubsystem, runner: NostrTurnRunner, people: PrincipalDeps, ports: Ports): NostrChannel {
  return new NostrChannel({
    nostr,
    runner,
    principalFor: (tier, pubkey) =>
      tier === "admin"
        ? derivePrincipal(people, "web", OWNER_PERSON_ID)
        : tier === "wot"
          ? makePrincipal(`nostr-${pubkey.slice(0, 16)}`, "guest", "turn")
          : undefined,
    strangerReply: () => nostr.strangerReply(),
    log: ports.log,
  });
}
