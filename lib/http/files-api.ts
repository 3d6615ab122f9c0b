// The file store over HTTP (no tool deletes files). One delete for two URLs:
// DELETE /api/files/:project/:name deletes one of the caller's own files (any
// client; the caller's principal decides whose files it reaches), and
// DELETE /api/files/:ns/:project/:name lets the owner delete any person's
// file. The owner also lists who has files and each person's files. The
// store's refusals are HaloErrors (not-found, invalid, no-card), answered with
// their tag's status.
import type { McpClient } from "../people/clients";
import { PERSON_ID_PATTERN } from "../people/people";
import type { Log } from "../ports";
import { makePrincipal, type Principal } from "../registry/principal";
import type { ArtifactRecord, ArtifactStore } from "../store/artifact-store";
import { clipForMessage } from "../util/text";
import { notFound } from "./http-error";
import { requireClient } from "./middleware";
import { jsonAnswer, type RequestContext, type RouteSpec } from "./pipeline";

export interface FilesApiDeps {
  artifacts: Pick<ArtifactStore, "remove" | "owners" | "ownedBy">;
  principalFor(client: McpClient): Principal;
  log: Log;
}

/** Files one GET /api/files/<ns> lists at most (the first, by project and name). */
export const FILES_LISTING_MAX = 500;

/** The namespace in an owner URL: a person's id, else 404 (a malformed one names no file). */
function namespace(ctx: RequestContext): string {
  const ns = ctx.params.ns;
  if (!PERSON_ID_PATTERN.test(ns)) throw notFound("no such namespace.");
  return ns;
}

function fileJson(r: ArtifactRecord): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {
    project: r.project,
    name: r.name,
    kind: r.kind,
    size: r.size,
    shared: r.shared,
    updated: r.updated,
  };
  if (r.quarantine) out.quarantined = true;
  return out;
}

export function filesApiRoutes(deps: FilesApiDeps, verifyToken: (token: string) => McpClient | undefined): RouteSpec[] {
  const admin = [requireClient(verifyToken, "admin")];
  /** The one delete: `whose` is the principal whose own file goes (the store deletes nothing else). */
  const remove = (whose: (ctx: RequestContext) => Principal, byOwner: boolean) => (ctx: RequestContext) => {
    const owner = whose(ctx);
    const { project, name } = ctx.params;
    deps.artifacts.remove(owner, project, name);
    if (byOwner) deps.log.info(`owner api: a file of ${clipForMessage(owner.ns, 49)} deleted`);
    return jsonAnswer(200, { deleted: { ns: owner.ns, project, name } });
  };
  return [
    {
      method: "DELETE",
      pattern: "/api/files/:project/:name",
      maxBody: 0,
      errors: "api",
      use: [requireClient(verifyToken, "any")],
      handler: remove((ctx) => deps.principalFor(ctx.client!), false),
    },
    {
      method: "DELETE",
      pattern: "/api/files/:ns/:project/:name",
      maxBody: 0,
      errors: "api",
      use: admin,
      // The file's owner's own principal: the store deletes only files that namespace owns.
      handler: remove((ctx) => makePrincipal(namespace(ctx), "admin", "mcp"), true),
    },
    {
      method: "GET",
      pattern: "/api/files",
      maxBody: 0,
      errors: "api",
      use: admin,
      handler: () => jsonAnswer(200, { people: deps.artifacts.owners() }),
    },
    {
      method: "GET",
      pattern: "/api/files/:ns",
      maxBody: 0,
      errors: "api",
      use: admin,
      handler: (ctx) => {
        const ns = namespace(ctx);
        const all = deps.artifacts.ownedBy(ns);
        const body: { [key: string]: unknown } = { ns, files: all.slice(0, FILES_LISTING_MAX).map(fileJson) };
        if (all.length > FILES_LISTING_MAX) body.more = all.length - FILES_LISTING_MAX;
        return jsonAnswer(200, body);
      },
    },
  ];
}
