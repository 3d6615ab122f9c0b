// Speech to text over the OpenAI-style transcription endpoint, which OpenAI
// (gpt-4o-mini-transcribe), Mistral (voxtral-mini-latest) and local
// OpenAI-compatible servers all speak: POST {base}/audio/transcriptions as
// multipart/form-data with `model` and a `file`. A capture is streamed: the
// multipart head and a WAV header that declares an unknown length go first,
// then each block of samples as it is recorded, then the closing boundary, so
// at the end of speech only the last block is left to send.
import type { Clock, HttpClientResponse, Random } from "../ports";
import { fromHttpFailure, fromHttpStatus, ProviderError } from "../providers/errors";
import { DEFAULT_BASE_URLS } from "../providers/types";
import { multipartBoundary, multipartContentType } from "../util/multipart";
import { decodeUtf8, encodeUtf8 } from "../util/utf8";
import type { AudioHttp, AudioHttpExchange } from "./audio-http";
import { pcmBytes, WAV_STREAMING_SIZE, wavHeader } from "./wav";

export type SttProvider = "openai" | "mistral";
export const STT_MODELS: { readonly [p in SttProvider]: string } = { openai: "gpt-4o-mini-transcribe", mistral: "voxtral-mini-latest" };
export const STT_TIMEOUT_MS = 60_000;
export const STT_MAX_RESPONSE_BYTES = 64 * 1024;
/** A transcript longer than this is cut (a turn's text has its own limit too). */
export const TRANSCRIPT_MAX_CHARS = 4000;

export interface SttConfig {
  provider(): SttProvider;
  apiKey(provider: SttProvider): string | undefined;
  /** undefined: the provider's public API. */
  baseUrl(provider: SttProvider): string | undefined;
}

/** A capture on its way up. */
export interface TranscriptionUpload {
  write(samples: Int16Array): void;
  /** Sends the end of the body; resolves with the transcript. */
  finish(): Promise<string>;
  abort(): void;
}

export class Transcriber {
  constructor(
    private readonly http: AudioHttp,
    private readonly random: Random,
    private readonly clock: Clock,
    private readonly config: SttConfig,
  ) {}

  /** Opens a streamed upload of 16-bit mono samples at `sampleRate`. Throws ProviderError when no key is set. */
  begin(sampleRate: number): TranscriptionUpload {
    const { exchange, boundary, finish } = this.open("capture.wav", "audio/wav");
    exchange.write(wavHeader(sampleRate, WAV_STREAMING_SIZE));
    return {
      write: (samples) => exchange.write(pcmBytes(samples)),
      finish: () => finish(encodeUtf8(`\r\n--${boundary}--\r\n`)),
      abort: () => exchange.abort(),
    };
  }

  /** A whole file (WAV, OGG/Opus, MP3, M4A) as it is. */
  transcribeFile(bytes: Uint8Array, mime: string, filename: string): Promise<string> {
    const { exchange, boundary, finish } = this.open(filename, mime);
    exchange.write(bytes);
    return finish(encodeUtf8(`\r\n--${boundary}--\r\n`));
  }

  private open(
    filename: string,
    mime: string,
  ): { exchange: AudioHttpExchange; boundary: string; finish(tail: Uint8Array): Promise<string> } {
    const provider = this.config.provider();
    const apiKey = this.config.apiKey(provider);
    if (!apiKey)
      throw new ProviderError("unavailable", `No ${provider} key is set for transcription; the owner sets it through the owner API.`, {
        provider,
      });
    const base = (this.config.baseUrl(provider) || DEFAULT_BASE_URLS[provider]).replace(/\/+$/, "");
    const boundary = multipartBoundary(this.random);
    const exchange = this.http.open({
      method: "POST",
      url: `${base}/audio/transcriptions`,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": multipartContentType(boundary), accept: "application/json" },
      timeoutMs: STT_TIMEOUT_MS,
      maxResponseBytes: STT_MAX_RESPONSE_BYTES,
    });
    const field = (name: string, value: string): string =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    exchange.write(
      encodeUtf8(
        field("model", STT_MODELS[provider]) +
          field("response_format", "json") +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${mime}\r\n\r\n`,
      ),
    );
    const finish = async (tail: Uint8Array): Promise<string> => {
      exchange.write(tail);
      let reply: HttpClientResponse;
      try {
        reply = await exchange.end();
      } catch (e) {
        throw fromHttpFailure(provider, e, STT_TIMEOUT_MS, STT_MAX_RESPONSE_BYTES);
      }
      const json = parseJson(reply.body);
      if (reply.status < 200 || reply.status > 299)
        throw fromHttpStatus(provider, reply.status, reply.headers, json, apiKey, this.clock.now());
      const text = json && typeof json === "object" ? (json as { text?: unknown }).text : undefined;
      if (typeof text !== "string") throw new ProviderError("bad-response", "The transcription answer has no text.", { provider });
      return text.trim().slice(0, TRANSCRIPT_MAX_CHARS);
    };
    return { exchange, boundary, finish };
  }
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decodeUtf8(bytes));
  } catch {
    return undefined;
  }
}
