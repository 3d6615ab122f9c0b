// The owner API under /api/: the human-web-only surface (secrets, MCP clients,
// provider priority, the chat allow-list, people, config, pending approvals).
// Only an admin client's bearer token gets in; no tool reaches any of it.
import type { McpClient } from "../people/clients";
import { jsonBody, requireClient, requireContentType } from "./middleware";
import { ownerRoutes, type OwnerApiDeps } from "./owner-routes";
import { jsonAnswer, type Middleware, type RouteSpec } from "./pipeline";

export type { OwnerApiDeps } from "./owner-routes";

/** Largest owner API request body (bytes); every endpoint takes a small object. */
export const OWNER_API_MAX_BODY_BYTES = 16 * 1024;
/** Deepest JSON nesting an owner API body may have. */
export const OWNER_API_MAX_JSON_DEPTH = 8;

/** The JSON body checks of every /api/ endpoint that takes a body. */
export const API_JSON_BODY: Middleware[] = [
  requireContentType("application/json"),
  jsonBody({ maxDepth: OWNER_API_MAX_JSON_DEPTH, objectOnly: true }),
];

/** Every owner API endpoint as a route: admin token, then a JSON object body for PUT and POST. */
export function ownerApiRoutes(deps: OwnerApiDeps, verifyToken: (token: string) => McpClient | undefined): RouteSpec[] {
  const admin = requireClient(verifyToken, "admin");
  return ownerRoutes(deps).map((route) => {
    const takesBody = route.method === "PUT" || route.method === "POST";
    return {
      method: route.method,
      pattern: route.pattern,
      maxBody: takesBody ? OWNER_API_MAX_BODY_BYTES : 0,
      errors: "api",
      use: takesBody ? [admin, ...API_JSON_BODY] : [admin],
      handler: async (ctx) => {
        const body = (ctx.json ?? {}) as { [key: string]: unknown };
        const reply = await route.handler({ params: ctx.params, body, caller: ctx.client! });
        return jsonAnswer(reply.status, reply.body);
      },
    };
  });
}
