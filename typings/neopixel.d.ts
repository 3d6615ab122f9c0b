// "neopixel" (modules/drivers/neopixel): WS2812 pixels on one pin, driven by
// the ESP32's RMT peripheral. Colours are packed by makeRGB/makeHSB in the
// strip's byte order; `brightness` (0-255) scales every byte when update() sends.

export default class NeoPixel {
  constructor(options: { length: number; pin: number; order?: string });
  close(): void;
  /** Sends the pixel buffer to the strip. */
  update(): void;
  /** r, g, b are 0-255. */
  makeRGB(r: number, g: number, b: number): number;
  /** h is 0-359, s and b are 0-1000. */
  makeHSB(h: number, s: number, b: number): number;
  setPixel(index: number, color: number): void;
  fill(color: number, index?: number, count?: number): void;
  getPixel(index: number): number;
  brightness: number;
  readonly length: number;
  readonly byteLength: number;
}
