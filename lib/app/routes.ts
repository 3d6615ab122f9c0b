// Every route of the device's HTTP pipeline, in one table: /mcp, the chat and voice APIs, the owner API, the
// web page and its APIs, the status and update pages, and the host's own pages. Each factory is handed the
// narrow part of the core it uses.
import type { HaloOptions } from "./halo";
import type { Core } from "./core";
import { chatRoute } from "../http/chat-api";
import type { HostPolicy } from "../http/host-policy";
import { ownerApiRoutes } from "../http/owner-api";
import { hostRoutes } from "../http/owner-hosts";
import { nostrWebhookRoute } from "../http/nostr-webhook";
import type { RouteSpec } from "../http/pipeline";
import { filesApiRoutes } from "../http/files-api";
import { type ObservedLed, ringEventsRoute } from "../http/ring-events";
import { secretCheckRoute } from "../http/secret-check";
import { assetRoutes } from "../http/static-assets";
import { statusPage } from "../http/status-page";
import { updatesPage } from "../http/updates-page";
import { voiceRoutes } from "../http/voice-api";
import { wakeRoutes } from "../http/wake-api";
import { webApiRoutes, webPageRoutes } from "../http/web-api";
import { webAssets } from "../generated/web-assets";
import { mcpRoute } from "../http/mcp-route";
import type { McpServer } from "../mcp/server";
import { derivePrincipal } from "../people/principals";
import { pick } from "../util/pick";

export interface RouteSources {
  core: Core;
  mcp: McpServer;
  hosts: HostPolicy;
  /** The ring as the web page's preview sees it. */
  led: ObservedLed | undefined;
  options: Pick<HaloOptions, "firmwareVersion" | "core" | "hostRoutes">;
}

export function haloRoutes({ core, mcp, hosts, led, options }: RouteSources): RouteSpec[] {
  const { ports } = core;
  const { firmwareVersion } = options;
  const verifyToken = (token: string) => core.clients.verify(token);
  return [
    mcpRoute({ server: mcp, verifyToken, principalFor: (client) => derivePrincipal(core, "mcp", client.name) }),
    chatRoute({
      verifyToken,
      principalFor: (client) => ({ ...derivePrincipal(core, "mcp", client.name), via: "turn" }),
      turn: core.turn,
      rails: core.rails,
    }),
    ...ownerApiRoutes(
      {
        ...pick(core, ["secrets", "clients", "people", "chats", "priority", "config", "skills", "routines", "alerts", "downloads"]),
        ...pick(core, ["nostr", "budget", "models", "memory", "ports", "wallet", "blossom"]),
        ota: core.updates,
        log: ports.log,
        wifi: ports.wifi,
      },
      verifyToken,
    ),
    ...hostRoutes(hosts, verifyToken),
    nostrWebhookRoute({
      verifyToken,
      principalFor: (c) => derivePrincipal(core, "mcp", c.name),
      rails: core.rails,
      triggers: () => core.triggers,
    }),
    ...voiceRoutes({
      ...pick(core, ["turn", "speech", "config", "rails"]),
      ...pick(ports, ["random", "storage"]),
      verifyToken,
      principalFor: (c) => ({ ...derivePrincipal(core, "mcp", c.name), via: "turn" }),
    }),
    ...webApiRoutes(pick(core, ["registry", "secrets"]), verifyToken),
    ...wakeRoutes(core.wake, verifyToken),
    ringEventsRoute({ led, voice: core.voice }, verifyToken),
    ...filesApiRoutes(
      { artifacts: core.artifacts, principalFor: (c) => derivePrincipal(core, "mcp", c.name), log: ports.log },
      verifyToken,
    ),
    secretCheckRoute(
      { ...pick(ports, ["http", "clock"]), getSecret: (n) => core.secrets.getSecret(n), baseUrls: options.core.baseUrls },
      verifyToken,
    ),
    ...webPageRoutes(assetRoutes(webAssets())),
    {
      method: "GET",
      pattern: "/status",
      maxBody: 0,
      errors: "api",
      use: [],
      handler: () => ({
        status: 200,
        headers: { "content-type": "text/html; charset=utf-8" },
        body: statusPage(firmwareVersion, core.registry.all().length),
      }),
    },
    {
      method: "GET",
      pattern: "/updates",
      maxBody: 0,
      errors: "api",
      use: [],
      handler: () => ({ status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: updatesPage() }),
    },
    ...options.hostRoutes,
  ];
}
