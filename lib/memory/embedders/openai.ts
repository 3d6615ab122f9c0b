import { toJson } from "../../util/json";
// An OpenAI-compatible /embeddings client over the HttpClient port:
// POST {base}/embeddings {model, input, dimensions} -> {data: [{index, embedding}], model, usage}.
import type { HttpClient } from "../../ports";
import { clipForMessage } from "../../util/text";
import { decodeUtf8 } from "../../util/utf8";
import { EMBED_BATCH_MAX, EMBED_TIMEOUT_MS, MAX_EMBEDDING_DIMS } from "../bounds";
import type { Embedder } from "./embedder";

export interface OpenAiEmbedderOptions {
  http: HttpClient;
  /** e.g. https://api.openai.com/v1 (no trailing /embeddings). */
  baseUrl: string;
  model: string;
  dims: number;
  apiKey: string;
  timeoutMs?: number;
}

/** Response bytes allowed per number of the answer (a float in JSON is at most ~24 characters). */
const BYTES_PER_FLOAT = 26;
const RESPONSE_OVERHEAD_BYTES = 16 * 1024;

/** An Embedder that calls an OpenAI-compatible embeddings endpoint. */
export function openAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const { http, model, dims, apiKey } = options;
  if (!(Number.isInteger(dims) && dims > 0 && dims <= MAX_EMBEDDING_DIMS)) throw new Error("bad embedding dimensions");
  const url = options.baseUrl.replace(/\/+$/, "") + "/embeddings";
  const timeoutMs = options.timeoutMs ?? EMBED_TIMEOUT_MS;
  return {
    id: `${model}/${dims}`,
    dims,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += EMBED_BATCH_MAX) {
        const batch = texts.slice(i, i + EMBED_BATCH_MAX);
        const res = await http.request({
          method: "POST",
          url,
          headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
          body: toJson({ model, input: batch, dimensions: dims }),
          timeoutMs,
          maxResponseBytes: RESPONSE_OVERHEAD_BYTES + batch.length * dims * BYTES_PER_FLOAT,
        });
        for (const v of parseEmbeddings(res.status, decodeUtf8(res.body), batch.length, dims)) out.push(v);
      }
      return out;
    },
  };
}

/**
 * The vectors of one reply, in input order, or a thrown one-sentence Error.
 * Provider error messages are not repeated (they can quote part of a key); type and code are.
 */
export function parseEmbeddings(status: number, body: string, expected: number, dims: number): Float32Array[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  if (status < 200 || status > 299) {
    const err = isObject(json) && isObject(json.error) ? json.error : undefined;
    const detail = [err?.type, err?.code].filter((x) => typeof x === "string" && x !== "").map((x) => clipForMessage(x as string, 40));
    throw new Error(`the embeddings service answered HTTP ${status}${detail.length ? ` (${detail.join(", ")})` : ""}.`);
  }
  if (!isObject(json) || !Array.isArray(json.data)) throw new Error("the embeddings service sent a reply that is not an embeddings list.");
  if (json.data.length !== expected) {
    throw new Error(`the embeddings service returned ${json.data.length} vectors for ${expected} texts.`);
  }
  const out: Array<Float32Array | undefined> = new Array(expected);
  const data: unknown[] = json.data;
  for (let i = 0; i < data.length; i++) {
    const item: unknown = data[i];
    const index: unknown = isObject(item) ? item.index : undefined;
    const embedding = isObject(item) ? item.embedding : undefined;
    const at = index === undefined ? i : index;
    if (typeof at !== "number" || !Number.isInteger(at) || at < 0 || at >= expected || out[at]) {
      throw new Error("the embeddings service sent a bad or repeated index.");
    }
    if (!Array.isArray(embedding) || embedding.length !== dims) {
      throw new Error(`the embeddings service sent a vector of the wrong length (expected ${dims}).`);
    }
    const v = new Float32Array(dims);
    for (let d = 0; d < dims; d++) {
      const x = embedding[d];
      if (typeof x !== "number" || !Number.isFinite(x)) throw new Error("the embeddings service sent a vector with a non-number in it.");
      v[d] = x;
    }
    out[at] = v;
  }
  return out as Float32Array[];
}

function isObject(x: unknown): x is { [key: string]: unknown } {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
