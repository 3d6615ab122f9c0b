// "net" (modules/network/net): facts about the active network connection.

export default class Net {
  static get(property: "IP" | "MAC" | "SSID" | "BSSID", iface?: "station" | "ap" | "ethernet"): string | undefined;
  static get(property: "RSSI" | "CHANNEL"): number | undefined;
  /** DNS lookup; `address` is undefined when the name does not resolve. */
  static resolve(host: string, callback: (name: string, address?: string) => void): void;
}
