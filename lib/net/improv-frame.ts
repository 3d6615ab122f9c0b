// Improv Wi-Fi over serial (improv-wifi.com/serial): packets are "IMPROV",
// version 1, type, length, data, then a checksum that is the low byte of the
// sum of every byte before it. The reader finds packets in a console stream
// that also carries log text, and drops what does not check out.

export const IMPROV_HEADER = [0x49, 0x4d, 0x50, 0x52, 0x4f, 0x56];
export const IMPROV_VERSION = 1;
/** The length field is one byte. */
export const IMPROV_DATA_MAX = 255;

export const IMPROV_TYPE_STATE = 0x01;
export const IMPROV_TYPE_ERROR = 0x02;
export const IMPROV_TYPE_RPC = 0x03;
export const IMPROV_TYPE_RESULT = 0x04;

export interface ImprovPacket {
  type: number;
  data: Uint8Array;
}

/** What the reader hands on: a packet, or a packet whose checksum was wrong. */
export type ImprovRead = { ok: true; packet: ImprovPacket } | { ok: false; type: number };

export function improvChecksum(bytes: Uint8Array, end: number): number {
  let sum = 0;
  for (let i = 0; i < end; i++) sum = (sum + bytes[i]) & 0xff;
  return sum;
}

/** One packet on the wire, with the newline the Improv clients and devices add after it. */
export function encodeImprov(type: number, data: Uint8Array): Uint8Array {
  if (data.length > IMPROV_DATA_MAX) throw new RangeError("improv data too long");
  const out = new Uint8Array(IMPROV_HEADER.length + 5 + data.length);
  out.set(IMPROV_HEADER, 0);
  out[6] = IMPROV_VERSION;
  out[7] = type;
  out[8] = data.length;
  out.set(data, 9);
  out[9 + data.length] = improvChecksum(out, 9 + data.length);
  out[10 + data.length] = 0x0a;
  return out;
}

/** Finds Improv packets in a byte stream, one byte at a time; bounded by one packet's size. */
export class ImprovReader {
  private readonly buffer = new Uint8Array(IMPROV_HEADER.length + 4 + IMPROV_DATA_MAX);
  private at = 0;

  /** Feeds bytes; returns the packets (and bad-checksum packets) they complete. */
  push(bytes: Uint8Array): ImprovRead[] {
    const out: ImprovRead[] = [];
    for (let i = 0; i < bytes.length; i++) {
      const read = this.byte(bytes[i]);
      if (read) out.push(read);
    }
    return out;
  }

  private byte(b: number): ImprovRead | undefined {
    const at = this.at;
    if (at < IMPROV_HEADER.length) {
      if (b === IMPROV_HEADER[at]) this.accept(b);
      else this.restart(b);
      return undefined;
    }
    if (at === 6 && b !== IMPROV_VERSION) return this.restart(b);
    this.accept(b);
    if (at < 9) return undefined;
    const length = this.buffer[8];
    if (at < 9 + length) return undefined;
    this.at = 0;
    const type = this.buffer[7];
    if (improvChecksum(this.buffer, 9 + length) !== b) return { ok: false, type };
    return { ok: true, packet: { type, data: this.buffer.slice(9, 9 + length) } };
  }

  private accept(b: number): void {
    this.buffer[this.at++] = b;
  }

  private restart(b: number): undefined {
    this.at = 0;
    if (b === IMPROV_HEADER[0]) this.accept(b);
    return undefined;
  }
}
