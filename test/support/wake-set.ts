// The wake-word test set, made with espeak-ng (the tests' speech source) and sox. For each phrase:
//
//   examples    three takes in EXAMPLE_VOICE ("en-us") at 160, 167 and 174 words a minute and pitch 50, 46
//               and 54, each with 300 ms of quiet room (white noise at RMS 20) either side;
//   positives   the phrase in the same voice at other speeds (about +-15% of 165) and pitches, after 15 s of
//               other speech (6 dB under the phrase, so the detector meets the phrase mid-stream) and 1-2 s
//               more, then 1 s; white, pink or babble noise runs through the scene at 20, 10 or 5 dB SNR
//               (the phrase's active RMS over the noise's RMS); "clean" has the quiet room only;
//   other voice the same scenes in OTHER_VOICE ("en-us+f3": espeak-ng's female variant) at 20 dB;
//   negatives   one stream of other speech, a third of it near misses (test/support/wake-sentences.ts), 70%
//               in the examples' voice at random speeds and pitches and the rest in five other voices, half
//               of it over white or pink noise at 15-30 dB, plus noise alone (white, pink, babble; 8% of
//               the stream); pauses of 0.3-1.2 s between groups of sentences.
//
// Babble is four other voices reading other sentences, summed at equal levels. Two disjoint splits:
// "tune" (the speeds, pitches, noise seeds and sentences used to choose the engine's defaults) and "test"
// (what the bench reports; the defaults are set on "tune", see docs/wake-word.md). The test negatives last
// 62 minutes, the tune ones 60.
//
// Generated audio is cached in os.tmpdir()/halo-wake-set/, one file per espeak-ng call or stream, named by
// a hash of what made it (SET_VERSION, text, voice, seeds), so later runs read files instead of speaking.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mulberry32 } from "./prng.ts";
import { sentences } from "./wake-sentences.ts";
import { activeRms, babbleNoise, mixAtSnr, type NoiseKind, pinkNoise, speak, trim, type Voice, whiteNoise } from "./wake-speech.ts";

/** Bump when the generation changes, so old cached audio is not reused. */
const SET_VERSION = 1;
export const WAKE_PHRASES = ["hey halo", "okay nova"] as const;
export type WakePhrase = (typeof WAKE_PHRASES)[number];
export type Split = "tune" | "test";
export const EXAMPLE_VOICE = "en-us";
export const OTHER_VOICE = "en-us+f3";
const RATE = 16000;
/** The quiet room under every example and clean scene. */
const ROOM_RMS = 20;
const BABBLE_VOICES = ["en-gb", "en-us+f2", "en-gb-x-rp+m3", "en-029"];
const NEGATIVE_OTHER_VOICES = ["en-gb", "en-us+f2", "en-gb-x-rp", "en-029+m3", "en-us+f4"];

const SPLITS: Record<Split, { speeds: number[]; pitches: number[]; seed: number; negativeMinutes: number }> = {
  test: { speeds: [141, 150, 160, 170, 180, 189], pitches: [38, 50, 62], seed: 1000, negativeMinutes: 62 },
  tune: { speeds: [145, 155, 175, 185], pitches: [41, 47, 56, 60], seed: 2000, negativeMinutes: 60 },
};
export const SNRS = [20, 10, 5] as const;
export const NOISES: NoiseKind[] = ["white", "pink", "babble"];

const cacheDir = join(tmpdir(), "halo-wake-set");

function key(parts: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify([SET_VERSION, parts]))
    .digest("hex")
    .slice(0, 24);
}

/** The samples `make` returns, from the cache when an earlier run made them with the same `parts`. */
function cached(parts: unknown, make: () => Int16Array): Int16Array {
  const path = join(cacheDir, `${key(parts)}.pcm`);
  if (existsSync(path)) {
    const bytes = readFileSync(path);
    return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  const samples = make();
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(`${path}.tmp`, new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength));
  renameSync(`${path}.tmp`, path);
  return samples;
}

function spoken(text: string, v: Voice): Int16Array {
  return cached(["speak", text, v], () => trim(speak(text, v)));
}

