// Boots the simulated device: data folder, ports, core, owner token, HTTP server.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { networkInterfaces } from "node:os";
import { join, resolve } from "node:path";
import { SecretStore, type SecretName } from "../../lib/device/secrets.ts";
import { createHalo, type Halo } from "../../lib/app/halo.ts";
import { createCashuKit } from "../../lib/wallet/cashu/kit.ts";
import { RateLimitedLog } from "../../lib/util/log-limit.ts";
import type { Ports } from "../../lib/ports.ts";
import { createHttpServer } from "./http-adapter.ts";
import { simulatorPorts } from "./ports/index.ts";
import { flashPageRoutes } from "./flash-page.ts";
import { simButtonRoute } from "../../lib/http/sim-button.ts";
import type { SimButton } from "./ports/hardware.ts";
import type { SimAudioIn } from "./ports/audio.ts";
import { loadMicWav } from "./ports/audio-files.ts";

export const FIRMWARE_VERSION = "0.1.0-sim";

export interface SimOptions {
  dataDir: string;
  host: string;
  port: number;
  toolsPageSize?: number;
  /** Secrets set at start when not set yet (from OPENAI_API_KEY, ANTHROPIC_API_KEY, MISTRAL_API_KEY, TAVILY_API_KEY, TELEGRAM_BOT_TOKEN). */
  initialSecrets?: Partial<Record<SecretName, string>>;
  /** Ports to use instead of the simulator's own (tests: a log that keeps its lines, a fenced network). */
  portOverrides?: Partial<Ports>;
  /** Base URLs of outside services (from HALO_OPENAI_BASE_URL, HALO_ANTHROPIC_BASE_URL, HALO_MISTRAL_BASE_URL, HALO_TELEGRAM_BASE_URL, HALO_TAVILY_BASE_URL): local stand-ins. */
  baseUrls?: { [service: string]: string | undefined };
  /** The release folder the flashing page at /flash/ offers (HALO_RELEASE_DIR, default ./release). */
  releaseDir?: string;
  /** The release feed (HALO_OTA_FEED_URL) and the trusted signing keys, comma-separated hex (HALO_OTA_KEYS). */
  ota?: { feedUrl?: string; trustedKeys: string[] };
  /** Nostr relays used when the owner has set none yet (HALO_NOSTR_RELAYS, comma-separated). */
  nostrRelays?: string[];
  /** A WAV file the microphone hears from the first capture after start, once (HALO_MIC_WAV). */
  micWav?: string;
}

/** Environment variables that seed a secret the owner has not set yet. */
const SECRET_ENV: Array<[string, SecretName]> = [
  ["OPENAI_API_KEY", "openai"],
  ["ANTHROPIC_API_KEY", "anthropic"],
  ["MISTRAL_API_KEY", "mistral"],
  ["TAVILY_API_KEY", "tavily"],
  ["TELEGRAM_BOT_TOKEN", "telegram"],
];

/** Services whose base URL HALO_<NAME>_BASE_URL overrides (the LLM providers default to their public APIs, e.g. https://api.openai.com/v1). */
const BASE_URL_SERVICES = ["openai", "anthropic", "mistral", "telegram", "tavily"];

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
  const initialSecrets: Partial<Record<SecretName, string>> = {};
  for (const [name, secret] of SECRET_ENV) if (env[name]) initialSecrets[secret] = env[name];
  const baseUrls: { [service: string]: string } = {};
  for (const service of BASE_URL_SERVICES) {
    const url = env[`HALO_${service.toUpperCase()}_BASE_URL`];
    if (url) baseUrls[service] = url;
  }
  const ota = { feedUrl: env.HALO_OTA_FEED_URL || undefined, trustedKeys: (env.HALO_OTA_KEYS ?? "").split(",").filter((k) => k !== "") };
  const releaseDir = resolve(env.HALO_RELEASE_DIR ?? "./release");
  const micWav = env.HALO_MIC_WAV ? resolve(env.HALO_MIC_WAV) : undefined;
  const nostrRelays = env.HALO_NOSTR_RELAYS ? env.HALO_NOSTR_RELAYS.split(",").map((u) => u.trim()) : undefined;
  return {
    dataDir: resolve(env.HALO_DATA ?? "./.halo-data"),
    host: env.HALO_HOST ?? "127.0.0.1",
    port,
    initialSecrets,
    baseUrls,
    ota,
    releaseDir,
    nostrRelays,
    micWav,
  };
}

