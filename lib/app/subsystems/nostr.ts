// Nostr: the device's key, its relays, DMs and skills (docs/nostr.md); then, on the turn, the DM
// channel (DMs to the device's key run as turns) and the skill triggers.
import { NostrChannel } from "../../nostr/dm-channel";
import { NostrSubsystem, type SenderTier } from "../../nostr/subsystem";
import { SkillTriggers } from "../../nostr/triggers";
import { OWNER_PERSON_ID } from "../../people/people";
import { derivePrincipal, type PrincipalDeps } from "../../people/principals";
import { makePrincipal, type Principal } from "../../registry/principal";
import { referenceResolver } from "../../tools/context-references";
import { redactCashuTokens } from "../../util/cashu-token";
import { utcOffsetMinutes } from "../../util/schedule";
import { defineSubsystem } from "../subsystem";

export const NOSTR = defineSubsystem({
  name: "nostr",
  ports: ["settings", "random", "log", "clock", "webSocket", "timers", "curve", "digest"],
  needs: [],
  provides: ["nostr"],
  build: (p) => ({
    nostr: new NostrSubsystem({
      settings: p.settings,
      random: p.random,
      log: p.log,
      curve: p.curve,
      digest: p.digest,
      now: () => p.clock.now(),
      ws: p.webSocket,
      sleep: (ms) => p.timers.sleep(ms),
    }),
  }),
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

export const NOSTR_TURNS = defineSubsystem({
  name: "nostr-turns",
  ports: ["log", "settings"],
  needs: ["nostr", "turn", "governor", "config", "people", "clients", "chats", "rails", "wallet", "registry"],
  provides: ["triggers", "nostrChannel"],
  build(p, d) {
    const { nostr, turn } = d;
    const principalFor = tierPrincipal(d);
    // A skill's {{...}} references run its context tools under the turn's principal (docs/nostr.md).
    const references = referenceResolver(d.registry);
    const triggers = new SkillTriggers({
      nostr,
      runner: turn,
      governor: d.governor,
      now: () => nostr.nowSeconds() * 1000,
      offsetMinutes: () => utcOffsetMinutes(d.config),
      ownerPrincipal: () => derivePrincipal(d, "web", OWNER_PERSON_ID),
      principalFor,
      rails: d.rails,
      references,
      log: p.log,
    });
    const nostrChannel = new NostrChannel({
      nostr,
      runner: turn,
      principalFor,
      rails: d.rails,
      strangerReply: () => nostr.strangerReply(),
      skillsDone: (skills) => triggers.completed(skills),
      settings: p.settings,
      // A token in a DM from anyone but the owner waits for the owner (docs/wallet.md, "Rails").
      screenTokens: (text, sender) =>
        d.wallet.available() === true
          ? d.wallet.screenMessage(text, `a Nostr DM from ${sender.slice(0, 16)}`).text
          : redactCashuTokens(text),
      references,
      log: p.log,
    });
    return { triggers, nostrChannel };
  },
});
