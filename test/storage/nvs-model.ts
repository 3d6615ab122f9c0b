// A stand-in for the SDK's `preference` module on the ESP32 (modPreference.c
// over NVS), which runs only on the device: it refuses what NVS refuses
// (namespace and entry names over 15 characters, values over the 4,000 bytes
// the SDK documents) and, like the SDK, erases an entry before writing it, so
// a power cut can fall between the two. `cut` throws at a chosen point to
// stand for that cut. No Node imports: the settings suite also runs on XS.
import type { PreferenceStore } from "../../hosts/device/ports/nvs-settings.ts";

export type NvsCutPoint = "after-erase" | "after-write" | "after-delete";

export class PowerCut extends Error {}

export class NvsModel implements PreferenceStore {
  readonly domains = new Map<string, Map<string, ArrayBuffer | string | number | boolean>>();
  /** Calls of each kind so far, for tests that cut at the n-th one. */
  writes = 0;
  deletes = 0;
  /** Throws PowerCut when it returns true for (point, count of that kind so far). */
  cut?: (point: NvsCutPoint, n: number) => boolean;

  private domain(domain: string, name: string): Map<string, ArrayBuffer | string | number | boolean> {
    if (domain.length === 0 || domain.length > 15) throw new Error("nvs_open fail");
    if (name.length === 0 || name.length > 15) throw new Error("nvs key too long");
    let d = this.domains.get(domain);
    if (!d) {
      d = new Map();
      this.domains.set(domain, d);
    }
    return d;
  }

  set(domain: string, key: string, value: ArrayBuffer): void {
    const d = this.domain(domain, key);
    if (value.byteLength > 4000) throw new Error("nvs set fail");
    d.delete(key); // the SDK's ERASE_KEY before every set
    this.writes++;
    if (this.cut?.("after-erase", this.writes)) throw new PowerCut("after-erase");
    d.set(key, value.slice(0));
    if (this.cut?.("after-write", this.writes)) throw new PowerCut("after-write");
  }

  get(domain: string, key: string): unknown {
    const stored = this.domain(domain, key).get(key);
    return stored instanceof ArrayBuffer ? stored.slice(0) : stored;
  }

  delete(domain: string, key: string): void {
    this.domain(domain, key).delete(key);
    this.deletes++;
    if (this.cut?.("after-delete", this.deletes)) throw new PowerCut("after-delete");
  }

  keys(domain: string): string[] {
    return Array.from(this.domains.get(domain)?.keys() ?? []);
  }

  /** Every entry name in every domain. */
  names(): string[] {
    const out: string[] = [];
    for (const [domain, entries] of this.domains) for (const name of entries.keys()) out.push(`${domain}/${name}`);
    return out;
  }
}
