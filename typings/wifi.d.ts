// "wifi" (modules/network/wifi): station and access point modes. On the lin simulator it is a
// stand-in that reports connected and gotIP after a second each.

export type WiFiMessage = "connect" | "gotIP" | "lostIP" | "disconnect" | "station_connect" | "station_disconnect";

export interface WiFiOptions {
  ssid: string;
  password?: string;
  bssid?: ArrayBuffer;
}

export default class WiFi {
  constructor(options: WiFiOptions | undefined, callback?: (message: WiFiMessage, value?: unknown) => void);
  close(): void;
  static connect(options?: WiFiOptions): void;
  /** Starts an access point (the mode becomes accessPoint). */
  static accessPoint(options: { ssid: string; password?: string; channel?: number; hidden?: boolean; max?: number; station?: boolean }): void;
  /** Calls back once per network found, then with null. */
  static scan(options: { hidden?: boolean; channel?: number }, callback: (item: { ssid: string; authentication: string; rssi: number } | null) => void): void;
  static disconnect(): void;
  static mode: number;
  static readonly Mode: { readonly none: 0; readonly station: 1; readonly accessPoint: 2; readonly off?: -5 };
  static readonly connected: "connect";
  static readonly gotIP: "gotIP";
  static readonly lostIP: "lostIP";
  static readonly disconnected: "disconnect";
}
