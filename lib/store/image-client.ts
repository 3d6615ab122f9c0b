import { toJson } from "../util/json";
import { HaloError } from "../errors";
// image.generate's provider: an OpenAI-compatible images endpoint
// (POST {base}/images/generations, reply {data:[{b64_json}]}). The key and
// base URL are read at each call through a small config the core wires to the
// owner's secrets; with no key set the tool reports "not configured".
import type { CallSignal, HttpClient, HttpClientResponse } from "../ports";
import { decodeBase64 } from "../util/base64";
import { clipForMessage } from "../util/text";
import { parseHttpUrl } from "../util/url";
import { contentMatchesName } from "./artifact-names";
import { DEFAULT_VISION_MODEL, describePng, parseJson, providerMessage } from "./image-vision";

/** Owner-set provider values, read at each call. Never reached by a tool's arguments. */
export interface ImageProviderConfig {
  /** The OpenAI API key (the owner's secret), undefined when not set. */
  apiKey(): string | undefined;
  /** Base URL of an OpenAI-compatible API; undefined means DEFAULT_IMAGE_BASE_URL. */
  baseUrl(): string | undefined;
}

export const DEFAULT_IMAGE_BASE_URL = "https://api.openai.com/v1";
export const DEFAULT_IMAGE_MODEL = "gpt-image-1";
/** gpt-image-1 takes 1-2 minutes for a high-quality image. */
export const IMAGE_TIMEOUT_MS = 180_000;
/** The JSON reply: a base64 PNG is 4/3 of the image. */
export const IMAGE_MAX_RESPONSE_BYTES = 12 * 1024 * 1024;

export interface ImageRequest {
  prompt: string;
  model: string;
  size: string;
  quality: string;
}

export class ImageClient {
  constructor(
    private readonly http: HttpClient,
    private readonly config: ImageProviderConfig,
    private readonly timeoutMs = IMAGE_TIMEOUT_MS,
  ) {}

  configured(): boolean {
    return !!this.config.apiKey();
  }

  /**
   * A few sentences describing `png` (describe: true), a second call to the same provider; a HaloError with
   * one sentence on any failure. `limits` as for generate.
   */
  async describe(png: Uint8Array, limits?: { timeoutMs: number; signal?: CallSignal }): Promise<string> {
    const key = this.config.apiKey();
    if (!key)
      throw new HaloError("not-configured", "describing an image needs an OpenAI API key, which the owner sets through the owner API.");
    const base = (this.config.baseUrl() || DEFAULT_IMAGE_BASE_URL).replace(/\/+$/, "");
    if (typeof parseHttpUrl(base) === "string") throw new HaloError("not-configured", "the image provider's base URL is not a valid URL.");
    const timeoutMs = Math.min(this.timeoutMs, limits?.timeoutMs ?? this.timeoutMs);
    return describePng({ http: this.http, key, base, timeoutMs, signal: limits?.signal }, png, DEFAULT_VISION_MODEL);
  }

  /** The PNG bytes of one generated image; a HaloError with one sentence on any failure. */
  /** `limits` cuts the request's own timeout to what is left of a caller's deadline and aborts with its signal. */
  async generate(req: ImageRequest, limits?: { timeoutMs: number; signal?: CallSignal }): Promise<Uint8Array> {
    const key = this.config.apiKey();
    if (!key) throw new HaloError("not-configured", "image.generate needs an OpenAI API key, which the owner sets through the owner API.");
    const base = (this.config.baseUrl() || DEFAULT_IMAGE_BASE_URL).replace(/\/+$/, "");
    if (typeof parseHttpUrl(base) === "string") throw new HaloError("not-configured", "the image provider's base URL is not a valid URL.");
    let res: HttpClientResponse;
    try {
      res = await this.http.request({
        method: "POST",
        url: `${base}/images/generations`,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json" },
        body: toJson({ model: req.model, prompt: req.prompt, n: 1, size: req.size, quality: req.quality }),
        timeoutMs: Math.min(this.timeoutMs, limits?.timeoutMs ?? this.timeoutMs),
        signal: limits?.signal,
        maxResponseBytes: IMAGE_MAX_RESPONSE_BYTES,
      });
    } catch (e) {
      throw new HaloError(
        "provider-error",
        `the image request failed (${clipForMessage(e instanceof Error ? e.message : "network error", 100)}).`,
      );
    }
    if (res.status === 401 || res.status === 403) {
      throw new HaloError("provider-error", `the image provider refused the API key (HTTP ${res.status}).`);
    }
    const body = parseJson(res.body);
    if (res.status !== 200) {
      throw new HaloError("provider-error", `the image provider answered HTTP ${res.status}${providerMessage(body)}.`);
    }
    const b64 = body && Array.isArray(body.data) && body.data[0]?.b64_json;
    if (typeof b64 !== "string") throw new HaloError("provider-error", "the image provider's reply held no base64 image.");
    const png = decodeBase64(b64);
    if (!png || png.length === 0) throw new HaloError("provider-error", "the image provider's base64 image is malformed.");
    if (!contentMatchesName("image.png", png)) throw new HaloError("provider-error", "the image provider's reply is not a PNG.");
    return png;
  }
}
