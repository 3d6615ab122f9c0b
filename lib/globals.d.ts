// The few host globals lib/ may use. XS has none of these built in: the device
// gets them from Moddable's text/encoder and text/decoder modules, the XS test
// host compiles the same C sources, and Node has them natively.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: ArrayBufferView | ArrayBuffer): string;
}
