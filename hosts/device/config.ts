// The device host's settings, read once at boot from the build's `config`
// (manifest.json, or `key=value` arguments to mcconfig) and, for Wi-Fi, from
// preferences the owner set on the device, which win over the build.
import config from "mc/config";
import Preference from "preference";

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

function wifiCredentials(): WifiCredentials | undefined {
  const saved = text(Preference.get(WIFI_DOMAIN, "ssid"));
  const ssid = saved ?? text(config.ssid);
  if (!ssid) return undefined;
  const password = saved ? text(Preference.get(WIFI_DOMAIN, "password")) : text(config.password);
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
  };
}
