// The Halo device app: builds the ports from Moddable modules, creates the
// core, joins the network and serves /mcp with Moddable's HTTP server.
import "./globals"; // first: lib/ needs TextEncoder and TextDecoder
import { createHalo } from "../../lib/halo";
import { episodicOverStorage } from "../../lib/memory/build";
import { readDeviceConfig } from "./config";
import { serveHttp } from "./http/server";
import { startNetwork } from "./network";
import { devicePorts } from "./ports/index";
import Timer from "timer";
import { SCHEDULER_TICK_MS } from "../../lib/agents/bounds";
import { telegramInboundFor } from "../../lib/chat/inbound-for-core";
import { RING_FRAME_MS } from "../../lib/device/ring/runner";

/** Provider retry backoff and the Telegram loop's waits run on Moddable's Timer. */
function timerSleep(ms: number): Promise<void> {
  return new Promise((resolve) => void Timer.set(() => resolve(), ms));
}

export default function main(): void {
  const config = readDeviceConfig();
  const ports = devicePorts(config);
  // The episodic log lives on the SD card (memory.episodic exists only with it).
  const halo = createHalo({
    ports,
    firmwareVersion: config.firmwareVersion,
    core: { episodic: episodicOverStorage(ports), baseUrls: config.baseUrls, sleep: timerSleep },
  });
  ports.log.info(`halo ${config.firmwareVersion}: storage ${ports.storage?.present() ? "present" : "absent"}`);
  const ownerToken = halo.ensureOwnerToken();
  // Shown once, on first boot, on the console only: the owner copies it from there.
  if (ownerToken !== undefined) trace(`[halo] owner token (shown once): ${ownerToken}\n`);
  const lights = halo.lights;
  if (lights) Timer.repeat((): void => void lights.tick(), RING_FRAME_MS);
  const network = startNetwork({
    ...config,
    deviceName: halo.core.config.string("devName"),
    log: ports.log,
    ring: (event) => lights?.report(event),
    reboot: (): void => ports.system?.reboot(),
    ready: (): void => {
      lights?.report({ kind: "booted" });
      serveHttp(halo, config.httpPort, ports.log);
      // Routines and wakeups fire from here, once the network (and so SNTP time) is up.
      Timer.repeat((): void => void halo.core.scheduler.tick(), SCHEDULER_TICK_MS);
      // Telegram messages from allow-listed chats run as turns (the loop waits while no bot token is set).
      telegramInboundFor(halo.core, ports.log, timerSleep).start();
    },
  });
  // Long press: Wi-Fi setup; very long press: reboot. A short press is for talking (the voice issue).
  ports.button?.onGesture((gesture): void => {
    if (gesture === "long-press") network.enterSetup();
    else if (gesture === "very-long-press") ports.system?.reboot();
  });
}
