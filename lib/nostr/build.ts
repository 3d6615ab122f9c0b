// The Nostr subsystem in the device's table: built from the ports it names, it
// registers its tools; the DM channel is bound to the turn engine once that
// exists (bindNostrChannel).
import { defineSubsystem } from "../app/subsystem";
import { NostrChannel, type NostrTurnRunner } from "../chat/nostr-channel";
import { OWNER_PERSON_ID } from "../people/people";
import { derivePrincipal, type PrincipalDeps } from "../people/principals";
import type { Log } from "../ports";
import { makePrincipal } from "../registry/principal";
import type { ToolRegistry } from "../registry/registry";
import type { ArtifactStore } from "../store/artifact-store";
import { registerNostrEventTools } from "../tools/nostr";
import { registerNostrAgentTools } from "../tools/nostr-agent";
import { registerNostrListTools } from "../tools/nostr-lists";
import { registerNostrMessageTools } from "../tools/nostr-messages";
import { registerNostrProfileTools } from "../tools/nostr-profile";
import { registerNostrSkillTools } from "../tools/nostr-skills";
import { NostrSubsystem } from "./subsystem";

/** Identity, relays, DMs, lists and skills over Nostr (docs/nostr.md). */
export const NOSTR = defineSubsystem({
  name: "nostr",
  ports: ["settings", "random", "log", "clock", "webSocket", "http", "system"],
  build(p, deps: { registry: ToolRegistry; artifacts: ArtifactStore; sleep?: (ms: number) => Promise<void> }): NostrSubsystem {
    const { registry, sleep } = deps;
    const nostr = new NostrSubsystem({
      settings: p.settings,
      random: p.random,
      log: p.log,
      now: () => p.clock.now(),
      // Without a timer the pool could not back off or time out: no relays then.
      ws: sleep ? p.webSocket : undefined,
      sleep: sleep ?? (() => Promise.resolve()),
    });
    registerNostrEventTools(registry, nostr);
    registerNostrMessageTools(registry, nostr);
    registerNostrAgentTools(registry, nostr, p.system);
    registerNostrProfileTools(registry, nostr, p.http, deps.artifacts);
    registerNostrListTools(registry, nostr);
    registerNostrSkillTools(registry, nostr, nostr.skills);
    return nostr;
  },
});

/** The DM channel over the core's turn engine: the owner's key runs as the owner, followed keys as guests. */
export function bindNostrChannel(nostr: NostrSubsystem, runner: NostrTurnRunner, people: PrincipalDeps, log: Log): NostrChannel {
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
    log,
  });
}
