// The engine's refusal codes (modules/wake/wake.h) as names, and each as the sentence an owner reads.
import type { WakeRefusal } from "./kernel";

/** The C engine's reason codes 1..8, in order (0 is "accepted"). */
const CODES: readonly WakeRefusal[] = ["empty", "silent", "clipped", "too-short", "too-long", "unlike", "bad-features", "not-speech"];

/** The refusal of a C reason code; undefined for 0 (accepted). An unknown code reads as "bad-features". */
export function wakeRefusalOf(code: number): WakeRefusal | undefined {
  if (code === 0) return undefined;
  return CODES[code - 1] ?? "bad-features";
}

const SENTENCES: { readonly [refusal in WakeRefusal]: string } = {
  empty: "The recording is empty.",
  silent: "The recording is silent: speak the phrase closer to the microphone.",
  clipped: "The recording is too loud (it clips): speak a little further from the microphone.",
  "too-short": "The phrase is too short: choose one of two or three syllables, at least a third of a second long.",
  "too-long": "The recording is too long: say only the phrase, within 1.6 seconds, in a recording of at most 4 seconds.",
  unlike: "The examples are too unlike each other: say the same phrase the same way each time.",
  "bad-features": "The stored examples cannot be used by this firmware: teach the phrase again.",
  "not-speech": "The recording holds a steady sound, not speech: say the phrase.",
};

/** One sentence for the owner saying why an example was refused. */
export function wakeRefusalSentence(refusal: WakeRefusal): string {
  return SENTENCES[refusal];
}
