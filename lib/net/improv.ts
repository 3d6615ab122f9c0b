// The Improv Wi-Fi service on the serial console: answers a web flasher's RPC
// commands (improv-wifi.com/serial), including 0x07 (network state), and
// hands Wi-Fi credentials to the host to try. The host feeds console bytes in
// and writes what `send` gets out.
import { decodeUtf8, encodeUtf8, truncateUtf8 } from "../util/utf8";
import {
  IMPROV_DATA_MAX,
  IMPROV_TYPE_ERROR,
  IMPROV_TYPE_RESULT,
  IMPROV_TYPE_RPC,
  IMPROV_TYPE_STATE,
  ImprovReader,
  encodeImprov,
} from "./improv-frame";
import { checkWifiJoin, type WifiJoin } from "./wifi-credentials";

export const IMPROV_STATE_READY = 0x02;
export const IMPROV_STATE_PROVISIONING = 0x03;
export const IMPROV_STATE_PROVISIONED = 0x04;

export const IMPROV_ERROR_NONE = 0x00;
export const IMPROV_ERROR_INVALID_RPC = 0x01;
export const IMPROV_ERROR_UNKNOWN_RPC = 0x02;
export const IMPROV_ERROR_UNABLE_TO_CONNECT = 0x03;
export const IMPROV_ERROR_BAD_HOSTNAME = 0x05;

export const IMPROV_RPC_WIFI = 0x01;
export const IMPROV_RPC_STATE = 0x02;
export const IMPROV_RPC_INFO = 0x03;
export const IMPROV_RPC_SCAN = 0x04;
export const IMPROV_RPC_HOSTNAME = 0x05;
export const IMPROV_RPC_NAME = 0x06;
export const IMPROV_RPC_NETWORK = 0x07;

/** Network-state flags of RPC 0x07. */
export const IMPROV_NET_ONLINE = 0x01;
export const IMPROV_NET_WIFI = 0x02;

/** Scan results sent at most (each is one packet). */
const SCAN_RESULTS_MAX = 20;

export interface ImprovNetwork {
  ssid: string;
  rssi: number;
  secure: boolean;
}

export interface ImprovDevice {
  firmwareName: string;
  firmwareVersion: string;
  /** Hardware chip or variant, e.g. "esp32-s3-devkitc-1/esp32-s3". */
  hardware: string;
  deviceName(): string;
  hostname(): string;
  /** Online (and over what) now, with the URLs the device serves on while online. */
  network(): { online: boolean; wifi: boolean; urls: string[] };
  /** Tries the credentials and keeps them when they work; resolves true once joined. */
  join(join: WifiJoin): Promise<boolean>;
  /** The networks in range, when the host can scan. */
  scan?(): Promise<ImprovNetwork[]>;
}

