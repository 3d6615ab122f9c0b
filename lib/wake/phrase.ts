// The owner's wake phrase: three recorded examples reduced to their features (never the audio), kept in
// settings on the device's own flash, and one detector taught from them. docs/wake-word.md, "Teaching".
//
// Examples for a new phrase wait under wake.new.*; the third one teaches a fresh detector and, when the
// three are alike enough, is committed: the features go under the generation not in use (wake.ex.<0|1>.*),
// then the record wake.phrase names that generation. A power cut before the record is written leaves the
// old phrase whole; after it, the new one. Stray keys of the other generation are removed at boot.
import { HaloError } from "../errors";
import type { Log, Settings, WakeDetector, WakeKernel } from "../ports";
import { decodeBase64, encodeBase64 } from "../util/base64";
import { toJson } from "../util/json";
import { wakeRefusalSentence } from "./refusal";

/** Examples a phrase needs. */
export const WAKE_EXAMPLES_NEEDED = 3;
export const WAKE_DEFAULT_SENSITIVITY = 0.5;

const KEY_PHRASE = "wake.phrase";
const PREFIX_TAUGHT = "wake.ex.";
const PREFIX_PENDING = "wake.new.";
/** Base64 characters a settings value holds here (SETTINGS_VALUE_MAX_BYTES is 3,800); an example takes 1 or 2. */
const PART_CHARS = 3000;
/** An example's features are at most 161 frames of 13 values (1.6 s voiced): two parts. */
const MAX_PARTS = 2;

/** What the owner API and device.status show: never the audio or the features. */
export interface WakeState {
  /** A phrase is taught (its three examples are stored). */
  set: boolean;
  /** The detector listens (when set, the microphone is not muted and Halo is idle). */
  enabled: boolean;
  /** 0 (strict) to 1 (eager). */
  sensitivity: number;
  /** Examples recorded towards a new phrase (0-2); the taught phrase stays in use meanwhile. */
  pending: number;
  needed: number;
}

/** The stored record that names the taught examples. */
interface PhraseRecord {
  generation: 0 | 1;
  /** Settings parts of each example. */
  parts: number[];
  enabled: boolean;
  sensitivity: number;
}

export interface WakePhraseDeps {
  kernel: WakeKernel;
  settings: Settings;
  log: Log;
}

export class WakePhrase {
  private record: PhraseRecord | undefined;
  private taught: WakeDetector | undefined;

  constructor(private readonly deps: WakePhraseDeps) {
    this.record = this.load();
  }

  state(): WakeState {
    const r = this.record;
    return {
      set: r !== undefined,
      enabled: r?.enabled ?? false,
      sensitivity: r?.sensitivity ?? WAKE_DEFAULT_SENSITIVITY,
      pending: this.pendingCount(),
      needed: WAKE_EXAMPLES_NEEDED,
    };
  }

  /** The taught detector while the phrase is set and enabled; the voice loop feeds it the microphone. */
  detector(): WakeDetector | undefined {
    return this.record?.enabled ? this.taught : undefined;
  }

  /**
   * Takes one recorded example (16 kHz mono). Refuses one that is silent, clipped, too short or too long,
   * and on the third, examples too unlike each other (the three are then dropped: say them again). The
   * third completes the phrase, which replaces any earlier one and starts enabled.
   */
  addExample(samples: Int16Array): WakeState {
    const { kernel, settings } = this.deps;
    if (samples.length > kernel.maxExampleSamples) throw refused("too-long");
    const example = kernel.exampleFeatures(samples);
    if (example.refusal || !example.features) throw refused(example.refusal ?? "bad-features");
    const pending = this.pendingExamples();
    pending.push(example.features);
    if (pending.length < WAKE_EXAMPLES_NEEDED) {
      writeParts(settings, `${PREFIX_PENDING}${pending.length - 1}.`, example.features);
      return this.state();
    }
    const detector = kernel.createDetector();
    const teaching = detector.teach(pending);
    if (teaching.refusal) {
      detector.close();
      this.clearPending();
      throw refused(teaching.refusal);
    }
    const sensitivity = this.record?.sensitivity ?? WAKE_DEFAULT_SENSITIVITY;
    detector.setSensitivity(sensitivity);
    const generation: 0 | 1 = this.record?.generation === 0 ? 1 : 0;
    removePrefix(settings, `${PREFIX_TAUGHT}${generation}.`);
    const parts = pending.map((features, i) => writeParts(settings, `${PREFIX_TAUGHT}${generation}.${i}.`, features));
    this.commit({ generation, parts, enabled: true, sensitivity });
    removePrefix(settings, `${PREFIX_TAUGHT}${1 - generation}.`);
    this.clearPending();
    this.taught?.close();
    this.taught = detector;
    this.deps.log.info(`wake: a new phrase is taught (threshold ${teaching.threshold.toFixed(2)})`);
    return this.state();
  }

