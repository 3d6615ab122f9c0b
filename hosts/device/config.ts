// The device host's settings, read once at boot from the build's `config`
// (manifest.json, or `key=value` arguments to mcconfig) and, for Wi-Fi, from
// preferences the owner set on the device, which win over the build.
import config from "mc/config";
import { preference } from "./ports/preference";

export interface WifiCredentials {
  ssid: string;
  password?: string;
}

export interface DeviceConfig {
  firmwareVersion: string;
  httpPort: number;
  /** Folder (with a trailing '/') that holds the card's files; undefined: no storage. */
  storageRoot?: string;
  /** Create the storage folder when missing (lin only: a card is never created). */
  storageCreate: boolean;
  wifi?: WifiCredentials;
  sntpHost?: string;
  /** Build id for device.status: the board, plus `build=` given to mcconfig (e.g. a commit). */
  build: string;
  /** True on lin: the System port's readings describe the PC process. */
  simulated: boolean;
  /** IANA zone name from the build's `timeZone` key; "UTC" when none is set. */
  timeZone: string;
  /** Outside services' base URLs from `<service>BaseUrl` keys (e.g. `openaiBaseUrl=http://192.168.1.5:8099/v1`): local stand-ins. */
  baseUrls: { [service: string]: string };
  /** The WS2812 ring; undefined when the build names no ring pin. */
  ring?: RingConfig;
  /** The button (active low); undefined when the build names none. */
  button?: { pin: number };
  /** The console UART Improv listens on; undefined when the build names none. */
  improv?: { port: number; receive: number; transmit: number; baud: number };
  /** Updates: the release feed (`otaFeedUrl`) and trusted Ed25519 keys, comma-separated hex (`otaKeys`). */
  ota: { feedUrl?: string; trustedKeys: string[] };
  /** Events the boot-time curve bench signs and verifies per curve (`curveBench=100`); 0: no bench. */
  curveBench: number;
}

export interface RingConfig {
  pin: number;
  length: number;
}

/** Preference domain and keys the owner's Wi-Fi credentials live under. */
export const WIFI_DOMAIN = "wifi";

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function integer(value: unknown, fallback: number): number {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : fallback;
}

function flag(value: unknown): boolean {
  return value === true || value === "true" || value === 1 || value === "1";
}

/** Services whose base URL a `<service>BaseUrl` config key overrides (as HALO_<SERVICE>_BASE_URL does for the simulator). */
const BASE_URL_SERVICES = ["openai", "anthropic", "mistral", "telegram", "tavily"];

function baseUrls(): { [service: string]: string } {
  const out: { [service: string]: string } = {};
  for (const service of BASE_URL_SERVICES) {
    const url = text(config[`${service}BaseUrl`]);
    if (url) out[service] = url;
  }
  return out;
}

/** Longest ring the LED port drives (a bound on the pixel buffer). */
const RING_MAX_PIXELS = 256;
/** Highest GPIO number of the ESP32-S3. */
const MAX_GPIO = 48;

function ringConfig(value: unknown): RingConfig | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { pin, length } = value as { pin?: unknown; length?: unknown };
  if (typeof pin !== "number" || !Number.isInteger(pin) || pin < 0 || pin > MAX_GPIO) return undefined;
  if (typeof length !== "number" || !Number.isInteger(length) || length < 1 || length > RING_MAX_PIXELS) return undefined;
  return { pin, length };
}

function gpio(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_GPIO ? value : undefined;
}

function buttonConfig(value: unknown): { pin: number } | undefined {
  const pin = gpio((value as { pin?: unknown } | undefined)?.pin);
  return pin === undefined ? undefined : { pin };
}

function improvConfig(value: unknown): DeviceConfig["improv"] {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as { port?: unknown; receive?: unknown; transmit?: unknown; baud?: unknown };
  const receive = gpio(v.receive);
  const transmit = gpio(v.transmit);
  const port = typeof v.port === "number" && Number.isInteger(v.port) && v.port >= 0 && v.port <= 2 ? v.port : undefined;
  if (receive === undefined || transmit === undefined || port === undefined) return undefined;
  return { port, receive, transmit, baud: typeof v.baud === "number" && v.baud > 0 ? v.baud : 115200 };
}

function wifiCredentials(): WifiCredentials | undefined {
  const saved = text(preference().get(WIFI_DOMAIN, "ssid"));
  const ssid = saved ?? text(config.ssid);
  if (!ssid) return undefined;
  const password = saved ? text(preference().get(WIFI_DOMAIN, "password")) : text(config.password);
  return password ? { ssid, password } : { ssid };
}

export function readDeviceConfig(): DeviceConfig {
  const root = text(config.storageRoot);
  return {
    firmwareVersion: text(config.firmwareVersion) ?? "0.0.0",
    httpPort: integer(config.httpPort, 80),
    storageRoot: root === undefined ? undefined : root.endsWith("/") ? root : root + "/",
    storageCreate: flag(config.storageCreate),
    wifi: wifiCredentials(),
    sntpHost: text(config.sntp),
    build: [text(config.board) ?? "unknown board", text(config.build)].filter((part) => part !== undefined).join(", "),
    simulated: flag(config.simulated),
    timeZone: text(config.timeZone) ?? "UTC",
    baseUrls: baseUrls(),
    ring: ringConfig(config.ring),
    button: buttonConfig(config.button),
    improv: improvConfig(config.improv),
    ota: { feedUrl: text(config.otaFeedUrl), trustedKeys: (text(config.otaKeys) ?? "").split(",").filter((k) => k !== "") },
    curveBench: integer(config.curveBench, 0),
  };
}
