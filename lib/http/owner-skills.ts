// Owner API endpoints over the stored skill capsules: every capsule with its
// source and state, and deleting one (an owner's, or an agent's; the
// built-ins cannot be deleted). Refusals from the store are one sentence
// carrying their tag (`not-found`, `no-card` when the card is out).
import { HaloError } from "../errors";
import type { Log } from "../ports";
import type { ApiHandler, ApiReply } from "./owner-routes";
import type { Route } from "./router";

export interface SkillShelf {
  /** Every capsule (built-ins first), and a note when the card is out. */
  list?(): { skills: Array<{ id: string }>; note?: string };
  removeByOwner?(id: string): void;
}

/** Longest store refusal passed on. */
const REFUSAL_MAX_CHARS = 200;

/** A store's refusal as an owner API reply, by its tag: not-found 404, invalid 400, anything else (a built-in, the card out) 409. */
function refusal(e: unknown, fallback: string): ApiReply {
  const tag = e instanceof HaloError ? e.tag : undefined;
  const message = e instanceof HaloError && e.message.length <= REFUSAL_MAX_CHARS ? e.message : fallback;
  if (tag === "not-found") return { status: 404, body: { error: `Not found: ${message}` } };
  if (tag === "invalid" || tag === "invalid-arguments") return { status: 400, body: { error: `Bad request: ${message}` } };
  return { status: 409, body: { error: `Conflict: ${message}` } };
}

export function skillShelfRoutes(skills: SkillShelf | undefined, log: Log): Array<Route<ApiHandler>> {
  const routes: Array<Route<ApiHandler>> = [];
  const list = skills?.list?.bind(skills);
  if (list) routes.push({ method: "GET", pattern: "/api/skills", handler: () => ({ status: 200, body: { ...list() } }) });
  const remove = skills?.removeByOwner?.bind(skills);
  if (remove) {
    routes.push({
      method: "DELETE",
      pattern: "/api/skills/:id",
      handler: ({ params }) => {
        try {
          remove(params.id);
        } catch (e) {
          return refusal(e, "the capsule could not be deleted.");
        }
        log.info(`owner api: skill ${params.id} deleted`);
        return { status: 200, body: { deleted: params.id } };
      },
    });
  }
  return routes;
}
