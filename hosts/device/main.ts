// The Halo device app: builds the ports from Moddable modules, creates the
// core, joins the network and serves /mcp with Moddable's HTTP server.
import "./globals"; // first: lib/ needs TextEncoder and TextDecoder
import { createHalo } from "../../lib/app/halo";
import { RateLimitedLog } from "../../lib/util/log-limit";
import { readDeviceConfig } from "./config";
import { runCurveBench } from "./curve-bench";
import { traceRingPhases } from "./ring-trace";
import { nativeCurve } from "../../modules/curve/curve";
import { tsCurve } from "../../lib/nostr/curve/ts-curve";
import { serveHttp } from "./http/server";
import { deviceWifi, startNetwork, type DeviceNetwork } from "./network";
import { devicePorts } from "./ports/index";
import { deviceDigest } from "./ports/digest";
import { deviceWalletKit } from "./wallet-kit";
import Net from "net";
import Timer from "timer";
import { RING_FRAME_MS } from "../../lib/device/ring/runner";

export default function main(): void {
  const config = readDeviceConfig();
  // Issue 27's lin figures, only in a build made with `curveBench=<events>` (hosts/lin/check-curve.mjs).
  if (config.curveBench > 0) runCurveBench(config.curveBench, nativeCurve, tsCurve, deviceDigest);
  const given = devicePorts(config);
  // The owner API's Wi-Fi endpoints reach the network once it runs; lin has no radio.
  let network: DeviceNetwork | undefined;
  const wifi = config.simulated ? undefined : deviceWifi(() => network);
  // Repeated lines (a client aborting requests) are rate-limited and counted.
  const ports = { ...given, wifi, log: new RateLimitedLog(given.log, given.clock) };
  const halo = createHalo({
    ports,
    firmwareVersion: config.firmwareVersion,
    core: {
      baseUrls: config.baseUrls,
      otaBuild: { version: config.firmwareVersion, board: "esp32s3", ...config.ota },
      // cashu-ts loads at the wallet's first use, not at boot (./wallet-kit.ts).
      walletKit: deviceWalletKit(ports.log),
    },
    // The device serves no pages of its own beyond the core's.
    hostRoutes: [],
    // The Host check: the device answers to its station and access-point addresses (and loopback, halo.local).
    addresses: (): string[] => [Net.get("IP", "station"), Net.get("IP", "ap")].filter((a): a is string => typeof a === "string"),
    deviceName: () => "halo",
    // The button's long press opens Wi-Fi setup and its very long press reboots; a short press talks and a
    // double press mutes the microphone (lib/voice/press-to-talk.ts, wired to the Button port by createHalo).
    buttonActions: {
      longPress: (): void => network?.enterSetup(),
      veryLongPress: (): void => ports.system?.reboot(),
    },
  });
  ports.log.info(`halo ${config.firmwareVersion}: storage ${ports.storage?.present() ? "present" : "absent"}`);
  // Shown once, on first boot, on the console only: the owner copies it from there.
  const ownerToken = halo.ensureOwnerToken();
  if (ownerToken !== undefined) trace(`[halo] owner token (shown once): ${ownerToken}\n`);
  const lights = halo.lights;
  // lin lights nothing: its ring's phases go to the console (hosts/lin/check-voice.mjs reads them).
  // The raw log, not the rate-limited one: every change is printed.
  if (config.simulated && lights) traceRingPhases(lights, halo.core.voice, given.log);
  // Until the lifecycle starts (it ticks the ring from then on), the ring shows boot and setup from here.
  const early = lights ? Timer.repeat((): void => void lights.tick(), RING_FRAME_MS) : undefined;
  network = startNetwork({
    ...config,
    deviceName: halo.core.config.string("devName"),
    log: ports.log,
    ring: (event) => lights?.report(event),
    reboot: (): void => ports.system?.reboot(),
    ready: (): void => {
      serveHttp(halo, config.httpPort, ports.log);
      if (early !== undefined) Timer.clear(early);
      // The scheduler tick, the Telegram loop and the ring start once the network (and so SNTP time) is up.
      halo.start();
    },
  });
}
