// Joins Wi-Fi with the stored credentials and retries a lost network with
// backoff; without credentials (or on a long press, or after repeated
// failures with credentials that never worked) it opens a setup access point
// with a captive portal, and it speaks Improv on the serial console. The
// decisions are lib/net/wifi-setup.ts; this file does what they say.
// On lin (the host's own network) none of this runs: it reports ready at once.
import WiFi, { type WiFiMessage } from "wifi";
import Net from "net";
import SNTP from "sntp";
import Time from "time";
import Timer, { type TimerId } from "timer";
import type { RingEvent } from "../../lib/device/ring/machine";
import type { ImprovDevice } from "../../lib/net/improv";
import type { WifiJoin } from "../../lib/net/wifi-credentials";
import { WifiSetup } from "../../lib/net/wifi-setup";
import type { Log, Wifi, WifiNetwork, WifiStatus } from "../../lib/ports";
import { WIFI_DOMAIN, type WifiCredentials } from "./config";
import { preference } from "./ports/preference";
import { startCaptiveDns } from "./setup/captive-dns";
import { startImprovConsole, type ImprovConsoleConfig } from "./setup/improv-console";
import { startPortalServer } from "./setup/portal-server";

/** The access point's own address (ESP-IDF's default for the soft AP). */
const AP_ADDRESS = "192.168.4.1";
const AP_SSID = "Halo-setup";
/** The name Improv reports (the device announces no other). */
const HOSTNAME = "halo";
/** Preference key that opens setup at the next boot (set by a long press while serving). */
const SETUP_NEXT_BOOT = "setup";
const AP_CHANNEL = 6;
/** Networks a scan reports at most. */
const SCAN_MAX = 20;
/** How long a join handed over by the portal or Improv may take. */
const JOIN_TIMEOUT_MS = 30000;
/** Time for the portal's answer to reach the phone before the access point closes. */
const PORTAL_CLOSE_DELAY_MS = 2000;
/** A clock earlier than this has not been set (2024-01-01). */
const CLOCK_SET_AFTER_MS = 1704067200000;

export interface NetworkOptions {
  wifi?: WifiCredentials;
  sntpHost?: string;
  /** True on lin: the host's network is used as it is. */
  simulated: boolean;
  httpPort: number;
  deviceName: string;
  firmwareVersion: string;
  improv?: ImprovConsoleConfig;
  log: Log;
  /** Reports network and setup phases to the status ring. */
  ring?(event: RingEvent): void;
  /** Called once, when the device first has an address to serve on. */
  ready(): void;
  /** Restarts the device (a long press while serving opens setup after a restart). */
  reboot(): void;
}

/** Whether a Wi-Fi radio is in use and joined; "absent" when the host's own network is used (lin). */
let wifiState: "connected" | "disconnected" | "absent" = "absent";

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

export class DeviceNetwork {
  private readonly flow: WifiSetup;
  private monitor: WiFi | undefined;
  private retry: TimerId | undefined;
  private portal: Array<{ close(): void }> = [];
  private started = false;
  private joinWaiters: Array<(ok: boolean) => void> = [];
  /** The network joined or being tried (its name is reported, never its password). */
  private stored: WifiCredentials | undefined;

  constructor(private readonly o: NetworkOptions) {
    this.flow = new WifiSetup(o.wifi !== undefined);
    this.stored = o.wifi;
  }

  /** The station for the Wi-Fi port: joined, trying, or the setup access point open. */
  status(): WifiStatus {
    const ssid = this.stored?.ssid;
    if (this.portal.length > 0) return { state: "setup", ssid };
    if (wifiState !== "connected") return { state: "connecting", ssid };
    const rssi = Net.get("RSSI");
    const address = Net.get("IP", "station");
    return {
      state: "connected",
      ssid,
      rssiDbm: typeof rssi === "number" ? rssi : undefined,
      address: typeof address === "string" ? address : undefined,
    };
  }

  /** The owner API's new credentials: stored and joined as the portal's are, once the answer has left. */
  joinFromOwner(join: WifiJoin): void {
    Timer.set((): void => void this.tryJoin(join), PORTAL_CLOSE_DELAY_MS);
  }

  scan(): Promise<WifiNetwork[]> {
    return new Promise((resolve) => {
      const found: WifiNetwork[] = [];
      WiFi.scan({}, (item) => {
        if (!item) resolve(found);
        else if (found.length < SCAN_MAX && item.ssid)
          found.push({ ssid: item.ssid, rssiDbm: item.rssi, secure: item.authentication !== "none" });
      });
    });
  }

  start(): void {
    const { o } = this;
    if (o.simulated) {
      o.log.info("no Wi-Fi radio: using the host's network as it is");
      this.online();
      return;
    }
    startImprovConsole(o.improv, this.improvDevice(), o.log);
    const asked = preference().get(WIFI_DOMAIN, SETUP_NEXT_BOOT) !== undefined;
    if (asked) preference().delete(WIFI_DOMAIN, SETUP_NEXT_BOOT);
    if (asked) this.flow.apply({ kind: "long-press" });
    if (this.flow.current() === "setup" || !o.wifi) this.openSetup(asked ? "the button was held" : "no Wi-Fi credentials are stored");
    else this.join(o.wifi);
  }

