// Owner API endpoints that delete what no tool may: any person's file in the
// file store, and a stored skill capsule (an owner's, or an agent's; the
// built-ins cannot be deleted). Refusals from the stores are one sentence
// carrying their tag (`not-found`, `no-card` when the card is out).
import { HaloError } from "../errors";
import { PERSON_ID_PATTERN } from "../people/people";
import type { Log } from "../ports";
import { makePrincipal, type Principal } from "../registry/principal";
import type { ApiHandler, ApiReply } from "./owner-routes";
import type { Route } from "./router";

export interface FileRemover {
  remove(p: Principal, project: string, name: string): void;
}

export interface SkillRemover {
  removeByOwner(id: string): void;
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

export function deletionRoutes(files: FileRemover | undefined, skills: SkillRemover | undefined, log: Log): Array<Route<ApiHandler>> {
  const routes: Array<Route<ApiHandler>> = [];
  if (files) {
    routes.push({
      method: "DELETE",
      pattern: "/api/files/:ns/:project/:name",
      handler: ({ params }) => {
        if (!PERSON_ID_PATTERN.test(params.ns)) return { status: 404, body: { error: "Not found: no such namespace." } };
        try {
          // The file's owner's own principal: the store deletes only files that namespace owns.
          files.remove(makePrincipal(params.ns, "admin", "mcp"), params.project, params.name);
        } catch (e) {
          return refusal(e, "the file could not be deleted.");
        }
        log.info(`owner api: a file of ${params.ns} deleted`);
        return { status: 200, body: { deleted: { ns: params.ns, project: params.project, name: params.name } } };
      },
    });
  }
  if (skills) {
    routes.push({
      method: "DELETE",
      pattern: "/api/skills/:id",
      handler: ({ params }) => {
        try {
          skills.removeByOwner(params.id);
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
