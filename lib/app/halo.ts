import { SCHEDULER_TICK_MS } from "../agents/bounds";
import { pick } from "../util/pick";
import { telegramInboundFor } from "./telegram-inbound";
import { buildCore, type Core, type CoreOptions } from "./core";
import { bootEventText, recordDeviceEvent } from "../memory/episodic/device-events";
import { HostPolicy } from "../http/host-policy";
import { hostAndOrigin, refuseFraming, refuseTokenInUrl } from "../http/middleware";
import { HttpPipeline, type RouteSpec } from "../http/pipeline";
import { ObservedLed } from "../http/ring-events";
import { VALIDATORS } from "../generated/validators.js";
import type { HttpRequest, HttpResponse } from "../http/types";
import { McpServer } from "../mcp/server";
import { EpisodicJournal } from "../memory/episodic/journal";
import type { Ports } from "../ports";
import { RING_FRAME_MS } from "../device/ring/runner";
import type { StatusRing } from "../device/ring/status";
import { statusRingFor } from "./ring";
import { haloRoutes } from "./routes";
import type { PressToTalk } from "../voice/press-to-talk";
import { sharedMic } from "../voice/shared-mic";
import { WAKE_SYNC_MS, type WakeListener } from "../voice/wake-listener";
import { voiceControls } from "./voice-controls";

export type { HttpRequest, HttpResponse } from "../http/types";

export interface HaloOptions {
  ports: Ports;
  firmwareVersion: string;
  /** Tools per MCP tools/list page (default and maximum TOOLS_PAGE_SIZE). */
  toolsPageSize?: number;
  /** The host's choices besides its ports: base URLs of outside services, its build for updates. */
  core: CoreOptions;
  /** The device's own addresses, for the Host check (loopback is always allowed). */
  addresses(): string[];
  /** The device answers to `<deviceName>.local`. */
  deviceName(): string;
  /** Pages the host serves itself (the simulator's /flash/; none on the device), behind the same checks as every route. */
  hostRoutes: RouteSpec[];
  /** What the long presses of the button do on this host (the device: Wi-Fi setup and reboot). */
  buttonActions?: { longPress?(): void; veryLongPress?(): void };
}

/** The assembled device: the core's subsystems behind the MCP server and one HTTP pipeline. */
export interface Halo {
  core: Core;
  mcp: McpServer;
  http: HttpPipeline;
  handleHttp(req: HttpRequest): Promise<HttpResponse>;
  /** Creates the owner's admin token on first boot and returns it once; undefined when an admin client exists. */
  ensureOwnerToken(): string | undefined;
  /** The status ring, when the Led port takes frames: start() ticks it; the host reports network and setup to it. */
  lights?: StatusRing;
  /** The button's gestures on the voice loop (press to talk, mute, barge-in); the Button port drives it. */
  button: PressToTalk;
  /** The wake phrase on the microphone; undefined without one. */
  wakeListener: WakeListener | undefined;
  /** Starts what runs in the background on the host's timers (the scheduler tick, inbound channels); the first-boot owner token, once. */
  start(): { ownerToken?: string };
  /** Stops it again; resolves when the inbound channels have let go. */
  stop(): Promise<void>;
  /** Whether start() has run and stop() has not. */
  running(): boolean;
}

export function createHalo(options: HaloOptions): Halo {
  const { ports, firmwareVersion } = options;
  // The ring as the web page's preview sees it: every pattern shown is also an event (lib/http/ring-events.ts).
  const led = ports.led ? new ObservedLed(ports.led) : undefined;
  // The wake listener hears the microphone in the background; every other user takes it from it at once.
  const mic = ports.audioIn ? sharedMic(ports.audioIn) : undefined;
  const core = buildCore({ ...ports, led, audioIn: mic?.foreground }, options.core);
  // The boot is the first row of the device's timeline (session "system"); a missing card only skips it.
  recordDeviceEvent(new EpisodicJournal(core.episodic, ports.log), bootEventText(firmwareVersion, ports.system));
  const mcp = new McpServer(core.registry, { info: { name: "halo", version: firmwareVersion }, pageSize: options.toolsPageSize });
  const hosts = new HostPolicy({
    addresses: options.addresses,
    deviceName: options.deviceName,
    settings: ports.settings,
  });
  const routes = haloRoutes({ core, mcp, hosts, led, options });
  // Every request passes these, 404s, 405s and the host's pages included; routes add their own checks.
  const global = [refuseFraming, refuseTokenInUrl, hostAndOrigin(hosts)];
  const http = new HttpPipeline(routes, global, { validators: VALIDATORS, log: ports.log });
  const ensureOwnerToken = (): string | undefined => (core.clients.hasAdmin() ? undefined : core.clients.create("owner", "admin", "owner"));
  let running: { stopTick(): void; stopInbound(): Promise<void> } | undefined;
  const lights = statusRingFor({
    ...pick(core, ["ports", "config", "turn", "skills", "routines", "downloads", "wallet", "voice", "updates"]),
  });
  const { button, wake } = voiceControls({ core, lights, mic, buttonActions: options.buttonActions });

  return {
    core,
    mcp,
    http,
    lights,
    button,
    wakeListener: wake,
    handleHttp: (req) => http.handle(req),
    ensureOwnerToken,
    start() {
      const { timers } = ports;
      const ownerToken = ensureOwnerToken();
      if (!running) {
        // Routines and wakeups fire from the tick; Telegram messages from allow-listed chats run as turns.
        const stopTick = timers.every(SCHEDULER_TICK_MS, () => void (core.scheduler.tick(), core.updates?.tick(), core.triggers.tick()));
        // A new image checks its health (network, storage, registry) and marks itself valid, or rolls back.
        void core.updates?.boot();
        const inbound = telegramInboundFor(core, ports.log, (ms) => timers.sleep(ms));
        inbound.start();
        lights?.report({ kind: "booted" });
        const stopRing = lights ? timers.every(RING_FRAME_MS, () => void lights.tick()) : undefined;
        // The phrase taught, turned on or off, the microphone muted: the listener follows within a tick.
        const stopWake = wake ? timers.every(WAKE_SYNC_MS, () => wake.sync()) : undefined;
        // The owner's Nostr relays, and DMs to the device's key as turns (docs/nostr.md).
        core.nostr.start();
        core.triggers.start();
        core.nostrChannel.start();
        running = {
          stopTick: () => {
            stopTick();
            stopRing?.();
            stopWake?.();
            wake?.stop();
          },
          stopInbound: async () => {
            core.nostr.stop();
            await inbound.stop();
          },
        };
      }
      return ownerToken === undefined ? {} : { ownerToken };
    },
    running: () => running !== undefined,
    async stop() {
      const was = running;
      running = undefined;
      if (!was) return;
      was.stopTick();
      await was.stopInbound();
    },
  };
}