  /**
   * The long press: open setup. Once the device serves on its port, the
   * portal cannot have that port, so setup opens after a restart instead.
   */
  enterSetup(): void {
    if (this.o.simulated || this.portal.length > 0) return;
    if (this.started) {
      preference().set(WIFI_DOMAIN, SETUP_NEXT_BOOT, 1);
      this.o.log.info("Wi-Fi setup: restarting into setup");
      this.o.reboot();
      return;
    }
    this.flow.apply({ kind: "long-press" });
    this.openSetup("the button was held");
  }

  private online(): void {
    this.o.ring?.({ kind: "network", up: true });
    if (this.started) return;
    this.started = true;
    this.o.ready();
  }

  private join(wifi: WifiCredentials): void {
    const { o } = this;
    this.monitor?.close();
    this.stored = wifi;
    wifiState = "disconnected";
    this.monitor = new WiFi(wifi, (message: WiFiMessage): void => {
      if (message === WiFi.gotIP) {
        wifiState = "connected";
        this.flow.apply({ kind: "connected" });
        o.log.info(`Wi-Fi "${wifi.ssid}": address ${Net.get("IP") ?? "?"}`);
        if (o.sntpHost) setClock(o.sntpHost, o.log);
        this.settleJoins(true);
        this.online();
      } else if (message === WiFi.lostIP) {
        wifiState = "disconnected";
      } else if (message === WiFi.disconnected) {
        wifiState = "disconnected";
        o.ring?.({ kind: "network", up: false });
        if (this.flow.apply({ kind: "disconnected" }) === "setup") {
          this.settleJoins(false);
          this.openSetup(`"${wifi.ssid}" could not be joined`);
          return;
        }
        if (this.retry !== undefined) Timer.clear(this.retry);
        this.retry = Timer.set((): void => WiFi.connect(wifi), this.flow.retryDelayMs());
      }
    });
  }

  private openSetup(why: string): void {
    const { o } = this;
    this.monitor?.close();
    this.monitor = undefined;
    if (this.retry !== undefined) Timer.clear(this.retry);
    o.log.info(`Wi-Fi setup: ${why}; join the network "${AP_SSID}" and open http://${AP_ADDRESS}/`);
    WiFi.accessPoint({ ssid: AP_SSID, channel: AP_CHANNEL });
    this.portal = [
      startCaptiveDns(AP_ADDRESS, o.log),
      startPortalServer(o.httpPort, AP_ADDRESS, o.deviceName, o.log, (join) => {
        Timer.set((): void => void this.tryJoin(join), PORTAL_CLOSE_DELAY_MS);
      }),
    ];
    o.ring?.({ kind: "setup", on: true });
  }

  private closeSetup(): void {
    for (const part of this.portal) part.close();
    this.portal = [];
    this.o.ring?.({ kind: "setup", on: false });
  }

  /** Stores the credentials and joins with them (from the portal or Improv). */
  private tryJoin(join: WifiJoin): Promise<boolean> {
    this.closeSetup();
    preference().set(WIFI_DOMAIN, "ssid", join.ssid);
    if (join.password) preference().set(WIFI_DOMAIN, "password", join.password);
    else preference().delete(WIFI_DOMAIN, "password");
    this.flow.apply({ kind: "credentials-saved" });
    WiFi.mode = WiFi.Mode.station;
    this.join(join.password ? { ssid: join.ssid, password: join.password } : { ssid: join.ssid });
    return new Promise((resolve) => {
      const timer = Timer.set((): void => this.settleJoins(false), JOIN_TIMEOUT_MS);
      this.joinWaiters.push((ok) => {
        Timer.clear(timer);
        resolve(ok);
      });
    });
  }

  private settleJoins(ok: boolean): void {
    const waiters = this.joinWaiters;
    this.joinWaiters = [];
    for (const w of waiters) w(ok);
  }

  private improvDevice(): ImprovDevice {
    const { o } = this;
    return {
      firmwareName: "Halo",
      firmwareVersion: o.firmwareVersion,
      hardware: "esp32-s3-devkitc-1/esp32-s3",
      deviceName: () => o.deviceName,
      hostname: () => HOSTNAME,
      network: () => {
        const online = wifiState === "connected";
        const port = o.httpPort === 80 ? "" : `:${o.httpPort}`;
        return { online, wifi: true, urls: online ? [`http://${String(Net.get("IP"))}${port}`] : [] };
      },
      join: (join) => this.tryJoin(join),
      scan: () => this.scan().then((found) => found.map((n) => ({ ssid: n.ssid, rssi: n.rssiDbm, secure: n.secure }))),
    };
  }
}

/** The Wi-Fi port over the network, which starts after the core is built (so it is looked up at each call). */
export function deviceWifi(network: () => DeviceNetwork | undefined): Wifi {
  return {
    status: () => network()?.status() ?? { state: "connecting" },
    join: (join) => network()?.joinFromOwner(join),
    scan: () => network()?.scan() ?? Promise.resolve([]),
  };
}

export function startNetwork(options: NetworkOptions): DeviceNetwork {
  const network = new DeviceNetwork(options);
  network.start();
  return network;
}

/** The station's state for the System port; the RSSI only while connected. */
export function wifiStatus(): { state: "connected" | "disconnected" | "absent"; rssiDbm?: number } {
  if (wifiState !== "connected") return { state: wifiState };
  const rssi = Net.get("RSSI");
  return typeof rssi === "number" ? { state: wifiState, rssiDbm: rssi } : { state: wifiState };
}
