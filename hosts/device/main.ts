// The Halo device app: builds the ports from Moddable modules, creates the
// core, joins the network and serves /mcp with Moddable's HTTP server.
import "./globals"; // first: lib/ needs TextEncoder and TextDecoder
import { createHalo } from "../../lib/halo";
import { episodicOverStorage } from "../../lib/memory/build";
import { readDeviceConfig } from "./config";
import { serveHttp } from "./http/server";
import { startNetwork } from "./network";
import { devicePorts } from "./ports/index";

export default function main(): void {
  const config = readDeviceConfig();
  const ports = devicePorts(config);
  // The episodic log lives on the SD card (memory.episodic exists only with it).
  const halo = createHalo({ ports, firmwareVersion: config.firmwareVersion, core: { episodic: episodicOverStorage(ports) } });
  ports.log.info(`halo ${config.firmwareVersion}: storage ${ports.storage?.present() ? "present" : "absent"}`);
  const ownerToken = halo.ensureOwnerToken();
  // Shown once, on first boot, on the console only: the owner copies it from there.
  if (ownerToken !== undefined) trace(`[halo] owner token (shown once): ${ownerToken}\n`);
  startNetwork(config.wifi, config.sntpHost, ports.log, (): void => {
    serveHttp(halo, config.httpPort, ports.log);
  });
}
