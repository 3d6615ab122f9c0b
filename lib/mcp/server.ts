import { TOOLS_PAGE_SIZE } from "../limits";
import { UnknownToolError } from "../registry/errors";
import type { Principal } from "../registry/principal";
import type { ToolRegistry } from "../registry/registry";
import type { ToolSpec } from "../registry/types";
import { clipForMessage } from "../util/text";
import { decodeCursor, encodeCursor } from "./cursor";
import { canonicalToolName, styledSpecs } from "./tool-names";
import {
  classify,
  errorResponse,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  RpcError,
  UNSUPPORTED_PROTOCOL_VERSION,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "./jsonrpc";
import {
  isHandshakeVersion,
  LATEST_HANDSHAKE_VERSION,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  MODERN_VERSION,
  SUPPORTED_VERSIONS,
  type Era,
} from "./versions";

export interface ServerInfo {
  name: string;
  version: string;
}

export interface McpServerOptions {
  info: ServerInfo;
  /** Tools per tools/list page, at most TOOLS_PAGE_SIZE. */
  pageSize?: number;
}

/** A response and the HTTP status a transport should send it with. */
export interface McpReply {
  response: JsonRpcResponse;
  httpStatus: number;
}

type Result = { [key: string]: unknown };

/** How long a client may cache a tool listing or discovery (the registry changes only at boot). */
const LIST_TTL_MS = 5 * 60 * 1000;
const INSTRUCTIONS = "Halo desk assistant. Call docs.search to learn what the device can do.";

/**
 * The MCP protocol over the tool registry: messages in, JSON-RPC responses
 * out. Serves the initialize era (2024-11-05 .. 2025-11-25) and the
 * per-request era (2026-07-28) side by side. Knows nothing of HTTP.
 */
export class McpServer {
  private readonly registry: ToolRegistry;
  private readonly info: ServerInfo;
  private readonly pageSize: number;

  constructor(registry: ToolRegistry, options: McpServerOptions) {
    this.registry = registry;
    this.info = options.info;
    this.pageSize = Math.max(1, Math.min(TOOLS_PAGE_SIZE, options.pageSize ?? TOOLS_PAGE_SIZE));
  }

  /** Answers one parsed message; notifications and client responses get no answer. */
  async handle(message: unknown, principal: Principal, era: Era = "legacy"): Promise<McpReply | undefined> {
    const c = classify(message);
    if (c.kind === "invalid") {
      return { response: errorResponse(c.id, INVALID_REQUEST, `Invalid request: ${c.reason}`), httpStatus: 400 };
    }
    if (c.kind !== "request") return undefined;
    const request = c.message;
    try {
      const result = era === "modern" ? await this.callModern(request, principal) : await this.callLegacy(request, principal);
      return { response: { jsonrpc: "2.0", id: request.id, result }, httpStatus: 200 };
    } catch (e) {
      if (e instanceof RpcError) {
        return { response: errorResponse(request.id, e.code, e.message, e.data), httpStatus: e.httpStatus ?? 200 };
      }
      return { response: errorResponse(request.id, INTERNAL_ERROR, "Internal error"), httpStatus: 500 };
    }
  }

  private callLegacy(request: JsonRpcRequest, principal: Principal): Result | Promise<Result> {
    const params = request.params || {};
    switch (request.method) {
      case "initialize":
        return this.initialize(params);
      case "ping":
        return {};
      case "tools/list":
        return this.listTools(params, principal);
      case "tools/call":
        return this.callTool(params, principal);
      default:
        throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${clipForMessage(request.method)}`);
    }
  }

  // 2026-07-28: every request names its version in _meta; results say resultType, lists add cache hints.
  private async callModern(request: JsonRpcRequest, principal: Principal): Promise<Result> {
    const params = request.params || {};
    checkModernMeta(params);
    const serverMeta = { [META_SERVER_INFO]: { ...this.info } };
    switch (request.method) {
      case "server/discover":
        return {
          resultType: "complete",
          supportedVersions: SUPPORTED_VERSIONS.slice(),
          capabilities: { tools: { listChanged: false } },
          instructions: INSTRUCTIONS,
          ttlMs: LIST_TTL_MS,
          cacheScope: "private",
          _meta: serverMeta,
        };
      case "tools/list":
        return {
          resultType: "complete",
          ...this.listTools(params, principal),
          ttlMs: LIST_TTL_MS,
          cacheScope: "private",
          _meta: serverMeta,
        };
      case "tools/call":
        return { resultType: "complete", ...(await this.callTool(params, principal)), _meta: serverMeta };
      default:
        throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${clipForMessage(request.method)}`, undefined, 404);
    }
  }

  private initialize(params: Result): Result {
    const asked = params.protocolVersion;
    if (typeof asked !== "string") throw new RpcError(INVALID_PARAMS, "Invalid params: protocolVersion is required");
    return {
      protocolVersion: isHandshakeVersion(asked) ? asked : LATEST_HANDSHAKE_VERSION,
      capabilities: { tools: { listChanged: false } },
      serverInfo: { ...this.info },
      instructions: INSTRUCTIONS,
    };
  }

  private listTools(params: Result, principal: Principal): Result {
    const specs = styledSpecs(this.registry.toolSpecsFor(principal), principal.names);
    const key = listingKey(specs);
    let offset = 0;
    if (params.cursor !== undefined) {
      const decoded = decodeCursor(params.cursor, key);
      if (decoded === undefined || decoded > specs.length) throw new RpcError(INVALID_PARAMS, "Invalid params: unknown cursor");
      offset = decoded;
    }
    const end = Math.min(specs.length, offset + this.pageSize);
    const result: Result = { tools: specs.slice(offset, end) };
    if (end < specs.length) result.nextCursor = encodeCursor(end, key);
    return result;
  }

  private async callTool(params: Result, principal: Principal): Promise<Result> {
    const name = params.name;
    if (typeof name !== "string" || name.length === 0) throw new RpcError(INVALID_PARAMS, "Invalid params: name is required");
    const args = params.arguments;
    if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
      throw new RpcError(INVALID_PARAMS, "Invalid params: arguments must be an object");
    }
    // Every tool answers to its plain spelling too (docs_search), whatever the client's listing style.
    const canonical = canonicalToolName(name, this.registry);
    if (canonical === undefined) throw new RpcError(INVALID_PARAMS, `Unknown tool: ${clipForMessage(name)}`);
    try {
      const r = await this.registry.dispatch(canonical, args, principal);
      const result: Result = { content: [{ type: "text", text: r.text }], isError: r.isError === true };
      if (r.structured && !r.isError) result.structuredContent = r.structured;
      return result;
    } catch (e) {
      if (e instanceof UnknownToolError) throw new RpcError(INVALID_PARAMS, `Unknown tool: ${clipForMessage(name)}`);
      throw e;
    }
  }
}

