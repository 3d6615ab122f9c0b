import { buildCore, type Core, type CoreOptions } from "./core";
import { bootEventText, recordDeviceEvent } from "./device/events";
import { pathOnly, tokenInQuery } from "./http/bearer";
import { CHAT_PATH, handleChatApi, type ChatApiEnvironment } from "./http/chat-api";
import { originAllowed } from "./http/origin";
import { createOwnerApi } from "./http/owner-api";
import { statusPage } from "./http/status-page";
import { handleMcpHttp, type HttpRequest, type HttpResponse, type McpHttpDeps } from "./mcp/http";
import { McpServer } from "./mcp/server";
import { EpisodicJournal } from "./memory/episodic-journal";
import type { Ports } from "./ports";
import { derivePrincipal } from "./people/principals";
import { createVoiceApi, VOICE_API_PATH } from "./voice/voice-api";

export type { HttpRequest, HttpResponse } from "./mcp/http";

export interface HaloOptions {
  ports: Ports;
  firmwareVersion: string;
  /** Tools per MCP tools/list page (default and maximum TOOLS_PAGE_SIZE). */
  toolsPageSize?: number;
  /** Host choices for buildCore (the episodic store, the secrets reader). */
  core?: CoreOptions;
}

/** The assembled device: the core's subsystems behind the MCP server and the HTTP routes. */
export interface Halo {
  core: Core;
  mcp: McpServer;
  handleHttp(req: HttpRequest): Promise<HttpResponse>;
  /** Creates the owner's admin token on first boot and returns it once; undefined when an admin client exists. */
  ensureOwnerToken(): string | undefined;
}

export function createHalo(options: HaloOptions): Halo {
  const { ports, firmwareVersion } = options;
  const core = buildCore(ports, undefined, options.core);
  // The boot is the first row of the device's timeline (session "system"); a missing card only skips it.
  recordDeviceEvent(new EpisodicJournal(core.episodic, ports.log), bootEventText(firmwareVersion, ports.system));
  const mcp = new McpServer(core.registry, { info: { name: "halo", version: firmwareVersion }, pageSize: options.toolsPageSize });
  const mcpDeps: McpHttpDeps = {
    server: mcp,
    authenticate(token) {
      const client = core.clients.verify(token);
      return client ? derivePrincipal(core, "mcp", client.name) : undefined;
    },
    originAllowed,
  };
  const ownerApi = createOwnerApi({ ...core, log: ports.log, verifyToken: (token) => core.clients.verify(token), originAllowed });

  const chatApi: ChatApiEnvironment = {
    verifyToken: (token) => core.clients.verify(token),
    principalFor: (client) => ({ ...derivePrincipal(core, "mcp", client.name), via: "turn" }),
    turn: core.turn,
    originAllowed,
  };

  const voiceApi = createVoiceApi({
    ...chatApi,
    voice: core.voice,
    random: ports.random,
    storage: ports.storage,
    ttsOn: () => core.config.bool("ttsOn"),
  });

  async function handleHttp(req: HttpRequest): Promise<HttpResponse> {
    const path = pathOnly(req.path);
    // The owner API answers everything in JSON, its own refusal of a token in the URL included.
    if (path === CHAT_PATH) return handleChatApi(req, chatApi);
    if (path === VOICE_API_PATH || path.startsWith(`${VOICE_API_PATH}/`)) return voiceApi(req);
    if (path === "/api" || path.startsWith("/api/")) return ownerApi(req);
    if (tokenInQuery(req.path)) return textResponse(400, "Tokens are not accepted in a URL: send Authorization: Bearer <token>.\n");
    if (path === "/mcp") return handleMcpHttp(req, mcpDeps);
    if (path === "/" && (req.method === "GET" || req.method === "HEAD")) {
      const page = statusPage(firmwareVersion, core.registry.all().length);
      return { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: page };
    }
    return textResponse(404, "Not found.\n");
  }

  return {
    core,
    mcp,
    handleHttp,
    ensureOwnerToken() {
      return core.clients.hasAdmin() ? undefined : core.clients.create("owner", "admin", "owner");
    },
  };
}

function textResponse(status: number, body: string): HttpResponse {
  return { status, headers: { "content-type": "text/plain; charset=utf-8" }, body };
}
