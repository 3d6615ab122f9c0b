// A loopback stand-in for Mistral's speech endpoint as its documentation describes it: POST /v1/audio/speech
// with a bearer key and a JSON body {model, input, voice_id, response_format}; the answer is JSON whose
// audio_data is the audio file in base64. It speaks the input with espeak-ng (24 kHz WAV), or answers
// from a script of misbehaviours, and records every request.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resample } from "../../lib/voice/pcm.ts";
import { encodeWav } from "../../lib/voice/wav.ts";
import { say } from "./speech.ts";

export const STAND_IN_RATE = 24000;

export interface MistralSpeechRequest {
  path: string;
  authorization: string | undefined;
  json: any;
}

export type MistralSpeechStep =
  | { kind: "speak" }
  | { kind: "status"; status: number; body: unknown }
  | { kind: "body"; body: string }
  | { kind: "wav"; wav: Uint8Array }
  | { kind: "hang" };

export class MistralSpeechServer {
  readonly seen: MistralSpeechRequest[] = [];
  readonly script: MistralSpeechStep[] = [];
  /** The samples of each spoken answer, at STAND_IN_RATE. */
  readonly spoken: Int16Array[] = [];
  private server!: Server;
  private readonly hanging = new Set<ServerResponse>();
  url = "";

  static async start(key: string): Promise<MistralSpeechServer> {
    const s = new MistralSpeechServer();
    s.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        let json: any;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          json = undefined;
        }
        s.seen.push({ path: req.url ?? "", authorization: req.headers.authorization, json });
        const answer = (status: number, body: unknown): void => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(typeof body === "string" ? body : JSON.stringify(body));
        };
        if (req.method !== "POST" || req.url !== "/v1/audio/speech") return answer(404, { detail: "Not Found" });
        if (req.headers.authorization !== `Bearer ${key}`) return answer(401, { detail: "Unauthorized" });
        if (!json || typeof json.input !== "string" || typeof json.model !== "string" || typeof json.voice_id !== "string")
          return answer(422, {
            object: "error",
            message: "Invalid request: input, model and voice_id are required",
            type: "invalid_request_error",
          });
        const step = s.script.shift() ?? { kind: "speak" };
        switch (step.kind) {
          case "speak": {
            const samples = resample(say(json.input), 16000, STAND_IN_RATE);
            s.spoken.push(samples);
            return answer(200, { audio_data: Buffer.from(encodeWav({ sampleRate: STAND_IN_RATE, samples })).toString("base64") });
          }
          case "status":
            return answer(step.status, step.body);
          case "body":
            return answer(200, step.body);
          case "wav":
            return answer(200, { audio_data: Buffer.from(step.wav).toString("base64") });
          case "hang":
            s.hanging.add(res);
            return;
        }
      });
    });
    await new Promise<void>((ok) => s.server.listen(0, "127.0.0.1", () => ok()));
    s.url = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}/v1`;
    return s;
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }
}
