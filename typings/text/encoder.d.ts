// "text/encoder" (modules/data/text/encoder): native UTF-8 encoder.

export default class TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(input: string, destination: Uint8Array): { read: number; written: number };
}
