// Owner API endpoints over the stored skill capsules: every capsule with its
// source and state, and deleting one (an owner's, or an agent's; the
// built-ins cannot be deleted). The store's refusals are HaloErrors
// (`not-found`, `invalid`, `reserved`, `no-card` when the card is out),
// answered with their tag's status.
import type { Log } from "../ports";
import { ok, type OwnerRoute } from "./owner-route";

export interface SkillShelf {
  /** Every capsule (built-ins first), and a note when the card is out. */
  list?(): { skills: Array<{ id: string }>; note?: string };
  removeByOwner?(id: string): void;
}

export function skillShelfRoutes(skills: SkillShelf | undefined, log: Log): OwnerRoute[] {
  const routes: OwnerRoute[] = [];
  const list = skills?.list?.bind(skills);
  if (list) routes.push({ method: "GET", pattern: "/api/skills", handler: () => ok({ ...list() }) });
  const remove = skills?.removeByOwner?.bind(skills);
  if (remove) {
    routes.push({
      method: "DELETE",
      pattern: "/api/skills/:id",
      handler: ({ params }) => {
        remove(params.id);
        log.info(`owner api: skill ${params.id} deleted`);
        return ok({ deleted: params.id });
      },
    });
  }
  return routes;
}
