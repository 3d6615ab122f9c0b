// A simulated Wi-Fi radio for tests: the simulator itself has none (it uses
// the computer's network), so it is given only through portOverrides. The
// modes follow lib's WifiSetup, as the device's do; a network in range joins
// at once, any other keeps "connecting". No Node imports.
import { WifiSetup } from "../../../lib/net/wifi-setup.ts";
import type { Wifi, WifiNetwork, WifiStatus } from "../../../lib/ports.ts";

export interface SimWifi extends Wifi {
  /** Every pair handed to join(), oldest first (tests read what was stored). */
  readonly joins: Array<{ ssid: string; password: string }>;
}

/** The address a joined simulated radio reports. */
export const SIM_WIFI_ADDRESS = "192.168.1.50";

export function simWifi(options: { inRange?: WifiNetwork[]; stored?: string } = {}): SimWifi {
  const inRange = options.inRange ?? [];
  const flow = new WifiSetup(options.stored !== undefined);
  let ssid = options.stored;
  let joined: WifiNetwork | undefined = inRange.find((n) => n.ssid === ssid);
  if (joined) flow.apply({ kind: "connected" });
  const joins: Array<{ ssid: string; password: string }> = [];
  return {
    joins,
    status(): WifiStatus {
      if (flow.current() === "setup") return { state: "setup", ssid };
      if (!joined) return { state: "connecting", ssid };
      return { state: "connected", ssid, rssiDbm: joined.rssiDbm, address: SIM_WIFI_ADDRESS };
    },
    join(credentials) {
      joins.push({ ...credentials });
      ssid = credentials.ssid;
      flow.apply({ kind: "credentials-saved" });
      joined = inRange.find((n) => n.ssid === credentials.ssid);
      if (joined) flow.apply({ kind: "connected" });
    },
    scan: () => Promise.resolve(inRange.map((n) => ({ ...n }))),
  };
}
