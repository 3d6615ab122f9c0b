// POST /api/voice: a WAV body through the voice pipeline, as the web UI's talk
// button and the tests drive it. Any client's token gets in; the turn runs as
// that client's person. The answer is JSON: transcript, reply, and `audio`,
// the path from which GET returns the spoken reply as WAV (only to the client
// that asked, while the reply is among the last VOICE_REPLIES_KEPT).
import { HaloError } from "../errors";
import { apiError } from "../http/owner-api";
import { bearerToken, pathOnly, tokenInQuery } from "../http/bearer";
import type { HttpRequest, HttpResponse } from "../mcp/http";
import type { McpClient } from "../people/clients";
import type { Random, Storage } from "../ports";
import type { Principal } from "../registry/principal";
import type { TurnEngine } from "../turn/engine";
import { toHex } from "../util/hash";
import { VOICE_CHANNEL, type VoiceSubsystem } from "./build";
import { recordingSpeaker, samplesSource } from "./memory-audio";
import { MIC_SAMPLE_RATE, resample } from "./pcm";
import { VoicePipeline } from "./pipeline";
import { decodeWav, encodeWav } from "./wav";

export const VOICE_API_PATH = "/api/voice";
/** Spoken replies kept for GET; older ones are removed from the card. */
export const VOICE_REPLIES_KEPT = 8;
export const VOICE_REPLY_DIR = "voice";
const REPLY_ID_BYTES = 8;
const REPLY_PATH = /^\/api\/voice\/([0-9a-f]{16})\.wav$/;
const WAV_TYPES = ["audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave"];
const JSON_HEADERS = { "content-type": "application/json", "cache-control": "no-store" };

export interface VoiceApiEnvironment {
  verifyToken(token: string): McpClient | undefined;
  principalFor(client: McpClient): Principal;
  turn: Pick<TurnEngine, "runTurn">;
  voice: VoiceSubsystem;
  random: Random;
  /** Where spoken replies are kept; without it the answer's audio is null. */
  storage?: Storage;
  ttsOn(): boolean;
  originAllowed(origin: string, host: string | undefined): boolean;
}

export function createVoiceApi(env: VoiceApiEnvironment): (req: HttpRequest) => Promise<HttpResponse> {
  /** Reply id to the client that asked, newest last. */
  const replies = new Map<string, string>();
  return async (req) => {
    if (tokenInQuery(req.path)) return apiError(400, "Tokens are not accepted in a URL: send Authorization: Bearer <token>.");
    const origin = req.headers["origin"];
    if (origin !== undefined && !env.originAllowed(origin, req.headers["host"]))
      return apiError(403, "Forbidden: this origin may not call the voice API.");
    const token = bearerToken(req.headers);
    const client = token === undefined ? undefined : env.verifyToken(token);
    if (!client) {
      const r = apiError(401, "Unauthorized: send Authorization: Bearer <a client's token>.");
      return { ...r, headers: { ...r.headers, "www-authenticate": 'Bearer realm="halo", error="invalid_token"' } };
    }
    const path = pathOnly(req.path);
    if (path === VOICE_API_PATH) {
      if (req.method !== "POST") return withAllow(apiError(405, "Method not allowed: use POST."), "POST");
      return talk(env, req, client, replies);
    }
    const m = REPLY_PATH.exec(path);
    if (!m) return apiError(404, "Not found: no such voice reply.");
    if (req.method !== "GET") return withAllow(apiError(405, "Method not allowed: use GET."), "GET");
    const bytes = replies.get(m[1]) === client.name ? readReply(env.storage, m[1]) : undefined;
    if (!bytes) return apiError(404, "Not found: no such voice reply.");
    return { status: 200, headers: { "content-type": "audio/wav", "cache-control": "no-store" }, body: "", bytes };
  };
}

async function talk(env: VoiceApiEnvironment, req: HttpRequest, client: McpClient, replies: Map<string, string>): Promise<HttpResponse> {
  if (req.bodyTooLarge) return apiError(413, "Payload too large: the recording is longer than the device accepts in one request.");
  const type = (req.headers["content-type"] || "").split(";")[0].trim().toLowerCase();
  if (WAV_TYPES.indexOf(type) < 0) return apiError(415, "Unsupported media type: send audio/wav.");
  let samples: Int16Array;
  try {
    const pcm = decodeWav(req.body ?? new Uint8Array(0));
    samples = resample(pcm.samples, pcm.sampleRate, MIC_SAMPLE_RATE);
  } catch (e) {
    if (e instanceof HaloError) return apiError(400, `Bad request: ${e.sentence}`);
    throw e;
  }
  const speaker = recordingSpeaker();
  const principal = env.principalFor(client);
  const pipeline: VoicePipeline = new VoicePipeline({
    mic: samplesSource(samples, () => pipeline.release()),
    transcriber: env.voice.transcriber,
    speech: env.voice.speechOn(speaker),
    runTurn: async (text) => (await env.turn.runTurn(principal, { text, channel: VOICE_CHANNEL })).reply,
    speakWith: () => (env.ttsOn() ? { voice: env.voice.voiceName() } : { refusal: "off: spoken replies are off (ttsOn is false)." }),
  });
  const exchange = await pipeline.press()!;
  const rate = speaker.rate();
  const recorded = speaker.take();
  const audio =
    rate !== undefined && recorded.length ? keepReply(env, client, replies, encodeWav({ sampleRate: rate, samples: recorded })) : null;
  const body: { [key: string]: unknown } = {
    transcript: exchange.transcript,
    reply: exchange.reply,
    audio,
    ended: exchange.ended,
    capturedMs: Math.round(exchange.capturedMs),
  };
  if (exchange.error) body.error = exchange.error;
  return { status: exchange.error ? 502 : 200, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
}

function keepReply(env: VoiceApiEnvironment, client: McpClient, replies: Map<string, string>, wav: Uint8Array): string | null {
  const storage = env.storage;
  if (!storage) return null;
  const idBytes = new Uint8Array(REPLY_ID_BYTES);
  env.random.fill(idBytes);
  const id = toHex(idBytes);
  try {
    storage.writeAtomic(`${VOICE_REPLY_DIR}/${id}.wav`, wav);
  } catch {
    return null;
  }
  replies.set(id, client.name);
  for (const old of replies.keys()) {
    if (replies.size <= VOICE_REPLIES_KEPT) break;
    replies.delete(old);
    try {
      storage.remove(`${VOICE_REPLY_DIR}/${old}.wav`);
    } catch {
      // A card pulled since: the file goes with it.
    }
  }
  return `${VOICE_API_PATH}/${id}.wav`;
}

function readReply(storage: Storage | undefined, id: string): Uint8Array | undefined {
  try {
    return storage?.read(`${VOICE_REPLY_DIR}/${id}.wav`);
  } catch {
    return undefined;
  }
}

function withAllow(r: HttpResponse, allow: string): HttpResponse {
  return { ...r, headers: { ...r.headers, allow } };
}
