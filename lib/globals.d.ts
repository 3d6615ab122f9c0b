// The few host globals lib/ may use. XS has none of these built in: the device
// gets them from Moddable's text/encoder and text/decoder modules, the XS test
// host compiles the same C sources, and Node has them natively.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
  /** Writes UTF-8 into `destination` without allocating (Node, and Moddable's text/encoder). */
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: ArrayBufferView | ArrayBuffer): string;
}