  /** Turns the detector on or off and sets its sensitivity; both need a taught phrase. */
  configure(change: { enabled?: boolean; sensitivity?: number }): WakeState {
    const r = this.record;
    if (!r) throw new HaloError("conflict", "no wake phrase is taught yet: record three examples first.");
    const sensitivity = change.sensitivity ?? r.sensitivity;
    if (!(sensitivity >= 0 && sensitivity <= 1)) throw new HaloError("invalid", "sensitivity is a number from 0 to 1.");
    this.taught?.setSensitivity(sensitivity);
    this.commit({ ...r, enabled: change.enabled ?? r.enabled, sensitivity });
    return this.state();
  }

  /** Forgets the phrase and any examples recorded towards a new one. */
  remove(): WakeState {
    const { settings } = this.deps;
    settings.remove(KEY_PHRASE);
    removePrefix(settings, PREFIX_TAUGHT);
    this.clearPending();
    this.record = undefined;
    this.taught?.close();
    this.taught = undefined;
    return this.state();
  }

  private commit(record: PhraseRecord): void {
    this.deps.settings.set(KEY_PHRASE, toJson(record));
    this.record = record;
  }

  /** The stored phrase taught to a detector, or undefined (with a warning when what is stored cannot be used). */
  private load(): PhraseRecord | undefined {
    const { settings, kernel, log } = this.deps;
    const record = parseRecord(settings.get(KEY_PHRASE));
    // Whatever a cut-off commit left of the other generation.
    removePrefix(settings, record ? `${PREFIX_TAUGHT}${1 - record.generation}.` : PREFIX_TAUGHT);
    if (!record) return undefined;
    const examples = record.parts.map((parts, i) => readParts(settings, `${PREFIX_TAUGHT}${record.generation}.${i}.`, parts));
    const detector = kernel.createDetector();
    const teaching = examples.every((e) => e !== undefined) ? detector.teach(examples as Int16Array[]) : { refusal: "bad-features" };
    if (teaching.refusal) {
      detector.close();
      log.warn(`wake: the stored phrase cannot be used (${teaching.refusal}); teach it again`);
      settings.remove(KEY_PHRASE);
      removePrefix(settings, PREFIX_TAUGHT);
      return undefined;
    }
    detector.setSensitivity(record.sensitivity);
    this.taught = detector;
    return record;
  }

  private pendingExamples(): Int16Array[] {
    const out: Int16Array[] = [];
    for (let i = 0; i < WAKE_EXAMPLES_NEEDED - 1; i++) {
      const features = readParts(this.deps.settings, `${PREFIX_PENDING}${i}.`);
      if (!features) break;
      out.push(features);
    }
    return out;
  }

  private pendingCount(): number {
    return this.pendingExamples().length;
  }

  private clearPending(): void {
    removePrefix(this.deps.settings, PREFIX_PENDING);
  }
}

function refused(refusal: Parameters<typeof wakeRefusalSentence>[0]): HaloError {
  return new HaloError("invalid", wakeRefusalSentence(refusal));
}

function parseRecord(text: string | undefined): PhraseRecord | undefined {
  if (!text) return undefined;
  try {
    const r = JSON.parse(text) as Partial<PhraseRecord>;
    const fine =
      (r.generation === 0 || r.generation === 1) &&
      Array.isArray(r.parts) &&
      r.parts.length === WAKE_EXAMPLES_NEEDED &&
      r.parts.every((p) => p === 1 || p === 2) &&
      typeof r.enabled === "boolean" &&
      typeof r.sensitivity === "number" &&
      r.sensitivity >= 0 &&
      r.sensitivity <= 1;
    return fine ? (r as PhraseRecord) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `features` as base64 under `prefix`0, `prefix`1...; returns how many parts. */
function writeParts(settings: Settings, prefix: string, features: Int16Array): number {
  const text = encodeBase64(new Uint8Array(features.buffer, features.byteOffset, features.byteLength));
  const parts = Math.ceil(text.length / PART_CHARS);
  if (parts > MAX_PARTS) throw refused("too-long");
  for (let p = 0; p < parts; p++) settings.set(`${prefix}${p}`, text.slice(p * PART_CHARS, (p + 1) * PART_CHARS));
  return parts;
}

/** The features under `prefix`, from `expected` parts (or as many as there are); undefined when missing or malformed. */
function readParts(settings: Settings, prefix: string, expected?: number): Int16Array | undefined {
  let text = "";
  for (let p = 0; p < (expected ?? MAX_PARTS); p++) {
    const part = settings.get(`${prefix}${p}`);
    if (part === undefined) {
      if (expected !== undefined || p === 0) return undefined;
      break;
    }
    text += part;
  }
  const bytes = decodeBase64(text);
  if (!bytes || bytes.length === 0 || bytes.length % 2 !== 0) return undefined;
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
}

function removePrefix(settings: Settings, prefix: string): void {
  for (const key of settings.keys(prefix)) settings.remove(key);
}
