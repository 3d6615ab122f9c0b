// "wifi" (modules/network/wifi): station mode. On the lin simulator it is a
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
  static disconnect(): void;
  static mode: number;
  static readonly Mode: { readonly none: 0; readonly station: 1; readonly accessPoint: 2; readonly off?: -5 };
  static readonly connected: "connect";
  static readonly gotIP: "gotIP";
  static readonly lostIP: "lostIP";
  static readonly disconnected: "disconnect";
}
