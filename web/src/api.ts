// Every request the page makes: the token from localStorage (this origin only)
// goes in the Authorization header, never in a URL, and no cookie is used.
const TOKEN_KEY = "halo.token";

export interface Reply {
  status: number;
  ok: boolean;
  json: any;
}

export function savedToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function saveToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function forgetToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}

/** Called when the server says the token is unknown or revoked (401). */
let onUnauthorized: () => void = () => undefined;
export function whenUnauthorized(fn: () => void): void {
  onUnauthorized = fn;
}

export async function request(method: string, path: string, body?: unknown, raw?: { type: string; bytes: Blob }): Promise<Reply> {
  const headers: { [k: string]: string } = { authorization: `Bearer ${savedToken() ?? ""}` };
  let payload: BodyInit | undefined;
  if (raw) {
    headers["content-type"] = raw.type;
    payload = raw.bytes;
  } else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: payload, credentials: "omit", cache: "no-store" });
  } catch {
    return { status: 0, ok: false, json: { error: "The device did not answer; is it on the network?" } };
  }
  let json: any;
  try {
    json = await res.json();
  } catch {
    json = {};
  }
  if (res.status === 401) onUnauthorized();
  return { status: res.status, ok: res.ok, json };
}

export const get = (path: string): Promise<Reply> => request("GET", path);
export const put = (path: string, body: unknown): Promise<Reply> => request("PUT", path, body);
export const post = (path: string, body: unknown = {}): Promise<Reply> => request("POST", path, body);
export const del = (path: string): Promise<Reply> => request("DELETE", path);

export interface ToolReply {
  ok: boolean;
  text: string;
}

let rpcId = 0;
/** One MCP tools/call over POST /mcp with the same token: what a curl user or an MCP client can do too. */
export async function callTool(name: string, args: { [k: string]: unknown } = {}): Promise<ToolReply> {
  const res = await fetch("/mcp", {
    method: "POST",
    credentials: "omit",
    headers: {
      authorization: `Bearer ${savedToken() ?? ""}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params: { name, arguments: args } }),
  }).catch(() => undefined);
  if (!res) return { ok: false, text: "The device did not answer." };
  if (res.status === 401) onUnauthorized();
  const json: any = await res.json().catch(() => ({}));
  if (json.error) return { ok: false, text: String(json.error.message ?? "The call failed.") };
  const result = json.result ?? {};
  const text = (result.content ?? []).map((c: { text?: string }) => c.text ?? "").join("\n");
  return { ok: !result.isError, text };
}

/** The error sentence of a failed reply. */
export function errorText(r: Reply): string {
  return typeof r.json?.error === "string" ? r.json.error : `The request failed (HTTP ${r.status}).`;
}
