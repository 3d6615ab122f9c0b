// Joins Wi-Fi with the configured credentials, sets the clock by SNTP once an
// address arrives, and retries after a disconnect. Without credentials (lin,
// or a device not yet configured) it reports ready at once and does nothing.
import WiFi, { type WiFiMessage } from "wifi";
import Net from "net";
import SNTP from "sntp";
import Time from "time";
import Timer from "timer";
import type { Log } from "../../lib/ports";
import type { WifiCredentials } from "./config";

const RECONNECT_MS = 5000;
/** The Wi-Fi monitor, kept reachable so its callback keeps coming. */
let monitor: WiFi | undefined;
/** Whether a Wi-Fi radio is in use and joined; "absent" when the host's own network is used (lin). */
let wifiState: "connected" | "disconnected" | "absent" = "absent";
/** A clock earlier than this has not been set (2024-01-01). */
const CLOCK_SET_AFTER_MS = 1704067200000;

function setClock(host: string, log: Log): void {
  if (Date.now() > CLOCK_SET_AFTER_MS) return;
  // The SNTP instance closes itself once it has the time or has given up.
  new SNTP({ host }, (message: number, value?: number | string): void => {
    if (message === SNTP.time && typeof value === "number") {
      Time.set(value);
      log.info("clock set by SNTP");
    } else if (message === SNTP.error) log.warn("SNTP gave no time");
  });
}

/** Calls `ready` once, when the device first has an address to serve on. */
export function startNetwork(wifi: WifiCredentials | undefined, sntpHost: string | undefined, log: Log, ready: () => void): void {
  if (!wifi) {
    log.info("no Wi-Fi credentials: using the host's network as it is");
    ready();
    return;
  }
  let started = false;
  wifiState = "disconnected";
  monitor = new WiFi(wifi, (message: WiFiMessage): void => {
    if (message === WiFi.gotIP) {
      wifiState = "connected";
      log.info(`Wi-Fi "${wifi.ssid}": address ${Net.get("IP") ?? "?"}`);
      if (sntpHost) setClock(sntpHost, log);
      if (!started) {
        started = true;
        ready();
      }
    } else if (message === WiFi.lostIP) {
      wifiState = "disconnected";
    } else if (message === WiFi.disconnected) {
      wifiState = "disconnected";
      log.warn(`Wi-Fi "${wifi.ssid}" lost; retrying`);
      Timer.set((): void => WiFi.connect(wifi), RECONNECT_MS);
    }
  });
}

/** The station's state for the System port; the RSSI only while connected. */
export function wifiStatus(): { state: "connected" | "disconnected" | "absent"; rssiDbm?: number } {
  if (wifiState !== "connected") return { state: wifiState };
  const rssi = Net.get("RSSI");
  return typeof rssi === "number" ? { state: wifiState, rssiDbm: rssi } : { state: wifiState };
}

/** Stops watching Wi-Fi (the connection itself stays up). */
export function stopNetwork(): void {
  monitor?.close();
  monitor = undefined;
}
