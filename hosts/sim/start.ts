// Boots the simulated device: data folder, ports, core, owner token, HTTP server.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { join, resolve } from "node:path";
import { createHalo, type Halo } from "../../lib/halo.ts";
import { createHttpServer } from "./http-adapter.ts";
import { simulatorPorts } from "./ports/index.ts";

export const FIRMWARE_VERSION = "0.1.0-sim";

export interface SimOptions {
  dataDir: string;
  host: string;
  port: number;
  toolsPageSize?: number;
}

export interface RunningSim {
  halo: Halo;
  server: Server;
  url: string;
  tokenPath: string;
  close(): Promise<void>;
}

export function optionsFromEnv(env: NodeJS.ProcessEnv): SimOptions {
  const port = Number(env.HALO_PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error("HALO_PORT must be a port number");
  return { dataDir: resolve(env.HALO_DATA ?? "./.halo-data"), host: env.HALO_HOST ?? "127.0.0.1", port };
}

export async function startSimulator(options: SimOptions): Promise<RunningSim> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const halo = createHalo({
    ports: simulatorPorts(options.dataDir),
    firmwareVersion: FIRMWARE_VERSION,
    toolsPageSize: options.toolsPageSize,
  });
  const tokenPath = join(options.dataDir, "admin-token");
  const token = halo.ensureOwnerToken();
  if (token) {
    writeFileSync(tokenPath, token + "\n", { mode: 0o600 });
    chmodSync(tokenPath, 0o600);
  }
  const server = createHttpServer(halo);
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(options.port, options.host, () => ok());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    halo,
    server,
    url: `http://${host}:${port}`,
    tokenPath,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
