// cashu-ts's customRequest over Halo's HttpClient port: JSON with big integers kept exact (cashu-ts's JSONInt),
// a deadline and a size cap on every answer, and the error contract cashu-ts expects (a 400 with a NUT error
// code becomes a MintOperationError, so the wallet can tell a refusal from a mint that did not answer).
import { HttpResponseError, JSONInt, MintOperationError, NetworkError, type RequestFn, type RequestOptions } from "@cashu/cashu-ts";
import type { GuardedHttp } from "../../net/outbound";
import { decodeUtf8 } from "../../util/utf8";
import { WALLET_HTTP_MAX_RESPONSE_BYTES, WALLET_HTTP_TIMEOUT_MS } from "../limits";

function lowerCased(headers: Record<string, string> | undefined): { [name: string]: string } {
  const out: { [name: string]: string } = {};
  if (headers) for (const k of Object.keys(headers)) out[k.toLowerCase()] = headers[k];
  return out;
}

/** What a mint's error body says: a NUT error code and detail when it has them. */
function errorBody(text: string): { code?: number; detail?: string } {
  try {
    const v = JSONInt.parse(text) as { code?: unknown; detail?: unknown };
    if (v && typeof v === "object") {
      return { code: typeof v.code === "number" ? v.code : undefined, detail: typeof v.detail === "string" ? v.detail : undefined };
    }
  } catch {
    // not JSON: no code
  }
  return {};
}

/** A RequestFn for `new Mint(url, { customRequest })`. */
/** `http` is the guarded client (lib/net/outbound.ts): a mint is named by a token someone sent, so it is not trusted. */
export function mintRequest(http: GuardedHttp, timeoutMs: number = WALLET_HTTP_TIMEOUT_MS): RequestFn {
  const request = async (args: RequestOptions): Promise<unknown> => {
    const body = args.requestBody ? JSONInt.stringify(args.requestBody) : undefined;
    const headers = { accept: "application/json", ...(body ? { "content-type": "application/json" } : {}), ...lowerCased(args.headers) };
    let res: { status: number; body: Uint8Array };
    try {
      res = await http.request({
        method: (args.method ?? (body ? "POST" : "GET")).toUpperCase(),
        url: args.endpoint,
        headers,
        body,
        timeoutMs: args.requestTimeout ?? timeoutMs,
        maxResponseBytes: WALLET_HTTP_MAX_RESPONSE_BYTES,
        maxRedirects: 0,
      });
    } catch (e) {
      const code = (e as { code?: string }).code;
      throw new NetworkError(code === "timeout" ? "the mint did not answer in time" : "the mint could not be reached");
    }
    const text = decodeUtf8(res.body);
    if (res.status < 200 || res.status > 299) {
      const { code, detail } = errorBody(text);
      if (res.status === 400 && code !== undefined) throw new MintOperationError(code, detail ?? "");
      throw new HttpResponseError(detail ?? "HTTP request failed", res.status);
    }
    try {
      return JSONInt.parse(text);
    } catch {
      throw new HttpResponseError("bad response", res.status);
    }
  };
  return request as RequestFn;
}
