// Owner API endpoints of the Nostr subsystem: the owner's public key (the ADMIN
// tier of DMs) and the relay list. Both are owner settings no tool can change.
import { HaloError } from "../errors";
import type { Log } from "../ports";
import type { ApiHandler, ApiReply } from "./owner-routes";
import type { Route } from "./router";

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

const fail = (status: number, error: string): ApiReply => ({ status, body: { error } });

function refusal(e: unknown): ApiReply {
  if (!(e instanceof HaloError)) throw e;
  return fail(400, `Bad request: ${e.sentence}`);
}

export function nostrRoutes(nostr: NostrOwnerSettings | undefined, log: Log): Array<Route<ApiHandler>> {
  if (!nostr) return [];
  const view = (): ApiReply => ({
    status: 200,
    body: {
      pubkey: nostr.identity.pubkey,
      npub: nostr.identity.npub(),
      owner: nostr.owner() ?? null,
      relays: nostr.relays(),
      strangerReply: nostr.strangerReply() ?? null,
    },
  });
  return [
    { method: "GET", pattern: "/api/nostr", handler: view },
    {
      method: "PUT",
      pattern: "/api/nostr/owner",
      handler: ({ body }) => {
        const keys = Object.keys(body);
        if (keys.length !== 1 || typeof body.pubkey !== "string") return fail(400, 'Bad request: the body is {"pubkey": "<npub or hex>"}.');
        try {
          nostr.setOwner(body.pubkey);
        } catch (e) {
          return refusal(e);
        }
        log.info("owner api: nostr owner set");
        return view();
      },
    },
    {
      method: "PUT",
      pattern: "/api/nostr/relays",
      handler: ({ body }) => {
        const relays = body.relays;
        if (Object.keys(body).length !== 1 || !Array.isArray(relays) || !relays.every((r) => typeof r === "string"))
          return fail(400, 'Bad request: the body is {"relays": ["wss://..."]}.');
        try {
          nostr.setRelays(relays as string[]);
        } catch (e) {
          return refusal(e);
        }
        log.info("owner api: nostr relays set");
        return view();
      },
    },
    {
      method: "PUT",
      pattern: "/api/nostr/stranger-reply",
      handler: ({ body }) => {
        if (Object.keys(body).length !== 1 || typeof body.reply !== "string")
          return fail(400, 'Bad request: the body is {"reply": "<text, or empty to send nothing>"}.');
        try {
          nostr.setStrangerReply(body.reply);
        } catch (e) {
          return refusal(e);
        }
        log.info("owner api: nostr reply to strangers set");
        return view();
      },
    },
    { method: "GET", pattern: "/api/nostr/skills", handler: () => ({ status: 200, body: { skills: nostr.skills.list() } }) },
    {
      method: "POST",
      pattern: "/api/nostr/skills/:id/approve",
      handler: ({ params }) => skillAction(() => nostr.skills.approve(params.id), log, "approved"),
    },
    {
      method: "POST",
      pattern: "/api/nostr/skills/:id/reject",
      handler: ({ params }) => skillAction(() => nostr.skills.remove(params.id), log, "rejected"),
    },
  ];
}

function skillAction(act: () => { id: string }, log: Log, done: string): ApiReply {
  try {
    const s = act();
    log.info(`owner api: nostr skill ${done}`);
    return { status: 200, body: { id: s.id, [done]: true } };
  } catch (e) {
    if (e instanceof HaloError && e.tag === "not-found") return fail(404, `Not found: ${e.sentence}`);
    throw e;
  }
}
