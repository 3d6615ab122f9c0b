// POST /api/nostr/skills/:id/webhook: fires an approved webhook-triggered skill
// (docs/nostr.md). Any client's bearer token gets in, past the caller's credit
// and rate rails (lib/people/rails.ts); the skill runs as its own principal
// (webhook-<id>), never as the owner, and uses none of the owner's scheduled turns.
// The JSON body (at most NOSTR_WEBHOOK_MAX_BODY_BYTES) goes into the turn as
// what fired it; the answer says only whether the turn started.
import type { McpClient } from "../people/clients";
import type { SpendRails } from "../people/rails";
import type { Principal } from "../registry/principal";
import { conflict, HttpError, notFound } from "./http-error";
import { API_JSON_BODY, requireClient } from "./middleware";
import { jsonAnswer, type RouteSpec } from "./pipeline";

/** Largest webhook body read; a larger one is answered 413 unread. */
export const NOSTR_WEBHOOK_MAX_BODY_BYTES = 4096;

export interface NostrWebhookEnvironment {
  verifyToken(token: string): McpClient | undefined;
  /** The caller's principal: the rails are asked for it. */
  principalFor(client: McpClient): Principal;
  rails: Pick<SpendRails, "admit">;
  /** The trigger runtime, once bound. */
  triggers(): { webhook(id: string, body: unknown): "started" | "busy" | "budget" | "not-found" } | undefined;
}

export function nostrWebhookRoute(env: NostrWebhookEnvironment): RouteSpec {
  return {
    method: "POST",
    pattern: "/api/nostr/skills/:id/webhook",
    maxBody: NOSTR_WEBHOOK_MAX_BODY_BYTES,
    errors: "api",
    // The body is what fired the skill, any JSON object: it has no schema of its own.
    use: [requireClient(env.verifyToken, "any"), ...API_JSON_BODY],
    handler: (ctx) => {
      const id = ctx.params.id;
      const triggers = env.triggers();
      const known = !!triggers && /^[0-9a-f]{16}$/.test(id);
      if (known) env.rails.admit(env.principalFor(ctx.client!), "webhook", ctx.client!.name);
      const outcome = known ? triggers!.webhook(id, ctx.json) : "not-found";
      if (outcome === "not-found") throw notFound("no approved webhook-triggered skill has that id.");
      if (outcome === "busy") throw conflict("that skill's previous turn is still running.");
      if (outcome === "budget") throw new HttpError(429, "Too many requests: the daily limit of scheduled turns is reached.");
      return jsonAnswer(202, { fired: true, id });
    },
  };
}
