// The Nostr subsystem in the device's table: built from the ports it names, it
// registers its tools; the DM channel is bound to the turn engine once that
// exists (bindNostrChannel).
import { UTC_OFFSET_MAX_MINUTES, UTC_OFFSET_MIN_MINUTES } from "../../util/schedule";
import { defineSubsystem } from "../subsystem";
import type { ConfigStore } from "../../device/config";
import { NostrChannel, type NostrTurnRunner } from "../../nostr/dm-channel";
import { OWNER_PERSON_ID } from "../../people/people";
import { derivePrincipal, type PrincipalDeps } from "../../people/principals";
import type { Log } from "../../ports";
import { makePrincipal, type Principal } from "../../registry/principal";
import type { ToolRegistry } from "../../registry/registry";
import type { ArtifactStore } from "../../store/artifact-store";
import { registerNostrEventTools } from "../../tools/nostr";
import { registerNostrAgentTools } from "../../tools/nostr-agent";
import { registerNostrListTools } from "../../tools/nostr-lists";
import { registerNostrMessageTools } from "../../tools/nostr-messages";
import { registerNostrProfileTools } from "../../tools/nostr-profile";
import { registerNostrSkillTools } from "../../tools/nostr-skills";
import { NostrSubsystem, type SenderTier } from "../../nostr/subsystem";
import { SkillTriggers, type SkillTurnRunner } from "../../nostr/triggers";

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
    registerNostrSkillTools(registry, nostr, nostr.skills, () => nostr.triggers?.list() ?? []);
    return nostr;
  },
});

/** The principal of a sender tier that may talk: the owner's key runs as the owner, followed keys as guests. */
function tierPrincipal(people: PrincipalDeps): (tier: SenderTier, pubkey: string) => Principal | undefined {
  return (tier, pubkey) =>
    tier === "admin"
      ? derivePrincipal(people, "web", OWNER_PERSON_ID)
      : tier === "wot"
        ? makePrincipal(`nostr-${pubkey.slice(0, 16)}`, "guest", "turn")
        : undefined;
}

/** The DM channel and the skill triggers over the core's turn engine; the triggers are kept on `nostr.triggers`. */
export function bindNostrChannel(
  nostr: NostrSubsystem,
  runner: NostrTurnRunner & SkillTurnRunner,
  people: PrincipalDeps,
  log: Log,
  scheduling: { governor: { tryTake(nowMs: number): boolean }; config: ConfigStore },
): NostrChannel {
  const principalFor = tierPrincipal(people);
  const triggers = new SkillTriggers({
    nostr,
    runner,
    governor: scheduling.governor,
    now: () => nostr.nowSeconds() * 1000,
    offsetMinutes: () => {
      const n = scheduling.config.number("utcOffsetMin");
      return Number.isInteger(n) && n >= UTC_OFFSET_MIN_MINUTES && n <= UTC_OFFSET_MAX_MINUTES ? n : 0;
    },
    ownerPrincipal: () => derivePrincipal(people, "web", OWNER_PERSON_ID),
    principalFor,
    log,
  });
  nostr.triggers = triggers;
  return new NostrChannel({
    nostr,
    runner,
    principalFor,
    strangerReply: () => nostr.strangerReply(),
    skillsDone: (skills) => triggers.completed(skills),
    log,
  });
}
