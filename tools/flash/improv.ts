import { encodeImprov, IMPROV_DATA_MAX, ImprovReader as DeviceImprovReader } from "../../lib/net/improv-frame.ts";
// Improv Wi-Fi over serial (improv-wifi.com/serial): frames are "IMPROV",
// version 1, type, length, data, and a checksum byte (the sum of every byte
// before it). The flasher sends RPC commands; the board answers with its
// state, errors and RPC results.

export enum ImprovType {
  CurrentState = 0x01,
  ErrorState = 0x02,
  Rpc = 0x03,
  RpcResult = 0x04,
}
export enum ImprovCommand {
  WifiSettings = 0x01,
  CurrentState = 0x02,
  DeviceInfo = 0x03,
}
export const IMPROV_STATES: { readonly [state: number]: string } = { 2: "ready", 3: "provisioning", 4: "provisioned" };
export const IMPROV_ERRORS: { readonly [code: number]: string } = {
  0: "no error",
  1: "invalid RPC packet",
  2: "unknown RPC command",
  3: "unable to connect to the network",
  5: "bad hostname",
  255: "unknown error",
};

export interface ImprovFrame {
  type: number;
  data: Uint8Array;
}

/** One frame (the device's own codec, lib/net/improv-frame.ts, so both sides share it). */
export function encodeFrame(type: number, data: Uint8Array): Uint8Array {
  if (data.length > IMPROV_DATA_MAX) throw new Error(`an Improv frame carries at most ${IMPROV_DATA_MAX} bytes`);
  return encodeImprov(type, data);
}

/** An RPC command frame: command, data length, data. */
export function encodeRpc(command: number, data: Uint8Array = new Uint8Array(0)): Uint8Array {
  const body = new Uint8Array(2 + data.length);
  body[0] = command;
  body[1] = data.length;
  body.set(data, 2);
  return encodeFrame(ImprovType.Rpc, body);
}

/** Length-prefixed strings, as RPC results and Wi-Fi settings carry them. */
export function encodeStrings(strings: string[]): Uint8Array {
  const parts = strings.map((s) => new TextEncoder().encode(s));
  const out = new Uint8Array(parts.reduce((n, p) => n + 1 + p.length, 0));
  let at = 0;
  for (const p of parts) {
    if (p.length > 255) throw new Error("an Improv string is at most 255 bytes");
    out[at++] = p.length;
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function decodeStrings(data: Uint8Array): string[] {
  const out: string[] = [];
  for (let at = 0; at < data.length;) {
    const n = data[at++];
    if (at + n > data.length) throw new Error("an Improv string runs past its frame");
    out.push(new TextDecoder().decode(data.subarray(at, at + n)));
    at += n;
  }
  return out;
}

/** Finds frames in a byte stream that may also carry log lines; frames with a bad checksum are dropped. */
export class ImprovReader {
  private readonly reader = new DeviceImprovReader();

  push(bytes: Uint8Array): ImprovFrame[] {
    const frames: ImprovFrame[] = [];
    for (const read of this.reader.push(bytes)) if (read.ok) frames.push({ type: read.packet.type, data: read.packet.data });
    return frames;
  }
}
