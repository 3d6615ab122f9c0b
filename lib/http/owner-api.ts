// The owner API under /api/: the human-web-only surface (secrets, MCP clients,
// provider priority, the chat allow-list, people, config, pending approvals).
// Only an admin client's bearer token gets in; no tool reaches any of it.
import type { McpClient } from "../people/clients";
import { requireClient } from "./middleware";
import type { OwnerRoute } from "./owner-route";
import { ownerRoutes, type OwnerApiDeps } from "./owner-routes";
import { jsonAnswer, type RouteSpec } from "./pipeline";

export type { OwnerApiDeps } from "./owner-routes";

/** Largest owner API request body (bytes); every endpoint takes a small object. */
export const OWNER_API_MAX_BODY_BYTES = 16 * 1024;

/** Every owner API endpoint as a route: admin token, then for PUT and POST a JSON object its schema allows. */
export function ownerApiRoutes(deps: OwnerApiDeps, verifyToken: (token: string) => McpClient | undefined): RouteSpec[] {
  const admin = requireClient(verifyToken, "admin");
  return ownerRoutes(deps).map((route) => {
    checkBodyDeclared(route);
    return {
      method: route.method,
      pattern: route.pattern,
      maxBody: route.body ? OWNER_API_MAX_BODY_BYTES : 0,
      errors: "api",
      use: [admin],
      body: route.body,
      handler: async (ctx) => {
        const reply = await route.handler({ params: ctx.params, body: ctx.json ?? {}, caller: ctx.client! });
        return jsonAnswer(reply.status, reply.body);
      },
    };
  });
}

/** Every PUT and POST says what body it takes (so unknown fields are refused everywhere); GET and DELETE take none. */
function checkBodyDeclared(route: OwnerRoute): void {
  const writes = route.method === "PUT" || route.method === "POST";
  if (writes !== (route.body !== undefined)) {
    throw new Error(`owner route ${route.method} ${route.pattern}: ${writes ? "declare its body schema" : "takes no body"}`);
  }
}
