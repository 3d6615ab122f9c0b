// The voice code on Node and on XS, same transcript: WAV parsing (good and
// malformed), resampling and I2S slots, the end-of-speech detector on
// synthetic speech in noise, and the pipeline against in-process stand-ins:
// a full exchange, barge-in, a speech stream breaking mid-way, the 60 s cap.
import type { AudioIn, AudioOut } from "../../lib/ports.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { decodeBase64 } from "../../lib/util/base64.ts";
import { encodeBase64 } from "../../lib/voice/base64-encode.ts";
import { RealtimeVoice } from "../../lib/voice/realtime.ts";
import type { WebSocketClient, WebSocketEvents } from "../../lib/ports.ts";
import { EndOfSpeechDetector } from "../../lib/voice/endpoint.ts";
import { recordingSpeaker, samplesSource } from "../../lib/voice/memory-audio.ts";
import { resample, rms, slots32ToSamples, sineTone, toneLevel } from "../../lib/voice/pcm.ts";
import { MAX_CAPTURE_MS, VoicePipeline, type PhaseEvent } from "../../lib/voice/pipeline.ts";
import { SpeechPlayer } from "../../lib/voice/speech.ts";
import { Transcriber } from "../../lib/voice/transcribe.ts";
import { decodeWav, encodeWav, pcmBytes, wavHeader } from "../../lib/voice/wav.ts";
import { portablePorts } from "../support/portable-ports.ts";
import { multipartField, scriptedAudioHttp, syntheticSpeech, type WireLog, type WireScript } from "./voice-rig.ts";

export async function runVoiceScenario(): Promise<string[]> {
  const out: string[] = [];
  const ports = portablePorts();

  // WAV in and out.
  const tone = sineTone(440, 100, 16000, 8000);
  const back = decodeWav(encodeWav({ sampleRate: 16000, samples: tone }));
  out.push(`wav ${back.sampleRate} ${back.samples.length} ${back.samples[17]} ${back.samples[1599]}`);
  const bad: Array<[string, Uint8Array]> = [
    ["empty", new Uint8Array(0)],
    ["header only", wavHeader(16000, 0)],
    ["no data", wavHeader(16000, 0).subarray(0, 36)],
    ["riff garbage", new Uint8Array([82, 73, 70, 70, 0, 0, 0, 0, 87, 65, 86, 69, 255, 255])],
  ];
  for (const [label, bytes] of bad) {
    try {
      decodeWav(bytes);
      out.push(`wav.${label} accepted`);
    } catch (e) {
      out.push(`wav.${label} ${(e as Error).message}`);
    }
  }
  const up = resample(tone, 16000, 24000);
  const down = resample(tone, 16000, 8000);
  out.push(`resample ${up.length} ${down.length} ${Math.round(rms(up))} ${Math.round(rms(down))}`);
  out.push(`slots ${Array.from(slots32ToSamples(new Int32Array([0x7fff0000, -0x10000, 0x12345600, 0]))).join(",")}`);
  out.push(`goertzel ${Math.round(toneLevel(tone, 440, 16000))} ${Math.round(toneLevel(tone, 1000, 16000))}`);

  // End of speech on synthetic speech, quiet and noisy.
  for (const noise of [0, 300]) {
    const s = syntheticSpeech(8, 600, 1500, noise);
    const d = new EndOfSpeechDetector(16000);
    let verdict: string | undefined;
    for (let at = 0; at < s.samples.length && !verdict; at += 320) verdict = d.push(s.samples.subarray(at, at + 320));
    out.push(
      `endpoint noise=${noise} ${verdict} start=${(d.speechStart! * 1000) / 16000} late=${(d.decidedAt! * 1000) / 16000 - s.speechEndMs}`,
    );
  }
  const quiet = new EndOfSpeechDetector(16000);
  let none: string | undefined;
  for (let i = 0; i < 500 && !none; i++) none = quiet.push(new Int16Array(320));
  out.push(`endpoint silence ${none} at=${(quiet.decidedAt! * 1000) / 16000}`);

  // The pipeline against in-process stand-ins.
  const log: WireLog = { requests: [], speechPieceAt: [] };
  const script: WireScript = { transcripts: [], speech: [] };
  let tick = 0;
  const http = scriptedAudioHttp(script, log, () => ++tick);
  const transcriber = new Transcriber(http, ports.random, ports.clock, {
    provider: () => "openai",
    apiKey: () => "sk-xs",
    baseUrl: () => "http://stand-in/v1",
  });
  const phases: PhaseEvent[] = [];
  const recorder = recordingSpeaker();
  let onWrite: (() => void) | undefined;
  const speaker: AudioOut = {
    ...recorder,
    write(samples, rate) {
      recorder.write(samples, rate);
      onWrite?.();
    },
  };
  const speech = new SpeechPlayer(http, ports.clock, speaker, {
    provider: () => "openai",
    apiKey: () => "sk-xs",
    baseUrl: () => "http://stand-in/v1",
  });
  let clip = syntheticSpeech(6, 400, 800, 200).samples;
  const pipeline: VoicePipeline = new VoicePipeline({
    mic: {
      sampleRate: 16000,
      start: (cb) => source.start(cb),
      stop: () => source.stop(),
    },
    transcriber,
    speech,
    runTurn: async (text) => `You said: ${text}`,
    speakWith: () => ({ voice: "alloy" }),
    onPhase: (e) => phases.push(e),
  });
  let source = samplesSource(clip, () => pipeline.release());
  const reset = (samples: Int16Array): void => {
    clip = samples;
    source = samplesSource(clip, () => pipeline.release());
  };

  script.transcripts.push("hello device");
  script.speech.push({ pcm: sineTone(300, 500, 24000, 5000) });
  const first = await pipeline.press()!;
  const sent = log.requests[0];
  out.push(
    `exchange ${first.ended} ${first.transcript} | ${first.reply} | ${first.spoken} captured=${first.capturedMs} model=${multipartField(sent.body, "model")}`,
  );
  out.push(`upload ${sent.url} ${sent.contentType.replace(/[0-9a-f]{32}/, "<hex>")} bytes=${sent.body.length}`);
  const played = recorder.take();
  out.push(`played ${played.length} ${played[100]} ${played[11999]}`);
  out.push(`phases ${phases.map((p) => p.phase).join(",")}`);

  // Barge-in: the button goes down on the third piece of a long reply.
  phases.length = 0;
  reset(syntheticSpeech(4, 300, 800, 0).samples);
  script.transcripts.push("tell me a story", "stop");
  script.speech.push({ pcm: sineTone(300, 5000, 24000, 5000), pieceBytes: 4800 }, { pcm: sineTone(300, 200, 24000, 5000) });
  let writes = 0;
  let second: Promise<unknown> | undefined;
  onWrite = () => {
    if (++writes === 3) {
      onWrite = undefined;
      reset(syntheticSpeech(3, 300, 800, 0).samples);
      second = pipeline.press();
    }
  };
  const story = await pipeline.press()!;
  await second;
  out.push(`barge-in ${story.spoken} kept=${recorder.take().length} phases=${phases.map((p) => p.phase).join(",")}`);

  // A speech stream that breaks after two pieces.
  phases.length = 0;
  reset(syntheticSpeech(4, 300, 800, 0).samples);
  script.transcripts.push("news");
  script.speech.push({ pcm: sineTone(300, 2000, 24000, 5000), pieceBytes: 4800, breakAfterPieces: 2 });
  const broken = await pipeline.press()!;
  out.push(`broken ${broken.error} phases=${phases.map((p) => p.phase).join(",")}`);
  recorder.take();

  // The cap: a talker who never stops.
  const long = new Int16Array(((MAX_CAPTURE_MS + 3000) * 16000) / 1000);
  for (let i = 0; i < long.length; i++) long[i] = i % 40 < 20 ? 6000 : -6000;
  reset(long);
  script.transcripts.push("ramble");
  script.speech.push({ pcm: sineTone(300, 100, 24000, 5000) });
  const capped = await pipeline.press()!;
  const last = log.requests.filter((r) => r.url.endsWith("/transcriptions")).pop()!;
  out.push(`cap ${capped.ended} ${capped.capturedMs} bytes=${last.body.length}`);
  out.push(...(await realtimeExchange()));
  return out;
}

