// Owner API endpoints for routines and alerts: list routines and wakeups,
// approve or reject a pending routine, delete any routine or wakeup, read and
// clear the owner alerts. Same auth and error style as the other owner routes:
// the store's refusals are HaloErrors (not-found, storage-error), answered
// with their tag's status.
import type { OwnerAlert } from "../agents/alerts";
import type { RoutineRecord } from "../agents/routines";
import type { Log } from "../ports";
import { BODIES } from "./bodies";
import { ok, withBody, type ApiCall, type ApiReply, type OwnerRoute } from "./owner-route";

/** What the routines store offers the owner (Routines implements it). */
export interface RoutineApprovals {
  list(): RoutineRecord[];
  /** Each throws a HaloError (one sentence, naming no secret) when no such routine is pending or exists. */
  approve(id: string): RoutineRecord;
  reject(id: string): RoutineRecord;
  cancel(id: string): RoutineRecord;
}

/** The owner alerts (AlertLog implements it). */
export interface AlertReader {
  list(): OwnerAlert[];
  clear(): number;
}

export function routineRoutes(routines: RoutineApprovals | undefined, alerts: AlertReader | undefined, log: Log): OwnerRoute[] {
  const routes: OwnerRoute[] = [];
  if (routines) {
    const act =
      (verb: "approve" | "reject" | "cancel", done: string) =>
      ({ params }: ApiCall): ApiReply => {
        const r = routines[verb](params.id);
        log.info(`owner api: ${r.kind} ${r.id} ${done}`);
        return ok(verb === "approve" ? { id: r.id, decision: done, nextRun: r.nextRun } : { id: r.id, decision: done });
      };
    routes.push(
      { method: "GET", pattern: "/api/routines", handler: () => ok({ routines: routines.list() }) },
      withBody({ method: "POST", pattern: "/api/routines/:id/approve", body: BODIES.nothing, handler: act("approve", "approved") }),
      withBody({ method: "POST", pattern: "/api/routines/:id/reject", body: BODIES.nothing, handler: act("reject", "rejected") }),
      { method: "DELETE", pattern: "/api/routines/:id", handler: act("cancel", "deleted") },
    );
  }
  if (alerts) {
    routes.push(
      { method: "GET", pattern: "/api/alerts", handler: () => ok({ alerts: alerts.list() }) },
      {
        method: "DELETE",
        pattern: "/api/alerts",
        handler: () => {
          const cleared = alerts.clear();
          log.info(`owner api: ${cleared} alerts cleared`);
          return ok({ cleared });
        },
      },
    );
  }
  return routes;
}
