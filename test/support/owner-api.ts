import type { TestSim } from "./sim.ts";

/** One owner API request over the simulator's socket; headers can be overridden or removed (undefined). */
export async function ownerApi(
  sim: TestSim,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string | undefined> = {},
): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const merged: Record<string, string | undefined> = {
    "content-type": "application/json",
    authorization: `Bearer ${sim.token}`,
    ...headers,
  };
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(merged)) if (v !== undefined) clean[k] = v;
  const payload = body === undefined ? undefined : typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body);
  const res = await fetch(`${sim.url}${path}`, { method, headers: clean, body: payload });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Every owner API endpoint that answers GET: tests read them all to prove no secret comes back. */
export const OWNER_API_READ_PATHS: readonly string[] = [
  "/api/secrets",
  "/api/clients",
  "/api/config",
  "/api/people",
  "/api/chats",
  "/api/providers/priority",
  "/api/skills/pending",
  "/api/downloads",
  "/api/routines",
  "/api/alerts",
  "/api/budget",
  "/api/models",
  "/api/embedder",
  "/api/ota",
  "/api/tools",
  "/api/whoami",
  "/api/wallet",
  "/api/wallet/approvals",
  "/api/blossom",
  "/api/wake",
];
