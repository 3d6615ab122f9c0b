// "preference" (modules/files/preference): small persistent values by domain
// and key. On ESP32 it is NVS: names of at most 15 characters, values of at
// most 4000 bytes.

export type PreferenceValue = boolean | number | string | ArrayBuffer;

export default class Preference {
  static set(domain: string, key: string, value: PreferenceValue): void;
  static get(domain: string, key: string): PreferenceValue | undefined;
  static delete(domain: string, key: string): void;
  static keys(domain: string): string[];
}
