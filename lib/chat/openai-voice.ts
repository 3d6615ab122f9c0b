// Voice notes from OpenAI's speech endpoint: the speech request spoken replies
// make (lib/voice/speech.ts openSpeech) with response_format "opus", which
// answers with an Ogg/Opus file, the format Telegram shows as a voice note.
// The key and base URL are read at each call; failures are the provider
// adapters' one-sentence ProviderErrors (never a key).
import type { Clock, HttpClient, HttpClientResponse } from "../ports";
import { fromHttpFailure, fromHttpStatus, ProviderError } from "../providers/errors";
import { decodeUtf8 } from "../util/utf8";
import { bufferedAudioHttp } from "../voice/audio-http";
import { openSpeech, SPEECH_MAX_CHARS, SPEECH_MODEL } from "../voice/speech";
import type { VoiceClip, VoiceSynth } from "./voice";

export const OPENAI_SPEECH_MODEL = SPEECH_MODEL;
/** The endpoint's own limit on `input` (characters). */
export const OPENAI_SPEECH_MAX_CHARS = SPEECH_MAX_CHARS;
export const OPENAI_SPEECH_TIMEOUT_MS = 60_000;
/** Four minutes of speech at Opus voice rates is well under this. */
export const OPENAI_SPEECH_MAX_BYTES = 4 * 1024 * 1024;
/** An Ogg file starts with its capture pattern. */
const OGG_MAGIC = [0x4f, 0x67, 0x67, 0x53];

export interface OpenAiVoiceConfig {
  apiKey(): string | undefined;
  /** undefined means OpenAI's public API. */
  baseUrl(): string | undefined;
}

export class OpenAiVoiceSynth implements VoiceSynth {
  constructor(
    private readonly http: HttpClient,
    private readonly clock: Clock,
    private readonly config: OpenAiVoiceConfig,
    private readonly timeoutMs = OPENAI_SPEECH_TIMEOUT_MS,
  ) {}

  async synthesize(text: string, voice: string): Promise<VoiceClip> {
    // The same speech request as spoken replies (lib/voice/speech.ts), asking for an Ogg/Opus file.
    const { exchange, apiKey } = openSpeech(
      bufferedAudioHttp(this.http),
      { provider: () => "openai", apiKey: () => this.config.apiKey(), baseUrl: () => this.config.baseUrl() },
      text,
      voice,
      { format: "opus", timeoutMs: this.timeoutMs, maxBytes: OPENAI_SPEECH_MAX_BYTES, accept: "audio/ogg" },
    );
    let reply: HttpClientResponse;
    try {
      reply = await exchange.end();
    } catch (e) {
      throw fromHttpFailure("openai", e, this.timeoutMs, OPENAI_SPEECH_MAX_BYTES);
    }
    if (reply.status < 200 || reply.status > 299)
      throw fromHttpStatus("openai", reply.status, reply.headers, parseJson(reply.body), apiKey, this.clock.now());
    const b = reply.body;
    if (b.length < OGG_MAGIC.length || OGG_MAGIC.some((byte, i) => b[i] !== byte)) {
      throw new ProviderError("bad-response", "OpenAI's speech answer is not an Ogg/Opus file.", { provider: "openai" });
    }
    return { bytes: b, mime: "audio/ogg", name: "reply.ogg" };
  }
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decodeUtf8(bytes));
  } catch {
    return undefined;
  }
}
