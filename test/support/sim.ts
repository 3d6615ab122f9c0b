import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSimulator, type RunningSim, type SimOptions } from "../../hosts/sim/start.ts";

export interface TestSim extends RunningSim {
  token: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** A simulator on a free loopback port over a fresh data folder. */
export async function startTestSim(
  options: { toolsPageSize?: number; dataDir?: string } & Pick<SimOptions, "initialSecrets" | "portOverrides" | "baseUrls" | "micWav"> = {},
): Promise<TestSim> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "halo-test-"));
  const sim = await startSimulator({
    dataDir,
    host: "127.0.0.1",
    port: 0,
    toolsPageSize: options.toolsPageSize,
    initialSecrets: options.initialSecrets,
    portOverrides: options.portOverrides,
    baseUrls: options.baseUrls,
    micWav: options.micWav,
  });
  const token = readFileSync(sim.tokenPath, "utf8").trim();
  return {
    ...sim,
    token,
    dataDir,
    async stop() {
      await sim.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A raw POST to /mcp with sensible defaults; any header can be overridden or removed (undefined). */
export async function postMcp(
  sim: TestSim,
  body: string | Uint8Array,
  headers: Record<string, string | undefined> = {},
  method = "POST",
): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const merged: Record<string, string | undefined> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    authorization: `Bearer ${sim.token}`,
    ...headers,
  };
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(merged)) if (v !== undefined) clean[k] = v;
  const res = await fetch(`${sim.url}/mcp`, { method, headers: clean, body: method === "GET" || method === "HEAD" ? undefined : body });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
