import { toJson } from "../util/json";
// Text to speech played while it arrives: POST {base}/audio/speech with
// response_format "pcm" streams raw 24 kHz 16-bit mono samples, and each piece
// goes to the speaker as it comes (with ttsProv mistral, Mistral's whole WAV
// plays instead: mistral-speech.ts). stop() is barge-in: the download is
// abandoned and the speaker drops what it queued.
import type { AudioOut, Clock, HttpClientResponse, Timers } from "../ports";
import { fromHttpFailure, fromHttpStatus, ProviderError } from "../providers/errors";
import { DEFAULT_BASE_URLS } from "../providers/types";
import { decodeUtf8, encodeUtf8 } from "../util/utf8";
import type { AudioHttp, AudioHttpExchange } from "./audio-http";
import { speakWithMistral, type MistralSpeechConfig } from "./mistral-speech";
import { SPEECH_PCM_RATE } from "./pcm";
import { bytesToSamples } from "./wav";

export const SPEECH_MODEL = "gpt-4o-mini-tts";
/** The endpoint's own limit on `input` (characters). */
export const SPEECH_MAX_CHARS = 4096;
export const SPEECH_TIMEOUT_MS = 120_000;
/** About five minutes of 24 kHz 16-bit audio: more than SPEECH_MAX_CHARS can say. */
export const SPEECH_MAX_BYTES = 16 * 1024 * 1024;
/** A speech stream that sends no audio for this long has stalled: it is abandoned (the ring must not stay on speaking). */
export const SPEECH_STALL_MS = 10_000;
/** How often a stream in progress is looked at for a stall. */
const STALL_CHECK_MS = 500;

export interface SpeechConfig {
  /** The ttsProv knob: OpenAI speech streams PCM; Mistral's answers whole (lib/voice/mistral-speech.ts). */
  provider(): string;
  apiKey(): string | undefined;
  baseUrl(): string | undefined;
  /** Mistral's key and base URL; absent: ttsProv mistral is refused. */
  mistral?: MistralSpeechConfig;
}

export interface Playback {
  /** Resolves "played" when the speaker drained, "stopped" after stop(); rejects with a one-sentence Error. */
  done: Promise<"played" | "stopped">;
  stop(): void;
}

export class SpeechPlayer {
  constructor(
    private readonly http: AudioHttp,
    private readonly clock: Clock,
    private readonly out: AudioOut,
    private readonly config: SpeechConfig,
    /** With timers on a streaming host, a stream that stalls for SPEECH_STALL_MS is abandoned; else only the overall deadline holds. */
    private readonly timers?: Timers,
  ) {}

  private playMistral(config: MistralSpeechConfig, text: string, voice: string, onFirstAudio?: () => void): Playback {
    return mistralPlayback({ http: this.http, clock: this.clock, out: this.out, config }, text, voice, onFirstAudio);
  }

  /** Starts speaking; `onFirstAudio` runs just after the first samples were handed to the speaker. */
  play(text: string, voice: string, onFirstAudio?: () => void): Playback {
    const mistral = this.config.provider() === "mistral" ? this.config.mistral : undefined;
    if (mistral) return this.playMistral(mistral, text, voice, onFirstAudio);
    let stopped = false;
    let cancel = (): void => {};
    const done = (async (): Promise<"played" | "stopped"> => {
      let carry: number | undefined;
      let first = true;
      let speakerFault: string | undefined;
      let stalled = false;
      let lastAudioAt = this.clock.now();
      const { exchange, apiKey } = openSpeech(this.http, this.config, text, voice, {
        format: "pcm",
        timeoutMs: SPEECH_TIMEOUT_MS,
        maxBytes: SPEECH_MAX_BYTES,
        onBody: (chunk) => {
          if (stopped || speakerFault !== undefined || chunk.length === 0) return;
          lastAudioAt = this.clock.now();
          // A sample may be split across pieces: keep its first byte for the next one.
          let bytes = chunk;
          if (carry !== undefined) {
            bytes = new Uint8Array(chunk.length + 1);
            bytes[0] = carry;
            bytes.set(chunk, 1);
            carry = undefined;
          }
          const count = bytes.length >> 1;
          if (bytes.length & 1) carry = bytes[bytes.length - 1];
          if (count === 0) return;
          try {
            this.out.write(bytesToSamples(bytes, 0, count), SPEECH_PCM_RATE);
          } catch (e) {
            speakerFault = e instanceof Error ? e.message : "unknown fault";
            exchange.abort();
            return;
          }
          if (first) {
            first = false;
            onFirstAudio?.();
          }
        },
      });
      cancel = () => exchange.abort();
      // Only a streaming host can tell a stall: a buffered one hands the audio over at the end.
      const watch = this.http.buffered ? undefined : this.timers;
      const stopWatch = watch?.every(STALL_CHECK_MS, () => {
        if (this.clock.now() - lastAudioAt < SPEECH_STALL_MS) return;
        stalled = true;
        exchange.abort();
      });
      let reply: HttpClientResponse;
      try {
        reply = await exchange.end();
      } catch (e) {
        stopWatch?.();
        if (stopped) return "stopped";
        this.out.stop();
        if (stalled)
          throw new ProviderError("timeout", `OpenAI's speech stream stalled: no audio for ${SPEECH_STALL_MS / 1000} s.`, {
            provider: "openai",
          });
        if (speakerFault !== undefined) throw new Error(`The speaker failed: ${speakerFault}.`);
        throw fromHttpFailure("openai", e, SPEECH_TIMEOUT_MS, SPEECH_MAX_BYTES);
      }
      // The whole answer is in: only the speaker's drain is left, which is not the stream's to stall.
      stopWatch?.();
      if (stopped) return "stopped";
      if (speakerFault !== undefined) {
        this.out.stop();
        throw new Error(`The speaker failed: ${speakerFault}.`);
      }
      if (reply.status < 200 || reply.status > 299)
        throw fromHttpStatus("openai", reply.status, reply.headers, parseJson(reply.body), apiKey, this.clock.now());
      if (first) throw new ProviderError("bad-response", "OpenAI's speech answer held no audio.", { provider: "openai" });
      await this.out.drain();
      return stopped ? "stopped" : "played";
    })();

    return {
      done,
      stop: () => {
        if (stopped) return;
        stopped = true;
        cancel();
        this.out.stop();
      },
    };
  }
}

