// JSON-RPC 2.0 message shapes and validation, transport-free.

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** Codes of the 2026-07-28 revision. */
export const HEADER_MISMATCH = -32020;
export const MISSING_CLIENT_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: { [key: string]: unknown };
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: { [key: string]: unknown };
}

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcResponse =
  { jsonrpc: "2.0"; id: JsonRpcId; result: { [key: string]: unknown } } | { jsonrpc: "2.0"; id: JsonRpcId | null; error: JsonRpcError };

/** Raised inside method handlers to answer with a JSON-RPC error. */
export class RpcError extends Error {
  readonly code: number;
  readonly data?: unknown;
  /** The HTTP status the transport should answer with (200 when unset). */
  readonly httpStatus?: number;
  constructor(code: number, message: string, data?: unknown, httpStatus?: number) {
    super(message);
    this.code = code;
    this.data = data;
    this.httpStatus = httpStatus;
  }
}

export function errorResponse(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcResponse {
  const error: JsonRpcError = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: "2.0", id, error };
}

export type Classified =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response" }
  | { kind: "invalid"; id: JsonRpcId | null; reason: string };

/** Sorts a parsed JSON value into request, notification, client response or invalid. */
export function classify(value: unknown): Classified {
  if (Array.isArray(value)) return { kind: "invalid", id: null, reason: "batches are not supported" };
  if (typeof value !== "object" || value === null) {
    return { kind: "invalid", id: null, reason: "a JSON-RPC message must be an object" };
  }
  const m = value as { [key: string]: unknown };
  const id = m.id;
  const idOk = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  const safeId = idOk ? (id as JsonRpcId) : null;
  if (m.jsonrpc !== "2.0") return { kind: "invalid", id: safeId, reason: 'jsonrpc must be "2.0"' };
  if (m.method === undefined && ("result" in m || "error" in m)) return { kind: "response" };
  if (typeof m.method !== "string" || m.method.length === 0 || m.method.length > 128) {
    return { kind: "invalid", id: safeId, reason: "method must be a non-empty string" };
  }
  if (m.params !== undefined && (typeof m.params !== "object" || m.params === null || Array.isArray(m.params))) {
    return { kind: "invalid", id: safeId, reason: "params must be an object" };
  }
  const params = m.params as { [key: string]: unknown } | undefined;
  if (!("id" in m)) return { kind: "notification", message: { jsonrpc: "2.0", method: m.method, params } };
  if (!idOk) return { kind: "invalid", id: null, reason: "id must be a string or a number" };
  return { kind: "request", message: { jsonrpc: "2.0", id: id as JsonRpcId, method: m.method, params } };
}
