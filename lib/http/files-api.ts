// DELETE /api/files/:project/:name: a client deletes one of its own files (no
// tool deletes files). The caller's principal decides whose files it sees, so
// a member's token reaches only that member's files.
import { HaloError } from "../errors";
import type { McpClient } from "../people/clients";
import type { Principal } from "../registry/principal";
import type { ArtifactStore } from "../store/artifact-store";
import { HttpError } from "./http-error";
import { requireClient } from "./middleware";
import { jsonAnswer, type Middleware, type RouteSpec } from "./pipeline";

export interface FilesApiDeps {
  artifacts: Pick<ArtifactStore, "remove">;
  principalFor(client: McpClient): Principal;
}

export function filesApiRoutes(
  deps: FilesApiDeps,
  verifyToken: (token: string) => McpClient | undefined,
  guards: Middleware[],
): RouteSpec[] {
  return [
    {
      method: "DELETE",
      pattern: "/api/files/:project/:name",
      maxBody: 0,
      errors: "api",
      use: [...guards, requireClient(verifyToken, "any")],
      handler: (ctx) => {
        const { project, name } = ctx.params;
        try {
          deps.artifacts.remove(deps.principalFor(ctx.client!), project, name);
        } catch (e) {
          // The store's refusals are one sentence naming no secret (not found, a bad name, no card).
          if (e instanceof HaloError)
            throw new HttpError(e.tag === "not-found" ? 404 : e.tag === "invalid" || e.tag === "invalid-arguments" ? 400 : 409, e.message);
          throw e;
        }
        return jsonAnswer(200, { deleted: `${project}/${name}` });
      },
    },
  ];
}
