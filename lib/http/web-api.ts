// What the owner's web page asks before it draws: who the token belongs to
// (any client), and every registered tool as the owner sees it (admin):
// description, arguments, where it runs, who may call it, whether it is live.
import type { SecretName, SecretStore } from "../device/secrets";
import type { McpClient } from "../people/clients";
import type { ToolRegistry } from "../registry/registry";
import type { ToolDefinition } from "../registry/types";
import { requireClient } from "./middleware";
import { jsonAnswer, type RouteSpec } from "./pipeline";

/** Tools that do nothing useful until the owner sets a key (the rest need only a provider key for turns). */
export const TOOL_KEYS: { readonly [tool: string]: SecretName } = {
  "web.search": "tavily",
  "image.generate": "openai",
  "audio.transcribe": "openai",
  "reply.telegram": "telegram",
  "reply.ogg": "telegram",
  "files.send": "telegram",
};

export interface WebApiDeps {
  registry: Pick<ToolRegistry, "all">;
  secrets: Pick<SecretStore, "status">;
}

interface ArgumentJson {
  name: string;
  type: string;
  required: boolean;
  description?: string;
}

/** The tool as GET /api/tools lists it. */
export function toolJson(tool: ToolDefinition, setKeys: ReadonlySet<string>): { [key: string]: unknown } {
  const runs = tool.turnOnly ? ["turn"] : ["turn", "mcp"];
  if (!tool.adminOnly && !tool.refuseScheduled) runs.push("scheduled");
  const key = TOOL_KEYS[tool.name];
  return {
    name: tool.name,
    description: tool.description,
    arguments: argumentsOf(tool.inputSchema),
    runs,
    callers: tool.adminOnly ? "admin" : "admin, user, guest",
    effect: tool.effect ?? "read",
    openWorld: tool.openWorld === true,
    live: key === undefined || setKeys.has(key),
    needsKey: key,
  };
}

function argumentsOf(schema: { [key: string]: unknown }): ArgumentJson[] {
  const props = (schema.properties ?? {}) as { [name: string]: { type?: unknown; description?: unknown; enum?: unknown } };
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.keys(props).map((name) => {
    const p = props[name] ?? {};
    const type = Array.isArray(p.enum) ? p.enum.join(" | ") : typeof p.type === "string" ? p.type : "any";
    const arg: ArgumentJson = { name, type, required: required.indexOf(name) >= 0 };
    if (typeof p.description === "string") arg.description = p.description;
    return arg;
  });
}

/** GET /api/whoami and GET /api/tools. */
export function webApiRoutes(deps: WebApiDeps, verifyToken: (token: string) => McpClient | undefined): RouteSpec[] {
  return [
    {
      method: "GET",
      pattern: "/api/whoami",
      maxBody: 0,
      errors: "api",
      use: [requireClient(verifyToken, "any")],
      handler: (ctx) => {
        const c = ctx.client!;
        return jsonAnswer(200, { name: c.name, role: c.role, ns: c.ns });
      },
    },
    {
      method: "GET",
      pattern: "/api/tools",
      maxBody: 0,
      errors: "api",
      use: [requireClient(verifyToken, "admin")],
      handler: () => {
        const setKeys = new Set(
          deps.secrets
            .status()
            .filter((s) => s.set)
            .map((s) => s.name as string),
        );
        const tools = deps.registry.all().map((t) => toolJson(t, setKeys));
        tools.sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1));
        return jsonAnswer(200, { tools });
      },
    },
  ];
}

/** The page loads only its own assets and talks only to this device (refuseFraming adds x-frame-options to every page). */
export const WEB_PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; " +
  "connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The page's asset routes with the page's policy headers on every answer. */
export function webPageRoutes(assetRoutes: RouteSpec[]): RouteSpec[] {
  return assetRoutes.map((r) => ({
    ...r,
    handler: async (ctx) => {
      const answer = await r.handler(ctx);
      return {
        ...answer,
        headers: {
          ...answer.headers,
          "content-security-policy": WEB_PAGE_POLICY,
          "referrer-policy": "no-referrer",
        },
      };
    },
  }));
}
