// Improv Wi-Fi over serial (improv-wifi.com/serial): frames are "IMPROV",
// version 1, type, length, data, and a checksum byte (the sum of every byte
// before it). The flasher sends RPC commands; the board answers with its
// state, errors and RPC results.

export const IMPROV_HEADER = new TextEncoder().encode("IMPROV");
export const IMPROV_VERSION = 1;
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

export function encodeFrame(type: number, data: Uint8Array): Uint8Array {
  if (data.length > 255) throw new Error("an Improv frame carries at most 255 bytes");
  const out = new Uint8Array(IMPROV_HEADER.length + 4 + data.length);
  out.set(IMPROV_HEADER, 0);
  out[6] = IMPROV_VERSION;
  out[7] = type;
  out[8] = data.length;
  out.set(data, 9);
  let sum = 0;
  for (let i = 0; i < out.length - 1; i++) sum = (sum + out[i]) & 0xff;
  out[out.length - 1] = sum;
  return out;
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
  private buffer = new Uint8Array(0);

  push(bytes: Uint8Array): ImprovFrame[] {
    const joined = new Uint8Array(this.buffer.length + bytes.length);
    joined.set(this.buffer, 0);
    joined.set(bytes, this.buffer.length);
    const frames: ImprovFrame[] = [];
    let at = 0;
    for (;;) {
      const start = indexOfHeader(joined, at);
      if (start < 0) {
        at = Math.max(at, joined.length - (IMPROV_HEADER.length - 1)); // a header may be split across reads
        break;
      }
      if (joined.length < start + 9) {
        at = start;
        break;
      }
      const length = joined[start + 8];
      const end = start + 9 + length + 1;
      if (joined.length < end) {
        at = start;
        break;
      }
      let sum = 0;
      for (let i = start; i < end - 1; i++) sum = (sum + joined[i]) & 0xff;
      if (joined[start + 6] === IMPROV_VERSION && sum === joined[end - 1])
        frames.push({ type: joined[start + 7], data: joined.slice(start + 9, end - 1) });
      at = sum === joined[end - 1] ? end : start + 1;
    }
    this.buffer = joined.slice(at);
    return frames;
  }
}

function indexOfHeader(bytes: Uint8Array, from: number): number {
  outer: for (let i = from; i + IMPROV_HEADER.length <= bytes.length; i++) {
    for (let j = 0; j < IMPROV_HEADER.length; j++) if (bytes[i + j] !== IMPROV_HEADER[j]) continue outer;
    return i;
  }
  return -1;
}