export async function startSimulator(options: SimOptions): Promise<RunningSim> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const given = { ...simulatorPorts(options.dataDir, FIRMWARE_VERSION, options.portOverrides?.log), ...options.portOverrides };
  // Repeated lines (a client aborting requests) are rate-limited and counted.
  const ports = { ...given, log: new RateLimitedLog(given.log, given.clock) };
  // Seeded before the core is built, so every subsystem sees them from the first boot on.
  const seeds = new SecretStore(ports.settings, ports.log);
  for (const [name, value] of Object.entries(options.initialSecrets ?? {}) as Array<[SecretName, string]>) seeds.seed(name, value);
  // HALO_MIC_WAV: the room's sound for the first capture; a file that cannot be used stops the start.
  if (options.micWav) {
    const mic = ports.audioIn as SimAudioIn | undefined;
    if (!mic?.load) throw new Error("HALO_MIC_WAV needs the simulator's own microphone.");
    const ms = loadMicWav(mic, options.micWav, { once: true });
    ports.log.info(`simulated microphone: ${options.micWav} (${Math.round(ms)} ms) plays from the first capture`);
  }
  const core = {
    baseUrls: options.baseUrls ?? {},
    otaBuild: { version: FIRMWARE_VERSION, board: "esp32s3", feedUrl: options.ota?.feedUrl, trustedKeys: options.ota?.trustedKeys ?? [] },
    // cashu-ts is loaded by the host, never preloaded (docs/wallet.md).
    walletKit: createCashuKit,
  };
  const button = ports.button as SimButton | undefined;
  // The simulator's own owner route presses its button (POST /api/sim/button); the halo it reaches is made below.
  let made: Halo | undefined;
  const buttonRoute = simButtonRoute(
    {
      press: (gesture) => {
        if (!button?.press || !made) return undefined;
        button.press(gesture);
        return made.button.last();
      },
      phase: () => made?.core.voice.phase() ?? "idle",
    },
    (token) => made?.core.clients.verify(token),
  );
  const halo = createHalo({
    ports,
    firmwareVersion: FIRMWARE_VERSION,
    toolsPageSize: options.toolsPageSize,
    core,
    // The flashing page at /flash/ and the button route, behind the same checks as every route.
    hostRoutes: [...flashPageRoutes(options.releaseDir ?? resolve("release")), buttonRoute],
    // The long press opens Wi-Fi setup on the device; the simulator has no radio. The very long press reboots (recorded).
    buttonActions: {
      longPress: () => ports.log.info("simulated button: long press (Wi-Fi setup on the device; the simulator has no radio)"),
      veryLongPress: () => ports.system?.reboot(),
    },
    // The Host check: the PC's own addresses, for when HALO_HOST opens the simulator to the LAN.
    addresses: () => Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address)),
    // The Host check also answers to halo.local.
    deviceName: () => "halo",
  });
  made = halo;
  const tokenPath = join(options.dataDir, "admin-token");
  // A new image's health check settles before the simulator answers (start() would run it in the background).
  await halo.core.updates?.boot();
  // HALO_NOSTR_RELAYS seeds the Nostr relays while the owner has set none (docs/nostr.md).
  if (options.nostrRelays && halo.core.nostr.relays().length === 0) halo.core.nostr.setRelays(options.nostrRelays);
  // The scheduler tick and the Telegram loop run on Node's timers; neither keeps the process alive.
  const { ownerToken: token } = halo.start();
  if (token) {
    writeFileSync(tokenPath, token + "\n", { mode: 0o600 });
    chmodSync(tokenPath, 0o600);
  }
  const server = createHttpServer(halo, ports.log);
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
    close: async () => {
      await halo.stop();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
