import { toJson } from "../util/json";
// Spoken replies through Mistral (ttsProv mistral): POST {base}/audio/speech with model, input, voice_id and
// response_format "wav"; the answer is JSON whose audio_data is the base64 file (Mistral's speech endpoint
// answers whole, not as a raw stream). The WAV's own header gives its rate; the samples go to the speaker,
// which resamples. A voice named for OpenAI (the ttsVoice default, alloy) is spoken with Mistral's default.
import type { AudioOut, Clock, HttpClientResponse } from "../ports";
import { fromHttpFailure, fromHttpStatus, ProviderError } from "../providers/errors";
import { DEFAULT_BASE_URLS } from "../providers/types";
import { decodeBase64 } from "../util/base64";
import { decodeUtf8, encodeUtf8 } from "../util/utf8";
import type { AudioHttp } from "./audio-http";
import { decodeWav, type Pcm } from "./wav";

export const MISTRAL_SPEECH_MODEL = "voxtral-mini-tts-2603";
export const MISTRAL_DEFAULT_VOICE = "en_paul_neutral";
/** OpenAI's voice names: with ttsProv mistral they mean "the default voice", not a Mistral voice id. */
export const OPENAI_VOICES: readonly string[] = [
  "alloy",
  "ash",
  "ballad",
  "coral",
  "echo",
  "fable",
  "nova",
  "onyx",
  "sage",
  "shimmer",
  "verse",
  "marin",
  "cedar",
];
export const MISTRAL_SPEECH_MAX_CHARS = 4096;
export const MISTRAL_SPEECH_TIMEOUT_MS = 120_000;
/** A base64 WAV of about five minutes at 24 kHz: more than MISTRAL_SPEECH_MAX_CHARS can say. */
export const MISTRAL_SPEECH_MAX_BYTES = 20 * 1024 * 1024;

export interface MistralSpeechConfig {
  apiKey(): string | undefined;
  baseUrl(): string | undefined;
}

/** The Mistral voice for a ttsVoice value. */
export function mistralVoice(voice: string): string {
  return OPENAI_VOICES.indexOf(voice) >= 0 ? MISTRAL_DEFAULT_VOICE : voice;
}

/**
 * Speaks `text` on `out` through Mistral; resolves "played" once the speaker drained, "stopped" when
 * `isStopped()` turned true first; throws a ProviderError (or an Error naming the speaker's fault).
 * `onAbort` receives the exchange's abort so stop() can abandon the download.
 */
export async function speakWithMistral(
  deps: { http: AudioHttp; clock: Clock; out: AudioOut; config: MistralSpeechConfig },
  text: string,
  voice: string,
  hooks: { isStopped(): boolean; onAbort(abort: () => void): void; onFirstAudio?(): void },
): Promise<"played" | "stopped"> {
  const apiKey = deps.config.apiKey();
  if (!apiKey)
    throw new ProviderError("unavailable", "No Mistral key is set for speech; the owner sets it through the owner API.", {
      provider: "mistral",
    });
  if (text.length > MISTRAL_SPEECH_MAX_CHARS)
    throw new ProviderError("bad-request", `Speech input is limited to ${MISTRAL_SPEECH_MAX_CHARS} characters.`, { provider: "mistral" });
  const base = (deps.config.baseUrl() || DEFAULT_BASE_URLS.mistral).replace(/\/+$/, "");
  const exchange = deps.http.open({
    method: "POST",
    url: `${base}/audio/speech`,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "application/json" },
    timeoutMs: MISTRAL_SPEECH_TIMEOUT_MS,
    maxResponseBytes: MISTRAL_SPEECH_MAX_BYTES,
  });
  hooks.onAbort(() => exchange.abort());
  exchange.write(encodeUtf8(toJson({ model: MISTRAL_SPEECH_MODEL, input: text, voice_id: mistralVoice(voice), response_format: "wav" })));
  let reply: HttpClientResponse;
  try {
    reply = await exchange.end();
  } catch (e) {
    if (hooks.isStopped()) return "stopped";
    throw fromHttpFailure("mistral", e, MISTRAL_SPEECH_TIMEOUT_MS, MISTRAL_SPEECH_MAX_BYTES);
  }
  if (hooks.isStopped()) return "stopped";
  const json = parseJson(reply.body);
  if (reply.status < 200 || reply.status > 299)
    throw fromHttpStatus("mistral", reply.status, reply.headers, json, apiKey, deps.clock.now());
  const b64 = json && typeof json === "object" ? (json as { audio_data?: unknown }).audio_data : undefined;
  const wav = typeof b64 === "string" && b64.length > 0 ? decodeBase64(b64) : undefined;
  if (!wav) throw new ProviderError("bad-response", "Mistral's speech answer held no audio.", { provider: "mistral" });
  let pcm: Pcm;
  try {
    pcm = decodeWav(wav);
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^.*WAV file: /, "") : "bad WAV";
    throw new ProviderError("bad-response", `Mistral's speech answer is not a usable WAV file: ${why}`, { provider: "mistral" });
  }
  try {
    deps.out.write(pcm.samples, pcm.sampleRate);
  } catch (e) {
    throw new Error(`The speaker failed: ${e instanceof Error ? e.message : "unknown fault"}.`);
  }
  hooks.onFirstAudio?.();
  await deps.out.drain();
  return hooks.isStopped() ? "stopped" : "played";
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decodeUtf8(bytes));
  } catch {
    return undefined;
  }
}
