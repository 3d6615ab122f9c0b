// The device HttpClient port (hosts/device/ports/http-client.ts) on the real
// Moddable runtime, against the local server of run.mjs. Prints one
// "CHECK <name> ok|FAIL <detail>" line a case and "CHECK done" at the end.
import "../../device/globals";
import config from "mc/config";
import { moddableHttpClient } from "../../device/ports/http-client";
import type { HttpClientRequest, HttpClientResponse } from "../../../lib/ports";

const base = String(config.checkBase);
const text = (r: HttpClientResponse): string => new TextDecoder().decode(r.body);

type Outcome = { response?: HttpClientResponse; error?: Error & { code?: string } };

async function run(req: Partial<HttpClientRequest> & { url: string }): Promise<Outcome> {
  try {
    return { response: await moddableHttpClient.request({ method: "GET", timeoutMs: 5000, maxResponseBytes: 65536, ...req }) };
  } catch (e) {
    return { error: e as Error & { code?: string } };
  }
}

function report(name: string, ok: boolean, detail: string): void {
  trace(`CHECK ${name} ${ok ? "ok" : "FAIL"} ${detail}\n`);
}

function describe(o: Outcome): string {
  if (o.error) return `error code=${o.error.code ?? "(none)"} message=${o.error.message}`;
  const r = o.response!;
  return `status=${r.status} bytes=${r.body.byteLength} x-check=${r.headers["x-check"] ?? "-"}`;
}

export default async function main(): Promise<void> {
  let o = await run({ url: `${base}/hello` });
  report("get", o.response?.status === 200 && text(o.response) === "hello \u2713" && o.response.headers["x-check"] === "yes", describe(o));

  o = await run({
    url: `${base}/echo?q=1`,
    method: "POST",
    headers: { "content-type": "text/plain", "x-token": "abc" },
    body: "gr\u00fc\u00dfe",
  });
  const echoed = o.response ? JSON.parse(text(o.response)) : undefined;
  report(
    "post-echo-chunked",
    echoed?.method === "POST" &&
      echoed.url === "/echo?q=1" &&
      echoed.body === "gr\u00fc\u00dfe" &&
      echoed.token === "abc" &&
      o.response?.headers["transfer-encoding"] === "chunked",
    `${describe(o)} echo=${o.response ? text(o.response) : ""}`,
  );

  o = await run({ url: `${base}/big`, maxResponseBytes: 300000 });
  report(
    "big-under-cap",
    o.response?.status === 200 && o.response.body.byteLength === 200000 && o.response.body[199999] === 0x7a,
    describe(o),
  );

  o = await run({ url: `${base}/big`, maxResponseBytes: 1000 });
  report("too-large", o.error?.code === "too-large", describe(o));

  o = await run({ url: `${base}/slow`, timeoutMs: 500 });
  report("timeout", o.error?.code === "timeout", describe(o));

  o = await run({ url: "http://127.0.0.1:1/" });
  report("refused", o.error?.code === "network", describe(o));

  o = await run({ url: `${base}/redirect` });
  report("no-redirect", o.response?.status === 302 && o.response.headers.location === "/hello", describe(o));

  o = await run({ url: "ftp://example.com/" });
  report("bad-url", o.error !== undefined && o.error.code === undefined, describe(o));

  o = await run({ url: `${base}/hello` });
  report("after-failures", o.response?.status === 200, describe(o));
  trace("CHECK done\n");
}
