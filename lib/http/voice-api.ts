// POST /api/voice: a WAV body through the voice pipeline, as the web UI's talk
// button and the tests drive it. Any client's token gets in; the turn runs as
// that client's person. The answer is JSON: transcript, reply, and `audio`,
// the path from which GET returns the spoken reply as WAV (only to the client
// that asked, while the reply is among the last VOICE_REPLIES_KEPT).
import type { ConfigStore } from "../device/config";
import { HttpError, notFound } from "./http-error";
import { requireClient } from "./middleware";
import { jsonAnswer, type RouteSpec } from "./pipeline";
import type { HttpRequest, HttpResponse } from "./types";
import type { McpClient } from "../people/clients";
import type { SpendRails } from "../people/rails";
import type { Random, Storage } from "../ports";
import type { Principal } from "../registry/principal";
import type { TurnEngine } from "../turn/engine";
import { toHex } from "../util/hash";
import type { Speech } from "../voice/speech-service";
import { VOICE_CHANNEL } from "../voice/voice-loop";
import { recordingSpeaker, samplesSource } from "../voice/memory-audio";
import { MIC_SAMPLE_RATE, resample } from "../voice/pcm";
import { VoicePipeline } from "../voice/pipeline";
import { decodeWav, encodeWav, WAV_MEDIA_TYPES } from "../voice/wav";

export const VOICE_API_PATH = "/api/voice";
/** Largest WAV upload: a minute of 16 kHz mono, or about 12 s of 44.1 kHz stereo. */
export const VOICE_UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
/** Spoken replies kept for GET per client; a client's older ones are removed from the card. */
export const VOICE_REPLIES_KEPT = 8;
/** Clients whose replies are kept; past it the client that spoke longest ago loses its replies. */
export const VOICE_REPLY_CLIENTS_MAX = 16;
export const VOICE_REPLY_DIR = "voice";
const REPLY_ID_BYTES = 8;
const REPLY_FILE = /^([0-9a-f]{16})\.wav$/;

export interface VoiceApiEnvironment {
  verifyToken(token: string): McpClient | undefined;
  principalFor(client: McpClient): Principal;
  turn: Pick<TurnEngine, "runTurn">;
  /** Credit and rate, asked before the upload is transcribed (lib/people/rails.ts). */
  rails: Pick<SpendRails, "admit">;
  speech: Pick<Speech, "transcriber" | "speechOn" | "voiceName">;
  random: Random;
  /** Where spoken replies are kept; without it the answer's audio is null. */
  storage: Storage | undefined;
  /** The ttsOn knob decides whether a reply is spoken. */
  config: Pick<ConfigStore, "bool">;
}

/** POST /api/voice and GET /api/voice/<id>.wav, for the HTTP pipeline's route table. */
export function voiceRoutes(env: VoiceApiEnvironment): RouteSpec[] {
  /** Reply id to the client that asked, newest last. */
  const replies = new Map<string, string>();
  const client = requireClient(env.verifyToken, "any");
  return [
    {
      method: "POST",
      pattern: VOICE_API_PATH,
      maxBody: VOICE_UPLOAD_MAX_BYTES,
      errors: "api",
      use: [client],
      handler: (ctx) => talk(env, ctx.req, ctx.client!, replies),
    },
    {
      method: "GET",
      pattern: `${VOICE_API_PATH}/:file`,
      maxBody: 0,
      errors: "api",
      use: [client],
      handler: (ctx) => {
        const m = REPLY_FILE.exec(ctx.params.file);
        const bytes = m && replies.get(m[1]) === ctx.client!.name ? readReply(env.storage, m[1]) : undefined;
        if (!bytes) throw notFound("no such voice reply.");
        return { status: 200, headers: { "content-type": "audio/wav", "cache-control": "no-store" }, body: bytes };
      },
    },
  ];
}

async function talk(env: VoiceApiEnvironment, req: HttpRequest, client: McpClient, replies: Map<string, string>): Promise<HttpResponse> {
  const type = (req.headers["content-type"] || "").split(";")[0].trim().toLowerCase();
  if (WAV_MEDIA_TYPES.indexOf(type) < 0) throw new HttpError(415, "Unsupported media type: send audio/wav.");
  // The same rails as POST /api/chat, before anything reaches a provider (the transcription costs too).
  const principal = env.principalFor(client);
  env.rails.admit(principal, "voice", client.name);
  // A WAV that does not decode is a HaloError (invalid), answered 400.
  const pcm = decodeWav(req.body ?? new Uint8Array(0));
  const samples = resample(pcm.samples, pcm.sampleRate, MIC_SAMPLE_RATE);
  const speaker = recordingSpeaker();
  const pipeline: VoicePipeline = new VoicePipeline({
    mic: samplesSource(samples, () => pipeline.release()),
    transcriber: env.speech.transcriber,
    speech: env.speech.speechOn(speaker),
    runTurn: async (text) => (await env.turn.runTurn(principal, { text, channel: VOICE_CHANNEL })).reply,
    speakWith: () =>
      env.config.bool("ttsOn") ? { voice: env.speech.voiceName() } : { refusal: "off: spoken replies are off (ttsOn is false)." },
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
  return jsonAnswer(exchange.error ? 502 : 200, body);
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
  // Kept per client: another client's replies never push this one's out.
  const mine: string[] = [];
  const clients: string[] = [];
  for (const [rid, owner] of replies) {
    if (owner === client.name) mine.push(rid);
    const at = clients.indexOf(owner);
    if (at >= 0) clients.splice(at, 1);
    clients.push(owner);
  }
  const drop = mine.slice(0, Math.max(0, mine.length - VOICE_REPLIES_KEPT));
  // Clients in order of their newest reply: past the bound, the one that spoke longest ago goes whole.
  for (const gone of clients.slice(0, Math.max(0, clients.length - VOICE_REPLY_CLIENTS_MAX)))
    for (const [rid, owner] of replies) if (owner === gone) drop.push(rid);
  for (const old of drop) {
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
