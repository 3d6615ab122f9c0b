// "modules" (modules/base/modules): the modules in the build, for a module
// that exists on one platform only (e.g. "neopixel" on the ESP32, not on lin).

export default class Modules {
  static has(name: string): boolean;
  /** Loads the module at once and returns its default export. */
  static importNow(name: string): unknown;
}
