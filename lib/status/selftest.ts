import { encodeUtf8, decodeUtf8 } from "../util/utf8";
import { toHex } from "../util/hash";
import { LOW_HEAP_BYTES, LOW_PSRAM_BYTES } from "./health";
import type { IntrospectionDeps } from "./sources";
import { micLoopback } from "../voice/loopback";

export type TestVerdict = "PASS" | "FAIL" | "SKIP";

export interface TestItem {
  item: string;
  verdict: TestVerdict;
  detail: string;
}

/** The probe written to flash and SD, removed at once. */
const PROBE_SETTINGS_KEY = "selftest.probe";
const PROBE_FILE = "selftest.probe";
/** A clock before this has never been set (no time sync yet). */
const EARLIEST_SANE_TIME = Date.UTC(2024, 0, 1);
const TONE_HZ = 1000;
const TONE_MS = 300;

/**
 * device.selftest: each item PASS, FAIL or SKIP with the reason. Silent items
 * only read or write a probe; the audible ones (speaker tone, mic loopback)
 * run only when asked, and are refused on silent or when the owner turned
 * hardware tests off.
 */
export async function runSelfTest(deps: IntrospectionDeps, audible: boolean): Promise<{ items: TestItem[]; audibleRefusal?: string }> {
  const { ports, config } = deps;
  const items: TestItem[] = [];
  const add = (item: string, verdict: TestVerdict, detail: string): void => void items.push({ item, verdict, detail });

  add("flash settings", ...probeSettings(deps));
  add("SD", ...probeStorage(deps));
  if (!ports.led) add("ring", "SKIP", "no LED ring port");
  else {
    const fault = ports.led.check();
    add("ring", fault ? "FAIL" : "PASS", fault ?? `${ports.led.pixels} pixels answer`);
  }
  const info = ports.system?.info();
  if (!info) add("heap", "SKIP", "no System port");
  else add("heap", info.freeHeapBytes < LOW_HEAP_BYTES ? "FAIL" : "PASS", `${info.freeHeapBytes} bytes free`);
  if (!info || info.freePsramBytes === undefined) add("PSRAM", "SKIP", info ? "the board reports no PSRAM" : "no System port");
  else add("PSRAM", info.freePsramBytes < LOW_PSRAM_BYTES ? "FAIL" : "PASS", `${info.freePsramBytes} bytes free`);
  if (!info || info.wifi === "absent") add("Wi-Fi", "SKIP", info ? "no radio" : "no System port");
  else
    add(
      "Wi-Fi",
      info.wifi === "connected" ? "PASS" : "FAIL",
      info.wifi === "connected" ? `${info.wifiRssiDbm ?? "?"} dBm` : "not connected",
    );
  const now = ports.clock.now();
  add("clock", now >= EARLIEST_SANE_TIME ? "PASS" : "FAIL", now >= EARLIEST_SANE_TIME ? "set" : "not set (no time sync yet)");

  let audibleRefusal: string | undefined;
  if (audible && config.string("profile") === "silent") audibleRefusal = "refused: the device is on silent";
  else if (audible && !config.bool("hwTests")) audibleRefusal = "refused: the owner turned hardware tests off";
  if (!audible) add("speaker", "SKIP", "audible items not requested (audible: true runs them)");
  else if (audibleRefusal) add("speaker", "SKIP", audibleRefusal);
  else if (!ports.audioOut) add("speaker", "SKIP", "no speaker port");
  else {
    try {
      await ports.audioOut.tone(TONE_HZ, TONE_MS);
      add("speaker", "PASS", `${TONE_HZ} Hz tone played`);
    } catch {
      add("speaker", "FAIL", "the tone did not play");
    }
  }
  if (!audible || audibleRefusal) add("mic loopback", "SKIP", audibleRefusal ?? "audible items not requested");
  else if (!ports.audioIn || !ports.audioOut) add("mic loopback", "SKIP", ports.audioIn ? "no speaker port" : "no microphone port");
  else {
    try {
      const r = await micLoopback(ports.audioIn, ports.audioOut, TONE_HZ, TONE_MS);
      add("mic loopback", r.heard ? "PASS" : "FAIL", r.detail);
    } catch (e) {
      add("mic loopback", "FAIL", `the microphone did not capture (${e instanceof Error ? e.message.replace(/\.$/, "") : "error"})`);
    }
  }
  return { items, audibleRefusal };
}

export function selfTestText(result: { items: TestItem[]; audibleRefusal?: string }, simulated: boolean): string {
  const count = (v: TestVerdict): number => result.items.filter((i) => i.verdict === v).length;
  const head = `Self-test${simulated ? " (simulator)" : ""}: ${count("PASS")} PASS, ${count("FAIL")} FAIL, ${count("SKIP")} SKIP`;
  const refusal = result.audibleRefusal ? `\nAudible items ${result.audibleRefusal}.` : "";
  return `${head}${refusal}\n${result.items.map((i) => `- ${i.item}: ${i.verdict} (${i.detail})`).join("\n")}`;
}

function probeValue(deps: IntrospectionDeps): string {
  const bytes = new Uint8Array(8);
  deps.ports.random.fill(bytes);
  return toHex(bytes);
}

function probeSettings(deps: IntrospectionDeps): [TestVerdict, string] {
  const settings = deps.ports.settings;
  const value = probeValue(deps);
  try {
    settings.set(PROBE_SETTINGS_KEY, value);
    const back = settings.get(PROBE_SETTINGS_KEY);
    settings.remove(PROBE_SETTINGS_KEY);
    return back === value ? ["PASS", "write, read back and remove"] : ["FAIL", "read back a different value"];
  } catch {
    return ["FAIL", "the settings store refused the probe"];
  }
}

function probeStorage(deps: IntrospectionDeps): [TestVerdict, string] {
  const storage = deps.ports.storage;
  if (!storage) return ["SKIP", "no storage port"];
  const value = probeValue(deps);
  try {
    if (!storage.present()) return ["FAIL", "no card inserted"];
    storage.writeAtomic(PROBE_FILE, encodeUtf8(value));
    const back = storage.read(PROBE_FILE);
    storage.remove(PROBE_FILE);
    return back && decodeUtf8(back) === value ? ["PASS", "write, read back and remove"] : ["FAIL", "read back different bytes"];
  } catch {
    return ["FAIL", "the card refused the probe"];
  }
}
