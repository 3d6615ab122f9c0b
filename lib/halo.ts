import { VALIDATORS } from "./generated/validators.js";
import { DOCS_PACK } from "./generated/docs-pack";
import { originAllowed } from "./http/origin";
import { statusPage } from "./http/status-page";
import { handleMcpHttp, type HttpRequest, type HttpResponse } from "./mcp/http";
import { McpServer } from "./mcp/server";
import { ClientTokens } from "./people/clients";
import type { Ports } from "./ports";
import { makePrincipal } from "./registry/principal";
import { ToolRegistry } from "./registry/registry";
import type { CompiledValidator } from "./registry/types";
import { DocsLibrary } from "./store/docs-pack";
import { ResultsRing } from "./store/results-ring";
import { registerDocsTools } from "./tools/docs";
import { registerResultTools } from "./tools/results";

export type { HttpRequest, HttpResponse } from "./mcp/http";

export interface HaloOptions {
  ports: Ports;
  firmwareVersion: string;
  /** Tools per MCP tools/list page (default and maximum TOOLS_PAGE_SIZE). */
  toolsPageSize?: number;
}

/** The assembled core: one registry behind the MCP server and (later) the turn. */
export interface Halo {
  registry: ToolRegistry;
  mcp: McpServer;
  clients: ClientTokens;
  handleHttp(req: HttpRequest): Promise<HttpResponse>;
  /** Creates the owner's admin token on first boot and returns it once; undefined when an admin client exists. */
  ensureOwnerToken(): string | undefined;
}

/** Builds the registry with every tool this device offers. Also used to generate the tool catalog. */
export function buildRegistry(
  ports: Ports,
  ring: ResultsRing,
  validators: { [key: string]: CompiledValidator } = VALIDATORS,
): ToolRegistry {
  const registry = new ToolRegistry({ validators, ring, log: ports.log });
  registerDocsTools(registry, new DocsLibrary(DOCS_PACK));
  registerResultTools(registry, ring);
  return registry;
}

export function createHalo(options: HaloOptions): Halo {
  const { ports, firmwareVersion } = options;
  const registry = buildRegistry(ports, new ResultsRing());
  const mcp = new McpServer(registry, { info: { name: "halo", version: firmwareVersion }, pageSize: options.toolsPageSize });
  const clients = new ClientTokens(ports.settings, ports.digest, ports.random, ports.log, () => ports.clock.now());
  const mcpDeps = {
    server: mcp,
    authenticate(token: string) {
      const client = clients.verify(token);
      return client ? makePrincipal(client.ns, client.role, "mcp") : undefined;
    },
    originAllowed,
  };

  async function handleHttp(req: HttpRequest): Promise<HttpResponse> {
    const q = req.path.indexOf("?");
    const path = q >= 0 ? req.path.slice(0, q) : req.path;
    if (q >= 0 && /(^|[?&])(access_token|token)=/i.test(req.path.slice(q))) {
      return textResponse(400, "Tokens are not accepted in a URL: send Authorization: Bearer <token>.\n");
    }
    if (path === "/mcp") return handleMcpHttp(req, mcpDeps);
    if (path === "/" && (req.method === "GET" || req.method === "HEAD")) {
      return { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: statusPage(firmwareVersion, registry.all().length) };
    }
    return textResponse(404, "Not found.\n");
  }

  return {
    registry,
    mcp,
    clients,
    handleHttp,
    ensureOwnerToken() {
      return clients.hasAdmin() ? undefined : clients.create("owner", "admin", "owner");
    },
  };
}

function textResponse(status: number, body: string): HttpResponse {
  return { status, headers: { "content-type": "text/plain; charset=utf-8" }, body };
}