/** Realtime mode against an in-process socket: appends, a function call through the registry, audio deltas. */
async function realtimeExchange(): Promise<string[]> {
  const out: string[] = [];
  const sent: Array<{ type: string; [key: string]: unknown }> = [];
  let appended = 0;
  let handlers: WebSocketEvents | undefined;
  const responses: object[][] = [
    [{ type: "response.function_call_arguments.done", call_id: "c1", name: "device_status", arguments: "{}" }, { type: "response.done" }],
    [{ type: "response.output_audio.delta", delta: encodeBase64(pcmBytes(sineTone(300, 100, 24000, 4000))) }, { type: "response.done" }],
  ];
  const webSocket: WebSocketClient = {
    open(url, h, options) {
      handlers = h;
      out.push(`rt connect ${url} ${options.headers?.authorization}`);
      void Promise.resolve().then(() => h.onOpen());
      return {
        send(text) {
          const e = JSON.parse(text);
          if (e.type === "input_audio_buffer.append") appended += (decodeBase64(e.audio)?.length ?? 0) / 2;
          else sent.push(e);
          if (e.type === "response.create") {
            const script = responses.shift() ?? [];
            void (async () => {
              for (const step of script) {
                await null;
                handlers!.onText(JSON.stringify(step));
              }
            })();
          }
        },
        close() {},
      };
    },
  };
  const recorder = recordingSpeaker();
  const phases: string[] = [];
  const source: AudioIn = samplesSource(syntheticSpeech(4, 300, 800, 0).samples, () => voice.release());
  const voice: RealtimeVoice = new RealtimeVoice({
    webSocket,
    mic: { sampleRate: 16000, start: (cb) => source.start(cb), stop: () => source.stop() },
    speaker: recorder,
    registry: {
      toolSpecsFor: () => [{ name: "device.status", description: "Read the device state.", inputSchema: { type: "object" } }],
      all: () => [],
      dispatch: async (name) => ({ text: `ran ${name}` }),
    },
    principal: () => makePrincipal("owner", "admin", "turn"),
    apiKey: () => "sk-xs",
    baseUrl: () => "http://stand-in/v1",
    voice: () => "alloy",
    onPhase: (e) => phases.push(e.phase),
  });
  const r = await voice.press()!;
  out.push(`rt ${r.ended} calls=${r.toolCalls.join(",")} spoken=${r.spoken} appended=${appended} captured=${r.capturedMs}`);
  out.push(`rt sent ${sent.map((e) => e.type).join(",")}`);
  out.push(`rt tools ${JSON.stringify((sent[0].session as { tools: unknown }).tools)}`);
  out.push(`rt output ${JSON.stringify(sent[3])}`);
  out.push(`rt played ${recorder.take().length} phases=${phases.join(",")}`);
  return out;
}
