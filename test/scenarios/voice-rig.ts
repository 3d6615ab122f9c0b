// In-process stand-ins for the voice wire (no Node imports: the XS host runs
// them too): an AudioHttp that answers transcription and speech requests from
// a script, streaming speech bodies piece by piece; synthetic speech (voiced
// syllables with gaps) over seeded noise; a Transcriber and a SpeechPlayer
// wired to them. Used by the XS scenario and the XS benchmark.
import type { HttpClientResponse } from "../../lib/ports.ts";
import type { AudioHttp, AudioHttpRequest } from "../../lib/voice/audio-http.ts";
import { concatBytes } from "../../lib/util/bytes.ts";
import { MIC_SAMPLE_RATE } from "../../lib/voice/pcm.ts";
import { mulberry32 } from "../support/prng.ts";
import { decodeUtf8, encodeUtf8 } from "../../lib/util/utf8.ts";

export interface WireLog {
  /** Per request: method url, body bytes, when end() was called (now()), response pieces. */
  requests: Array<{ url: string; contentType: string; body: Uint8Array; endedAt: number }>;
  /** now() when each streamed speech piece was handed to onBody. */
  speechPieceAt: number[];
}

export interface SpeechStep {
  pcm?: Int16Array;
  pieceBytes?: number;
  /** Reject with a network error after this many pieces. */
  breakAfterPieces?: number;
  status?: number;
}

export interface WireScript {
  transcripts: string[];
  speech: SpeechStep[];
}

function failure(message: string): Error {
  const e = new Error(message);
  (e as Error & { code: string }).code = "network";
  return e;
}

export function scriptedAudioHttp(script: WireScript, log: WireLog, now: () => number): AudioHttp {
  return {
    open(req: AudioHttpRequest) {
      const pieces: Uint8Array[] = [];
      let aborted = false;
      return {
        write(chunk) {
          pieces.push(chunk.slice());
        },
        async end(): Promise<HttpClientResponse> {
          const body = concatBytes(pieces);
          log.requests.push({ url: req.url, contentType: req.headers["content-type"] ?? "", body, endedAt: now() });
          if (aborted) throw failure("the request was abandoned");
          if (req.url.endsWith("/audio/transcriptions")) {
            const text = script.transcripts.shift();
            if (text === undefined) return json(500, { error: { message: "no scripted transcript" } });
            return json(200, { text });
          }
          const step = script.speech.shift();
          if (!step || step.status) return json(step?.status ?? 500, { error: { message: "speech refused" } });
          const pcm = step.pcm ?? new Int16Array(0);
          const bytes = new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
          const size = step.pieceBytes ?? 4801;
          let n = 0;
          for (let at = 0; at < bytes.length; at += size) {
            if (aborted) throw failure("the request was abandoned");
            if (step.breakAfterPieces !== undefined && n >= step.breakAfterPieces) throw failure("the connection closed mid-answer");
            log.speechPieceAt.push(now());
            req.onBody?.(bytes.slice(at, Math.min(bytes.length, at + size)));
            n++;
            await null;
          }
          return { status: 200, headers: { "content-type": "audio/pcm" }, body: new Uint8Array(0) };
        },
        abort() {
          aborted = true;
        },
      };
    },
  };
}

function json(status: number, value: unknown): HttpClientResponse {
  return { status, headers: { "content-type": "application/json" }, body: encodeUtf8(JSON.stringify(value)) };
}

export interface SyntheticSpeech {
  samples: Int16Array;
  speechEndMs: number;
}

/** `syllables` voiced bursts of 160 ms with 60 ms gaps, between `leadMs` and `tailMs` of noise. */
export function syntheticSpeech(syllables: number, leadMs: number, tailMs: number, noiseRms: number, seed = 3): SyntheticSpeech {
  const rate = MIC_SAMPLE_RATE;
  const lead = (leadMs * rate) / 1000;
  const syl = (160 * rate) / 1000;
  const gap = (60 * rate) / 1000;
  const speechLen = syllables * (syl + gap) - gap;
  const total = lead + speechLen + (tailMs * rate) / 1000;
  const out = new Int16Array(total);
  const rng = mulberry32(seed);
  for (let i = 0; i < total; i++) {
    let v = noiseRms ? (rng.next() * 2 - 1) * noiseRms * 1.7 : 0;
    const k = i - lead;
    if (k >= 0 && k < speechLen && k % (syl + gap) < syl) {
      const t = k % (syl + gap);
      const envelope = Math.sin((Math.PI * t) / syl);
      v += 7000 * envelope * (Math.sin((2 * Math.PI * 180 * k) / rate) + 0.5 * Math.sin((2 * Math.PI * 360 * k) / rate));
    }
    out[i] = Math.max(-32768, Math.min(32767, Math.round(v)));
  }
  return { samples: out, speechEndMs: ((lead + speechLen) * 1000) / rate };
}

/** The multipart field `name` of a recorded body (ASCII fields only). */
export function multipartField(body: Uint8Array, name: string): string | undefined {
  const text = decodeUtf8(body.subarray(0, Math.min(body.length, 600)));
  const m = new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)`).exec(text);
  return m ? m[1] : undefined;
}
