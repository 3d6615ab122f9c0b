// Voice notes from OpenAI's speech endpoint: POST {base}/audio/speech with
// response_format "opus", which answers with an Ogg/Opus file, the format
// Telegram shows as a voice note. The key and base URL are read at each call;
// failures are the provider adapters' one-sentence ProviderErrors (never a key).
import type { Clock, HttpClient, HttpClientResponse } from "../ports";
import { fromHttpFailure, fromHttpStatus, ProviderError } from "../turn/providers/errors";
import { DEFAULT_BASE_URLS } from "../turn/providers/types";
import { decodeUtf8 } from "../util/utf8";
import type { VoiceClip, VoiceSynth } from "./voice";

export const OPENAI_SPEECH_MODEL = "gpt-4o-mini-tts";
/** The endpoint's own limit on `input` (characters). */
export const OPENAI_SPEECH_MAX_CHARS = 4096;
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
    const apiKey = this.config.apiKey();
    if (!apiKey)
      throw new ProviderError("unavailable", "No OpenAI key is set for speech; the owner sets it through the owner API.", {
        provider: "openai",
      });
    if (text.length > OPENAI_SPEECH_MAX_CHARS)
      throw new ProviderError("bad-request", `Speech input is limited to ${OPENAI_SPEECH_MAX_CHARS} characters.`, { provider: "openai" });
    const base = (this.config.baseUrl() || DEFAULT_BASE_URLS.openai).replace(/\/+$/, "");
    let reply: HttpClientResponse;
    try {
      reply = await this.http.request({
        method: "POST",
        url: `${base}/audio/speech`,
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "audio/ogg" },
        body: JSON.stringify({ model: OPENAI_SPEECH_MODEL, input: text, voice, response_format: "opus" }),
        timeoutMs: this.timeoutMs,
        maxResponseBytes: OPENAI_SPEECH_MAX_BYTES,
      });
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