/** The per-request fields every 2026-07-28 request must carry. */
function checkModernMeta(params: Result): void {
  const meta = params._meta;
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) {
    throw new RpcError(INVALID_PARAMS, "Invalid params: _meta is required", undefined, 400);
  }
  const m = meta as Result;
  const version = m[META_PROTOCOL_VERSION];
  if (typeof version !== "string") {
    throw new RpcError(INVALID_PARAMS, `Invalid params: _meta["${META_PROTOCOL_VERSION}"] is required`, undefined, 400);
  }
  if (version !== MODERN_VERSION) {
    throw new RpcError(
      UNSUPPORTED_PROTOCOL_VERSION,
      "Unsupported protocol version",
      { supported: SUPPORTED_VERSIONS.slice(), requested: clipForMessage(version, 32) },
      400,
    );
  }
  const caps = m[META_CLIENT_CAPABILITIES];
  if (typeof caps !== "object" || caps === null || Array.isArray(caps)) {
    throw new RpcError(INVALID_PARAMS, `Invalid params: _meta["${META_CLIENT_CAPABILITIES}"] is required`, undefined, 400);
  }
}

// The names of a listing: a cursor from another principal's or an older listing is refused.
function listingKey(specs: ToolSpec[]): string {
  return specs.map((s) => s.name).join(",");
}
