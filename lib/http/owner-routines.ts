import { errorTag } from "../errors";
// Owner API endpoints for routines and alerts: list routines and wakeups,
// approve or reject a pending routine, delete any routine or wakeup, read and
// clear the owner alerts. Same auth and error style as the other owner routes.
import type { OwnerAlert } from "../agents/alerts";
import type { RoutineRecord } from "../agents/routines";
import type { Log } from "../ports";
import { noFields } from "./owner-fields";
import type { ApiCall, ApiHandler, ApiReply } from "./owner-routes";
import type { Route } from "./router";

/** What the routines store offers the owner (Routines implements it). */
export interface RoutineApprovals {
  list(): RoutineRecord[];
  /** Each throws (one sentence, naming no secret) when no such routine is pending or exists. */
  approve(id: string): RoutineRecord;
  reject(id: string): RoutineRecord;
  cancel(id: string): RoutineRecord;
}

/** The owner alerts (AlertLog implements it). */
export interface AlertReader {
  list(): OwnerAlert[];
  clear(): number;
}

export function routineRoutes(routines: RoutineApprovals | undefined, alerts: AlertReader | undefined, log: Log): Array<Route<ApiHandler>> {
  const routes: Array<Route<ApiHandler>> = [];
  if (routines) {
    const act =
      (verb: "approve" | "reject" | "cancel", missing: string, done: string) =>
      ({ params, body }: ApiCall): ApiReply => {
        const extra = noFields(body);
        if (extra) return extra;
        let r: RoutineRecord;
        try {
          r = routines[verb](params.id);
        } catch (e) {
          const why = errorTag(e) === "not-found" ? missing : `Conflict: ${e instanceof Error ? e.message : "the change failed."}`;
          return { status: why === missing ? 404 : 409, body: { error: why } };
        }
        log.info(`owner api: ${r.kind} ${r.id} ${done}`);
        return { status: 200, body: verb === "approve" ? { id: r.id, decision: done, nextRun: r.nextRun } : { id: r.id, decision: done } };
      };
    routes.push(
      { method: "GET", pattern: "/api/routines", handler: () => ({ status: 200, body: { routines: routines.list() } }) },
      {
        method: "POST",
        pattern: "/api/routines/:id/approve",
        handler: act("approve", "Not found: no pending routine with that id.", "approved"),
      },
      {
        method: "POST",
        pattern: "/api/routines/:id/reject",
        handler: act("reject", "Not found: no pending routine with that id.", "rejected"),
      },
      {
        method: "DELETE",
        pattern: "/api/routines/:id",
        handler: act("cancel", "Not found: no routine or wakeup with that id.", "deleted"),
      },
    );
  }
  if (alerts) {
    routes.push(
      { method: "GET", pattern: "/api/alerts", handler: () => ({ status: 200, body: { alerts: alerts.list() } }) },
      {
        method: "DELETE",
        pattern: "/api/alerts",
        handler: () => {
          const cleared = alerts.clear();
          log.info(`owner api: ${cleared} alerts cleared`);
          return { status: 200, body: { cleared } };
        },
      },
    );
  }
  return routes;
}
