// Owner API endpoints of the Nostr subsystem: the owner's public key (the ADMIN
// tier of DMs) and the relay list. Both are owner settings no tool can change.
// The subsystem's refusals are HaloErrors (invalid, not-found, full...): the
// pipeline answers each with its tag's status.
import type { Log } from "../ports";
import { BODIES } from "./bodies";
import { ok, withBody, type ApiReply, type OwnerRoute } from "./owner-route";

/** What the Nostr subsystem offers the owner (NostrSubsystem implements it). */
export interface NostrOwnerSettings {
  readonly identity: { readonly pubkey: string; npub(): string };
  owner(): string | undefined;
  /** Each throws a HaloError (one sentence, naming no value) when the input is not acceptable. */
  setOwner(input: string): string;
  relays(): string[];
  setRelays(urls: string[]): string[];
  strangerReply(): string | undefined;
  setStrangerReply(text: string): void;
  /** Adopted skills: the owner approves or removes them by id. */
  readonly skills: {
    list(): Array<{ id: string; address: string; approved: boolean }>;
    approve(id: string): { id: string };
    remove(id: string): { id: string };
  };
}

export function nostrRoutes(nostr: NostrOwnerSettings | undefined, log: Log): OwnerRoute[] {
  if (!nostr) return [];
  const view = (): ApiReply =>
    ok({
      pubkey: nostr.identity.pubkey,
      npub: nostr.identity.npub(),
      owner: nostr.owner() ?? null,
      relays: nostr.relays(),
      strangerReply: nostr.strangerReply() ?? null,
    });
  const skillAction = (verb: "approve" | "reject", done: string): OwnerRoute =>
    withBody({
      method: "POST",
      pattern: `/api/nostr/skills/:id/${verb}`,
      body: BODIES.nothing,
      handler: ({ params }) => {
        const s = verb === "approve" ? nostr.skills.approve(params.id) : nostr.skills.remove(params.id);
        log.info(`owner api: nostr skill ${done}`);
        return ok({ id: s.id, [done]: true });
      },
    });
  return [
    { method: "GET", pattern: "/api/nostr", handler: view },
    withBody({
      method: "PUT",
      pattern: "/api/nostr/owner",
      body: BODIES.nostrOwner,
      handler: ({ body }) => {
        nostr.setOwner(body.pubkey);
        log.info("owner api: nostr owner set");
        return view();
      },
    }),
    withBody({
      method: "PUT",
      pattern: "/api/nostr/relays",
      body: BODIES.nostrRelays,
      handler: ({ body }) => {
        nostr.setRelays(body.relays);
        log.info("owner api: nostr relays set");
        return view();
      },
    }),
    withBody({
      method: "PUT",
      pattern: "/api/nostr/stranger-reply",
      body: BODIES.nostrStrangerReply,
      handler: ({ body }) => {
        nostr.setStrangerReply(body.reply);
        log.info("owner api: nostr reply to strangers set");
        return view();
      },
    }),
    { method: "GET", pattern: "/api/nostr/skills", handler: () => ok({ skills: nostr.skills.list() }) },
    skillAction("approve", "approved"),
    skillAction("reject", "rejected"),
  ];
}