/** A Playback of Mistral speech: the whole file comes down, then plays. */
function mistralPlayback(
  deps: { http: AudioHttp; clock: Clock; out: AudioOut; config: MistralSpeechConfig },
  text: string,
  voice: string,
  onFirstAudio?: () => void,
): Playback {
  let stopped = false;
  let cancel = (): void => {};
  const done = (async (): Promise<"played" | "stopped"> => {
    try {
      return await speakWithMistral(deps, text, voice, {
        isStopped: () => stopped,
        onAbort: (abort) => {
          cancel = abort;
        },
        onFirstAudio,
      });
    } catch (e) {
      if (!stopped) deps.out.stop();
      throw e;
    }
  })();
  return {
    done,
    stop: () => {
      if (stopped) return;
      stopped = true;
      cancel();
      deps.out.stop();
    },
  };
}

export interface SpeechRequestOptions {
  /** "pcm": raw 24 kHz 16-bit mono, streamed; "opus": an Ogg/Opus file (Telegram voice notes). */
  format: "pcm" | "opus";
  timeoutMs: number;
  maxBytes: number;
  accept?: string;
  onBody?(chunk: Uint8Array): void;
}

/**
 * The one speech request both spoken replies and voice notes make: POST
 * {base}/audio/speech with model, input, voice and response_format, its body
 * already written. Throws a ProviderError (no key, text too long, not OpenAI)
 * before anything is sent.
 */
export function openSpeech(
  http: AudioHttp,
  config: SpeechConfig,
  text: string,
  voice: string,
  options: SpeechRequestOptions,
): { exchange: AudioHttpExchange; apiKey: string } {
  const provider = config.provider();
  if (provider !== "openai")
    throw new ProviderError("unavailable", `Spoken replies are made with OpenAI speech only; ttsProv is ${provider}.`);
  const apiKey = config.apiKey();
  if (!apiKey)
    throw new ProviderError("unavailable", "No OpenAI key is set for speech; the owner sets it through the owner API.", {
      provider: "openai",
    });
  if (text.length > SPEECH_MAX_CHARS)
    throw new ProviderError("bad-request", `Speech input is limited to ${SPEECH_MAX_CHARS} characters.`, { provider: "openai" });
  const base = (config.baseUrl() || DEFAULT_BASE_URLS.openai).replace(/\/+$/, "");
  const headers: { [name: string]: string } = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  if (options.accept) headers.accept = options.accept;
  const exchange = http.open({
    method: "POST",
    url: `${base}/audio/speech`,
    headers,
    timeoutMs: options.timeoutMs,
    maxResponseBytes: options.maxBytes,
    onBody: options.onBody,
  });
  exchange.write(encodeUtf8(toJson({ model: SPEECH_MODEL, input: text, voice, response_format: options.format })));
  return { exchange, apiKey };
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decodeUtf8(bytes));
  } catch {
    return undefined;
  }
}
