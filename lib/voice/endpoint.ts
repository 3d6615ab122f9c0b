// Energy-based end-of-speech detection with hangover. The input is cut into
// 20 ms frames; a frame is loud when its RMS passes both an absolute floor and
// a multiple of the background noise, which is learned from the quiet frames.
// Speech starts after a few loud frames in a row and ends after HANGOVER_MS of
// quiet: the decision comes at most HANGOVER_MS + one frame after the last
// loud frame. Positions are counted in samples, so no timer is involved.

export const ENDPOINT_FRAME_MS = 20;
/** Quiet after speech that ends it. Short pauses inside a sentence are shorter. */
export const HANGOVER_MS = 320;
/** Loud frames in a row that count as the start of speech (clicks and bumps are shorter). */
export const SPEECH_START_FRAMES = 3;
/** Below this RMS nothing is speech, however quiet the room. */
export const MIN_SPEECH_RMS = 600;
/** A loud frame is this many times the noise floor. */
export const SPEECH_TO_NOISE = 3;
/** Hands-free: with no speech at all after this long, the capture ends. */
export const NO_SPEECH_TIMEOUT_MS = 8000;
/** How fast the noise floor follows quiet frames (0-1 per frame). */
const NOISE_ADAPT = 0.1;

export type EndpointVerdict = "speech-ended" | "no-speech";

export class EndOfSpeechDetector {
  private readonly frame: number;
  private readonly hangoverFrames: number;
  private readonly noSpeechFrames: number;
  private noise = 0;
  private frames = 0;
  private partialSum = 0;
  private partialCount = 0;
  private loudRun = 0;
  private quietRun = 0;
  /** Sample index where speech began (undefined before it did). */
  speechStart: number | undefined;
  /** Sample index just after the last loud frame. */
  lastLoudEnd = 0;
  /** Sample index where the verdict was reached. */
  decidedAt: number | undefined;

  constructor(readonly sampleRate: number) {
    this.frame = Math.round((sampleRate * ENDPOINT_FRAME_MS) / 1000);
    this.hangoverFrames = Math.ceil(HANGOVER_MS / ENDPOINT_FRAME_MS);
    this.noSpeechFrames = Math.ceil(NO_SPEECH_TIMEOUT_MS / ENDPOINT_FRAME_MS);
  }

  /** Feeds samples; returns a verdict once, the first time one is reached. */
  push(samples: Int16Array): EndpointVerdict | undefined {
    if (this.decidedAt !== undefined) return undefined;
    for (let i = 0; i < samples.length; i++) {
      const s = samples[i];
      this.partialSum += s * s;
      if (++this.partialCount < this.frame) continue;
      const verdict = this.onFrame(Math.sqrt(this.partialSum / this.frame));
      this.partialSum = 0;
      this.partialCount = 0;
      if (verdict) {
        this.decidedAt = this.frames * this.frame;
        return verdict;
      }
    }
    return undefined;
  }

  private onFrame(level: number): EndpointVerdict | undefined {
    this.frames++;
    if (this.frames === 1) this.noise = Math.min(level, MIN_SPEECH_RMS);
    const loud = level >= MIN_SPEECH_RMS && level >= this.noise * SPEECH_TO_NOISE;
    if (!loud) this.noise += (level - this.noise) * NOISE_ADAPT;
    if (this.speechStart === undefined) {
      this.loudRun = loud ? this.loudRun + 1 : 0;
      if (this.loudRun >= SPEECH_START_FRAMES) {
        this.speechStart = (this.frames - this.loudRun) * this.frame;
        this.lastLoudEnd = this.frames * this.frame;
      } else if (this.frames >= this.noSpeechFrames) return "no-speech";
      return undefined;
    }
    if (loud) {
      this.quietRun = 0;
      this.lastLoudEnd = this.frames * this.frame;
      return undefined;
    }
    return ++this.quietRun >= this.hangoverFrames ? "speech-ended" : undefined;
  }
}
