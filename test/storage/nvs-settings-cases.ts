// The device's Settings port over NVS (hosts/device/ports/nvs-settings.ts)
// against the NVS stand-in: the key mapping, the size limits, and set/remove
// cut at every point by a power cut. Runs on Node (nvs-settings.test.ts) and
// on XS (sdcard.xs.ts).
import { NVS_NAME_MAX_CHARS, nvsBaseName, nvsEntryNames, nvsSettings, SETTINGS_DOMAIN } from "../../hosts/device/ports/nvs-settings.ts";
import { SETTINGS_VALUE_MAX_BYTES } from "../../lib/limits.ts";
import { deepEqual, equal, ok, throws } from "./check.ts";
import { NvsModel, PowerCut, type NvsCutPoint } from "./nvs-model.ts";

export interface PlainCase {
  name: string;
  run(): void;
}

const LONG = "budget.openai.usage-and-a-long-tail-that-runs-to-sixty-four-ch";

export const NVS_SETTINGS_CASES: PlainCase[] = [
  {
    name: "keys up to 14 characters name their entries; longer ones a hash; every name fits NVS and is stable",
    run: () => {
      deepEqual(nvsEntryNames("secret.openai"), ["secret.openaia", "secret.openaib"]);
      equal(nvsBaseName("abcdefghijklmn"), "abcdefghijklmn");
      const hashed = nvsBaseName("client.a-long-client-name");
      ok(/^#[0-9a-v]{12}$/.test(hashed), hashed);
      equal(nvsBaseName("client.a-long-client-name"), hashed, "deterministic");
      // pinned: a mapping that changed between firmware versions would strand every stored long key
      equal(nvsBaseName("person.0123456789abcdef"), "#5bgc3c0g8v3q", "the same on every engine and version");
      const keys = ["a", "cfg.ring", LONG, "x".repeat(64), "client.owner", "secret.telegram"];
      const names = new Set<string>();
      for (const key of keys) for (const name of nvsEntryNames(key)) names.add(name);
      equal(names.size, keys.length * 2, "no two keys share an entry");
      for (const name of names) ok(name.length <= NVS_NAME_MAX_CHARS, `${name} fits`);
      ok(SETTINGS_DOMAIN.length <= NVS_NAME_MAX_CHARS, "the domain fits");
    },
  },
  {
    name: "round-trips values of any text (empty, newlines, NUL, non-ASCII) under short and long keys; keys() lists by prefix",
    run: () => {
      const nvs = new NvsModel();
      const s = nvsSettings(nvs);
      const values: { [key: string]: string } = {
        "cfg.volume": "70",
        [LONG]: "line one\nline two",
        "client.zz": "",
        "secret.openai": "sk-\u0000-nul",
        "person.kim": "Grüße aus 日本 ✓ 😀",
      };
      for (const key of Object.keys(values)) s.set(key, values[key]);
      for (const key of Object.keys(values)) equal(s.get(key), values[key], key);
      equal(s.get("cfg.missing"), undefined);
      deepEqual(s.keys(""), Object.keys(values).sort());
      deepEqual(s.keys("cfg."), ["cfg.volume"]);
      deepEqual(s.keys("budget."), [LONG]);
      s.set(LONG, "replaced");
      equal(nvsSettings(nvs).get(LONG), "replaced", "a second instance (the next boot) reads the same");
      s.remove(LONG);
      s.remove("never.set");
      equal(s.get(LONG), undefined);
      deepEqual(s.keys("budget."), []);
      equal(nvs.keys(SETTINGS_DOMAIN).length, 4, "one entry a key at rest");
    },
  },
  {
    name: `values up to ${SETTINGS_VALUE_MAX_BYTES} UTF-8 bytes fit one NVS entry under the longest key; one byte more is refused`,
    run: () => {
      const nvs = new NvsModel();
      const s = nvsSettings(nvs);
      const key = "k".repeat(64);
      const most = "é".repeat(SETTINGS_VALUE_MAX_BYTES / 2);
      for (let i = 0; i < 3; i++) s.set(key, most); // generations grow: still within the entry
      equal(s.get(key), most);
      throws(() => s.set(key, most + "x"), /too large/);
      throws(() => s.set(key, "a".repeat(SETTINGS_VALUE_MAX_BYTES + 1)), /too large/);
      equal(s.get(key), most, "a refused set leaves the value");
      for (const bad of ["", "UPPER", "sp ace", ".hidden", "k".repeat(65), "slash/x", "#a"]) {
        throws(() => s.set(bad, "v"), /bad settings key/, JSON.stringify(bad));
        throws(() => s.get(bad), /bad settings key/, JSON.stringify(bad));
      }
      throws(() => s.set("ok", 5 as unknown as string), /too large|bad/);
    },
  },
  {
    name: "set is atomic: a power cut at every point of it leaves the old or the new value, never none",
    run: () => {
      for (const key of ["cfg.short", LONG]) {
        for (const point of ["after-erase", "after-write", "after-delete"] as NvsCutPoint[]) {
          for (let n = 1; n <= 3; n++) {
            const nvs = new NvsModel();
            const s = nvsSettings(nvs);
            s.set(key, "v1");
            s.set(key, "v2");
            const writes = nvs.writes;
            const deletes = nvs.deletes;
            nvs.cut = (at, count) => at === point && count === (at === "after-delete" ? deletes : writes) + n;
            let cut = false;
            try {
              s.set(key, "v3");
            } catch (e) {
              ok(e instanceof PowerCut, "only the cut throws");
              cut = true;
            }
            nvs.cut = undefined;
            const after = nvsSettings(nvs).get(key);
            ok(after === "v2" || after === "v3", `${key} cut ${point} #${n}: ${after}`);
            if (!cut) equal(after, "v3");
            nvsSettings(nvs).set(key, "v4");
            equal(nvsSettings(nvs).get(key), "v4", "and the next set works");
            equal(nvs.keys(SETTINGS_DOMAIN).length, 1, "one entry again");
          }
        }
      }
    },
  },
  {
    name: "remove under a power cut never brings back an older value",
    run: () => {
      const nvs = new NvsModel();
      const s = nvsSettings(nvs);
      s.set("cfg.x", "old");
      // a set cut after its write leaves both entries: old and new
      nvs.cut = (at) => at === "after-write";
      throws(
        () => s.set("cfg.x", "new"),
        (e) => e instanceof PowerCut,
      );
      nvs.cut = undefined;
      equal(nvs.keys(SETTINGS_DOMAIN).length, 2);
      equal(nvsSettings(nvs).get("cfg.x"), "new");
      const deletes = nvs.deletes;
      nvs.cut = (at, count) => at === "after-delete" && count === deletes + 1;
      throws(
        () => nvsSettings(nvs).remove("cfg.x"),
        (e) => e instanceof PowerCut,
      );
      nvs.cut = undefined;
      const after = nvsSettings(nvs).get("cfg.x");
      ok(after === "new" || after === undefined, `after a cut remove: ${after}`);
    },
  },
  {
    name: "entries it did not write (another domain's, an old string format, garbage) are ignored; a hash collision is refused",
    run: () => {
      const nvs = new NvsModel();
      const s = nvsSettings(nvs);
      nvs.set(SETTINGS_DOMAIN, "stray", new TextEncoder().encode("1\nstray\nvalue").buffer as ArrayBuffer);
      nvs.set(SETTINGS_DOMAIN, "cfg.ya", new Uint8Array([0xff, 0xfe, 0x0a]).buffer as ArrayBuffer);
      nvs.set("wifi", "ssid", new TextEncoder().encode("home").buffer as ArrayBuffer);
      equal(s.get("cfg.y"), undefined);
      deepEqual(s.keys(""), []);
      s.set("cfg.y", "fine");
      equal(s.get("cfg.y"), "fine");
      // an entry under another key's name: what a hash collision would look like
      const [a] = nvsEntryNames(LONG);
      nvs.set(SETTINGS_DOMAIN, a, new TextEncoder().encode("1\nsomething.else\nx").buffer as ArrayBuffer);
      throws(() => s.get(LONG), /collision/);
      throws(() => s.set(LONG, "v"), /collision/);
    },
  },
];
