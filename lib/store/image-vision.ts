import { toJson } from "../util/json";
// image.generate's describe: a vision read-back of the PNG just made, a second call to the same
// OpenAI-compatible provider: POST {base}/responses with the prompt as an input_text part and the image
// as an input_image data URL; the answer is the output_text parts of the reply's message items
// (docs/providers.md has the Responses wire format). Also the reply parsing both image calls share.
import { HaloError } from "../errors";
import type { CallSignal, HttpClient, HttpClientResponse } from "../ports";
import { encodeBase64 } from "../util/base64";
import { clipForMessage } from "../util/text";
import { decodeUtf8 } from "../util/utf8";

export const DEFAULT_VISION_MODEL = "gpt-4.1-mini";
/** The description is a few sentences: a turn reads it, not pixels. */
export const VISION_MAX_OUTPUT_TOKENS = 300;
export const VISION_MAX_CHARS = 1200;
/** The reply is a small JSON object. */
export const VISION_MAX_RESPONSE_BYTES = 256 * 1024;
export const VISION_INSTRUCTION =
  "Describe this image in two to four plain sentences for someone who cannot see it: the subject, the setting, the colours and any text in it.";

export interface VisionCall {
  http: HttpClient;
  key: string;
  /** The base URL without a trailing slash. */
  base: string;
  timeoutMs: number;
  signal?: CallSignal;
}

/** A few sentences describing `png`; a HaloError with one sentence on any failure. */
export async function describePng(call: VisionCall, png: Uint8Array, model = DEFAULT_VISION_MODEL): Promise<string> {
  const body = {
    model,
    input: [
      {
        role: "user",
        content: [
          { type: "input_text", text: VISION_INSTRUCTION },
          { type: "input_image", image_url: `data:image/png;base64,${encodeBase64(png)}` },
        ],
      },
    ],
    max_output_tokens: VISION_MAX_OUTPUT_TOKENS,
  };
  let res: HttpClientResponse;
  try {
    res = await call.http.request({
      method: "POST",
      url: `${call.base}/responses`,
      headers: { authorization: `Bearer ${call.key}`, "content-type": "application/json", accept: "application/json" },
      body: toJson(body),
      timeoutMs: call.timeoutMs,
      signal: call.signal,
      maxResponseBytes: VISION_MAX_RESPONSE_BYTES,
    });
  } catch (e) {
    throw new HaloError(
      "provider-error",
      `the describe request failed (${clipForMessage(e instanceof Error ? e.message : "network error", 100)}).`,
    );
  }
  if (res.status === 401 || res.status === 403)
    throw new HaloError("provider-error", `the provider refused the API key (HTTP ${res.status}).`);
  const json = parseJson(res.body);
  if (res.status !== 200) throw new HaloError("provider-error", `the provider answered HTTP ${res.status}${providerMessage(json)}.`);
  const text = outputText(json);
  if (text === undefined) throw new HaloError("provider-error", "the provider's reply held no description.");
  return clipForMessage(text.replace(/\s+/g, " ").trim(), VISION_MAX_CHARS);
}

/** The text of a Responses reply's message items (output_text parts); undefined when none, or on a refusal. */
// biome-ignore lint/suspicious/noExplicitAny: JSON of unknown shape; every field read is checked with typeof
function outputText(json: any): string | undefined {
  if (!json || !Array.isArray(json.output)) return undefined;
  const parts: string[] = [];
  for (const item of json.output) {
    if (item?.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      if (part?.type === "output_text" && typeof part.text === "string") parts.push(part.text);
    }
  }
  const text = parts.join(" ").trim();
  return text ? text : undefined;
}

/** The reply as JSON of unknown shape (callers check each field), or undefined. */
// biome-ignore lint/suspicious/noExplicitAny: JSON of unknown shape; every field read is checked with typeof
export function parseJson(bytes: Uint8Array): any {
  try {
    return JSON.parse(decodeUtf8(bytes));
  } catch {
    return undefined;
  }
}

/** The provider's error message, clipped, with anything key-like removed (OpenAI echoes part of a bad key). */
// biome-ignore lint/suspicious/noExplicitAny: JSON of unknown shape; every field read is checked with typeof
export function providerMessage(body: any): string {
  const message = body?.error && typeof body.error.message === "string" ? body.error.message : "";
  if (!message) return "";
  return `: ${clipForMessage(message.replace(/\b(sk|key)-[A-Za-z0-9_*-]+/g, "[key]"), 120)}`;
}
