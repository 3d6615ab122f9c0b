// The voice exchange: press to talk, capture streamed to speech-to-text as it
// is recorded, the transcript run as a turn, the reply spoken while it
// streams. The capture ends on release, on end of speech (hangover), or at
// the cap. Pressing while the reply plays stops it and listens again
// (barge-in). Phases go out through `onPhase` for the ring to follow.
import type { AudioIn } from "../ports";
import { EndOfSpeechDetector, type EndpointVerdict } from "./endpoint";
import type { Playback, SpeechPlayer } from "./speech";
import type { Transcriber, TranscriptionUpload } from "./transcribe";

/** The longest capture; the ring tells the speaker it stopped listening. */
export const MAX_CAPTURE_MS = 60_000;

export type VoicePhase = "idle" | "listening" | "thinking" | "replying" | "error";

export interface PhaseEvent {
  phase: VoicePhase;
  /** With "error": one sentence on what failed. */
  detail?: string;
}

/** A capture shorter than this is not sent: a second press came at once, or a bump. */
export const MIN_CAPTURE_MS = 300;

/**
 * "cancelled": the microphone was muted mid-capture; "too-short": the capture
 * ended before MIN_CAPTURE_MS. Neither is sent.
 */
export type CaptureEnd = "released" | EndpointVerdict | "cap" | "cancelled" | "too-short";

export interface VoiceExchange {
  transcript: string;
  reply: string;
  /** Why the capture ended and how long it was. */
  ended: CaptureEnd;
  capturedMs: number;
  /** Where in the capture end of speech was decided, and the last loud sample (ms); undefined without speech. */
  speechEndMs?: number;
  decidedMs?: number;
  spoken: "played" | "stopped" | "not-spoken";
  error?: string;
  /** Realtime mode: the registry tools the model called. */
  toolCalls?: string[];
}

export interface VoicePipelineDeps {
  mic: AudioIn;
  transcriber: Transcriber;
  speech: SpeechPlayer;
  /** Runs the transcript as a turn on the voice channel and returns the reply text. */
  runTurn(transcript: string): Promise<string>;
  /** The voice to speak with, or why replies are not spoken (silent, ttsOn off, no speaker). */
  speakWith(): { voice: string } | { refusal: string };
  onPhase?(event: PhaseEvent): void;
}

export class VoicePipeline {
  private current: VoicePhase = "idle";
  private playback: Playback | undefined;
  private capture: { stop(end: CaptureEnd): void } | undefined;
  private running: Promise<VoiceExchange> | undefined;

  constructor(private readonly deps: VoicePipelineDeps) {}

  get phase(): VoicePhase {
    return this.current;
  }

  /**
   * Starts listening; while a reply plays, stops it first (barge-in). Ignored
   * while listening or thinking. Returns the exchange it started, if any.
   */
  press(): Promise<VoiceExchange> | undefined {
    if (this.current === "listening" || this.current === "thinking") return undefined;
    if (this.current === "replying") this.playback?.stop();
    this.running = this.exchange();
    return this.running;
  }

  /** Ends the capture (press to talk); ignored unless listening. */
  release(): void {
    this.capture?.stop("released");
  }

  /** Ends the capture and sends nothing (the microphone was muted); ignored unless listening. */
  cancel(): void {
    this.capture?.stop("cancelled");
  }

  /** The exchange in progress or the last one. */
  last(): Promise<VoiceExchange> | undefined {
    return this.running;
  }

  private setPhase(phase: VoicePhase, detail?: string): void {
    this.current = phase;
    this.deps.onPhase?.(detail === undefined ? { phase } : { phase, detail });
  }

  private async exchange(): Promise<VoiceExchange> {
    const out: VoiceExchange = { transcript: "", reply: "", ended: "released", capturedMs: 0, spoken: "not-spoken" };
    this.setPhase("listening");
    try {
      const text = await this.listen(out);
      out.transcript = text;
      if (!text) {
        this.setPhase("idle");
        return out;
      }
      out.reply = await this.deps.runTurn(text);
      const how = this.deps.speakWith();
      if (!out.reply.trim() || "refusal" in how) {
        this.setPhase("idle");
        return out;
      }
      this.setPhase("replying");
      const playback = this.deps.speech.play(out.reply, how.voice);
      this.playback = playback;
      out.spoken = await playback.done;
      if (this.playback === playback) {
        this.playback = undefined;
        if (this.current === "replying") this.setPhase("idle");
      }
      return out;
    } catch (e) {
      out.error = e instanceof Error ? e.message : "The voice exchange failed.";
      this.capture = undefined;
      this.setPhase("error", out.error);
      return out;
    }
  }

  /** Streams the capture up until it ends; resolves with the transcript. */
  private listen(out: VoiceExchange): Promise<string> {
    const { mic } = this.deps;
    const rate = mic.sampleRate;
    const cap = (MAX_CAPTURE_MS * rate) / 1000;
    const detector = new EndOfSpeechDetector(rate);
    const upload: TranscriptionUpload = this.deps.transcriber.begin(rate);
    let captured = 0;
    let ended = false;
    return new Promise<string>((resolve, reject) => {
      const stop = (end: CaptureEnd): void => {
        if (ended) return;
        ended = true;
        mic.stop();
        this.capture = undefined;
        if (end === "released" && captured < (MIN_CAPTURE_MS * rate) / 1000) end = "too-short";
        out.ended = end;
        out.capturedMs = (captured * 1000) / rate;
        if (detector.speechStart !== undefined) out.speechEndMs = (detector.lastLoudEnd * 1000) / rate;
        if (detector.decidedAt !== undefined) out.decidedMs = (detector.decidedAt * 1000) / rate;
        if (end === "no-speech" || end === "cancelled" || end === "too-short") {
          upload.abort();
          resolve("");
          return;
        }
        this.setPhase("thinking");
        upload.finish().then(resolve, reject);
      };
      this.capture = { stop };
      try {
        mic.start((block) => {
          if (ended) return;
          const room = cap - captured;
          const take = block.length > room ? block.subarray(0, room) : block;
          captured += take.length;
          upload.write(take);
          const verdict = detector.push(take);
          if (verdict) stop(verdict);
          else if (captured >= cap) stop("cap");
        });
      } catch (e) {
        ended = true;
        upload.abort();
        this.capture = undefined;
        reject(e);
      }
    });
  }
}