/** The strings of an RPC result, clipped so the packet fits its one-byte length. */
export function rpcResult(command: number, strings: string[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 2;
  for (const s of strings) {
    const room = IMPROV_DATA_MAX - total - 1;
    if (room < 0) break;
    const bytes = encodeUtf8(truncateUtf8(s, Math.min(room, 255)));
    parts.push(bytes);
    total += 1 + bytes.length;
  }
  const out = new Uint8Array(total);
  out[0] = command;
  out[1] = total - 2;
  let at = 2;
  for (const p of parts) {
    out[at++] = p.length;
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Splits length-prefixed strings; undefined when the lengths do not add up. */
function strings(data: Uint8Array): string[] | undefined {
  const out: string[] = [];
  let at = 0;
  while (at < data.length) {
    const n = data[at];
    if (at + 1 + n > data.length) return undefined;
    out.push(decodeUtf8(data.subarray(at + 1, at + 1 + n)));
    at += 1 + n;
  }
  return out;
}

export class ImprovService {
  private readonly reader = new ImprovReader();
  private state = IMPROV_STATE_READY;
  private busy = false;

  constructor(
    private readonly device: ImprovDevice,
    private readonly send: (bytes: Uint8Array) => void,
  ) {
    if (device.network().online && device.network().wifi) this.state = IMPROV_STATE_PROVISIONED;
  }

  /** Bytes from the console; resolves once every command they held was answered. */
  async receive(bytes: Uint8Array): Promise<void> {
    for (const read of this.reader.push(bytes)) {
      if (!read.ok) this.error(IMPROV_ERROR_INVALID_RPC);
      else if (read.packet.type === IMPROV_TYPE_RPC) await this.rpc(read.packet.data);
    }
  }

  private emit(type: number, data: Uint8Array): void {
    this.send(encodeImprov(type, data));
  }

  private error(code: number): void {
    this.emit(IMPROV_TYPE_ERROR, Uint8Array.of(code));
  }

  private setState(state: number): void {
    this.state = state;
    this.emit(IMPROV_TYPE_STATE, Uint8Array.of(state));
  }

  private result(command: number, values: string[]): void {
    this.emit(IMPROV_TYPE_RESULT, rpcResult(command, values));
  }

  private async rpc(data: Uint8Array): Promise<void> {
    if (data.length < 2 || data[1] !== data.length - 2) return this.error(IMPROV_ERROR_INVALID_RPC);
    const command = data[0];
    const body = data.subarray(2);
    this.error(IMPROV_ERROR_NONE);
    const { device } = this;
    switch (command) {
      case IMPROV_RPC_WIFI:
        return this.wifi(body);
      case IMPROV_RPC_STATE:
        this.setState(this.state);
        if (this.state === IMPROV_STATE_PROVISIONED) this.result(IMPROV_RPC_WIFI, device.network().urls.slice(0, 1));
        return;
      case IMPROV_RPC_INFO:
        return this.result(command, [device.firmwareName, device.firmwareVersion, device.hardware, device.deviceName()]);
      case IMPROV_RPC_SCAN: {
        const found = device.scan ? await device.scan().catch((): ImprovNetwork[] => []) : [];
        for (const n of found.slice(0, SCAN_RESULTS_MAX)) this.result(command, [n.ssid, String(n.rssi), n.secure ? "YES" : "NO"]);
        return this.result(command, []);
      }
      case IMPROV_RPC_HOSTNAME:
      case IMPROV_RPC_NAME:
        // Getting only: the name comes from the owner's settings, not the flasher.
        if (body.length > 0) return this.error(command === IMPROV_RPC_HOSTNAME ? IMPROV_ERROR_BAD_HOSTNAME : IMPROV_ERROR_UNKNOWN_RPC);
        return this.result(command, [command === IMPROV_RPC_HOSTNAME ? device.hostname() : device.deviceName()]);
      case IMPROV_RPC_NETWORK: {
        const net = device.network();
        const flags = (net.online ? IMPROV_NET_ONLINE : 0) | (net.wifi ? IMPROV_NET_WIFI : 0);
        return this.result(command, [String(flags), ...(net.online ? net.urls : [])]);
      }
      default:
        return this.error(IMPROV_ERROR_UNKNOWN_RPC);
    }
  }

  private async wifi(body: Uint8Array): Promise<void> {
    const parts = strings(body);
    if (parts?.length !== 2) return this.error(IMPROV_ERROR_INVALID_RPC);
    const join = { ssid: parts[0], password: parts[1] };
    if (checkWifiJoin(join) !== undefined) return this.error(IMPROV_ERROR_INVALID_RPC);
    if (this.busy) return this.error(IMPROV_ERROR_UNABLE_TO_CONNECT);
    this.busy = true;
    this.setState(IMPROV_STATE_PROVISIONING);
    let joined = false;
    try {
      joined = await this.device.join(join);
    } catch {
      joined = false;
    }
    this.busy = false;
    if (!joined) {
      this.setState(IMPROV_STATE_READY);
      return this.error(IMPROV_ERROR_UNABLE_TO_CONNECT);
    }
    this.setState(IMPROV_STATE_PROVISIONED);
    this.result(IMPROV_RPC_WIFI, this.device.network().urls.slice(0, 1));
  }
}