function quietRoom(length: number, seed: number): Float32Array {
  const noise = whiteNoise(length, seed);
  for (let i = 0; i < length; i++) noise[i] *= ROOM_RMS;
  return noise;
}

/** `clip` with `before` and `after` samples of quiet room around it. */
function inRoom(clip: Int16Array, before: number, after: number, seed: number): Int16Array {
  const room = quietRoom(before + clip.length + after, seed);
  const out = new Int16Array(room.length);
  for (let i = 0; i < out.length; i++) {
    const v = Math.round(room[i] + (i >= before && i < before + clip.length ? clip[i - before] : 0));
    out[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return out;
}

/** The three taught examples of `phrase`. */
export function wakeExamples(phrase: WakePhrase): Int16Array[] {
  const takes: Voice[] = [
    { voice: EXAMPLE_VOICE, wordsPerMinute: 160, pitch: 50 },
    { voice: EXAMPLE_VOICE, wordsPerMinute: 167, pitch: 46 },
    { voice: EXAMPLE_VOICE, wordsPerMinute: 174, pitch: 54 },
  ];
  return takes.map((v, i) => inRoom(spoken(phrase, v), 0.3 * RATE, 0.3 * RATE, 90 + i));
}

/** Four talkers of other speech, 60 s each, for babble noise. */
function babbleTalkers(split: Split): Int16Array[] {
  return BABBLE_VOICES.map((voice, t) =>
    cached(["babble-talker", split, voice], () => {
      const rng = mulberry32(SPLITS[split].seed + 500 + t);
      const parts: Int16Array[] = [];
      let total = 0;
      while (total < 60 * RATE) {
        const text = sentences(rng, 6)
          .map((s) => s.text)
          .join(" ");
        const clip = speak(text, { voice, wordsPerMinute: rng.int(150, 185), pitch: rng.int(35, 65) });
        parts.push(clip);
        total += clip.length;
      }
      return concat(parts);
    }),
  );
}

function concat(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function noiseOf(kind: NoiseKind, length: number, split: Split, seed: number): Float32Array {
  if (kind === "white") return whiteNoise(length, seed);
  if (kind === "pink") return pinkNoise(length, seed);
  return babbleNoise(length, babbleTalkers(split), seed);
}

export interface Positive {
  samples: Int16Array;
  /** Where the phrase starts and ends in `samples`. */
  phraseStart: number;
  phraseEnd: number;
  label: string;
}

export interface PositiveCondition {
  /** Signal-to-noise ratio in dB, or "clean" for the quiet room only. */
  snr: number | "clean";
  voice?: "same" | "other";
}

/** Five minutes of other speech per split (the negatives' mix of voices), for the context before a positive. */
function contextSpeech(split: Split): Int16Array {
  return cached(["context", split], () => {
    const rng = mulberry32(SPLITS[split].seed + 3);
    const parts: Int16Array[] = [];
    let total = 0;
    while (total < 5 * 60 * RATE) {
      const same = rng.next() < 0.7;
      const voice: Voice = {
        voice: same ? EXAMPLE_VOICE : NEGATIVE_OTHER_VOICES[rng.int(0, NEGATIVE_OTHER_VOICES.length - 1)],
        wordsPerMinute: rng.int(140, 190),
        pitch: rng.int(35, 65),
      };
      const clip = spoken(
        sentences(rng, 4)
          .map((x) => x.text)
          .join(" "),
        voice,
      );
      parts.push(clip, new Int16Array(rng.int(0.3 * RATE, 1.2 * RATE)));
      total += clip.length;
    }
    return concat(parts);
  });
}

/** Seconds of other speech before each positive, so the detector meets the phrase mid-stream, not fresh. */
export const CONTEXT_SECONDS = 15;

/**
 * The positives of one phrase, split and condition: every speed x pitch x noise kind of the split. Each
 * scene is CONTEXT_SECONDS of other speech (6 dB under the phrase), 1-2 s more, the phrase and 1 s, with the
 * noise running through all of it.
 */
export function wakePositives(phrase: WakePhrase, split: Split, condition: PositiveCondition): Positive[] {
  const { speeds, pitches, seed } = SPLITS[split];
  const voice = condition.voice === "other" ? OTHER_VOICE : EXAMPLE_VOICE;
  const kinds: Array<NoiseKind | "clean"> = condition.snr === "clean" ? ["clean"] : NOISES;
  const context = contextSpeech(split);
  const out: Positive[] = [];
  let n = 0;
  for (const wordsPerMinute of speeds)
    for (const pitch of pitches)
      for (const kind of kinds) {
        const rng = mulberry32(seed + 31 * n++ + (phrase === WAKE_PHRASES[0] ? 0 : 7919) + (voice === OTHER_VOICE ? 104729 : 0));
        const clip = spoken(phrase, { voice, wordsPerMinute, pitch });
        const before = CONTEXT_SECONDS * RATE;
        const lead = before + rng.int(RATE, 2 * RATE);
        const speech = new Int16Array(lead + clip.length + RATE);
        const from = rng.int(0, context.length - before);
        const gain = (0.5 * activeRms(clip)) / (activeRms(context.subarray(from, from + before)) || 1);
        for (let i = 0; i < before; i++) speech[i] = Math.round(context[from + i] * gain);
        speech.set(clip, lead);
        const noiseSeed = rng.nextUint32();
        const samples =
          kind === "clean"
            ? inRoom(speech, 0, 0, noiseSeed)
            : mixAtSnr(clip, noiseOf(kind, speech.length, split, noiseSeed), condition.snr as number, lead, speech);
        const snr = condition.snr === "clean" ? "clean" : `${condition.snr}dB`;
        out.push({
          samples,
          phraseStart: lead,
          phraseEnd: lead + clip.length,
          label: `${voice} ${wordsPerMinute}wpm p${pitch} ${kind} ${snr}`,
        });
      }
  return out;
}

export interface Negatives {
  samples: Int16Array;
  seconds: number;
}

/** The split's stream of negatives (62 minutes for "test", 20 for "tune"). */
export function wakeNegatives(split: Split): Negatives {
  const { seed, negativeMinutes } = SPLITS[split];
  const samples = cached(["negatives", split, negativeMinutes], () => {
    const rng = mulberry32(seed + 1);
    const parts: Int16Array[] = [];
    let total = 0;
    while (total < negativeMinutes * 60 * RATE) {
      const group = sentences(rng, 5);
      const same = rng.next() < 0.7;
      const voice: Voice = {
        voice: same ? EXAMPLE_VOICE : NEGATIVE_OTHER_VOICES[rng.int(0, NEGATIVE_OTHER_VOICES.length - 1)],
        wordsPerMinute: rng.int(140, 190),
        pitch: rng.int(35, 65),
      };
      const clip = spoken(group.map((s) => s.text).join(" "), voice);
      const pause = rng.int(0.3 * RATE, 1.2 * RATE);
      const noisy = rng.next() < 0.5;
      const piece = noisy
        ? mixAtSnr(clip, noiseOf(rng.next() < 0.5 ? "white" : "pink", clip.length + pause, split, rng.nextUint32()), rng.int(15, 30), 0)
        : inRoom(clip, 0, pause, rng.nextUint32());
      parts.push(piece);
      total += piece.length;
      // now and then noise alone, 5-20 s of it (about 8% of the stream)
      if (rng.next() < 0.12) {
        const kind = NOISES[rng.int(0, 2)];
        const length = rng.int(5 * RATE, 20 * RATE);
        const level = kind === "babble" ? rng.int(300, 3000) : rng.int(30, 1500);
        const noise = noiseOf(kind, length, split, rng.nextUint32());
        const alone = new Int16Array(length);
        for (let i = 0; i < length; i++) alone[i] = Math.max(-32768, Math.min(32767, Math.round(noise[i] * level)));
        parts.push(alone);
        total += length;
      }
    }
    return concat(parts);
  });
  return { samples, seconds: samples.length / RATE };
}
