// A fixed-length capture from the microphone streamed to speech-to-text:
// what audio.transcribe does with `seconds`.
import type { AudioIn } from "../ports";
import type { Transcriber } from "./transcribe";

/** Longest capture audio.transcribe takes (seconds). */
export const TRANSCRIBE_MAX_SECONDS = 30;

/** Captures `seconds` and resolves with the transcript; throws when the microphone is busy or fails. */
export async function transcribeFromMic(mic: AudioIn, transcriber: Transcriber, seconds: number): Promise<string> {
  const want = Math.round(seconds * mic.sampleRate);
  const upload = transcriber.begin(mic.sampleRate);
  let count = 0;
  let filled: () => void = () => {};
  const full = new Promise<void>((ok) => (filled = ok));
  try {
    mic.start((block) => {
      if (count >= want) return;
      const take = block.length > want - count ? block.subarray(0, want - count) : block;
      upload.write(take);
      count += take.length;
      if (count >= want) filled();
    });
  } catch (e) {
    upload.abort();
    throw e;
  }
  await full;
  mic.stop();
  return upload.finish();
}
