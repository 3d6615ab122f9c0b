// "text/decoder" (modules/data/text/decoder): native UTF-8 decoder.

export default class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  /** Accepts an ArrayBuffer or a view of one. */
  decode(input?: ArrayBuffer | ArrayBufferView): string;
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
}
