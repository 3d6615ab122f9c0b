// Builds voice from the ports: speech-to-text, spoken replies on the speaker,
// and, when the device has a microphone and a speaker, the press-to-talk
// pipeline. The turn is bound later (the turn engine is built after the
// device actuator, which speaks through here).
import type { ConfigStore } from "../device/config";
import type { AudioOut, Ports } from "../ports";
import type { Principal } from "../registry/principal";
import type { ToolRegistry } from "../registry/registry";
import { bufferedAudioHttp, type AudioHttp } from "./audio-http";
import { VoicePipeline, type PhaseEvent, type VoiceExchange } from "./pipeline";
import { RealtimeVoice } from "./realtime";
import { SpeechPlayer } from "./speech";
import { Transcriber, type SttProvider } from "./transcribe";

/** The channel a spoken turn is shown as. */
export const VOICE_CHANNEL = "voice";

/** What voice needs of the orchestrator turn: a spoken request run as a turn, its reply's text back. */
export interface TurnRunner {
  runTurn(principal: Principal, request: { text: string; channel: string }): Promise<{ reply: string }>;
}

/** The ports voice is built from. */
export type VoicePorts = Pick<Ports, "http" | "random" | "clock" | "audioIn" | "audioOut" | "webSocket">;

export interface VoiceBuildDeps {
  ports: VoicePorts;
  config: ConfigStore;
  getSecret(name: "openai" | "mistral"): string | undefined;
  baseUrls?: { [service: string]: string | undefined };
  /** Streaming HTTP for audio; default: whole bodies over ports.http. */
  audioHttp?: AudioHttp;
  /** The realtime mode's functions are this registry's tools. */
  registry: Pick<ToolRegistry, "toolSpecsFor" | "dispatch" | "all">;
}

export class VoiceSubsystem {
  readonly transcriber: Transcriber;
  readonly http: AudioHttp;
  /** Present when the device has a microphone and a speaker. */
  readonly pipeline: VoicePipeline | undefined;
  /** Present when the host also has a WebSocket client (the webSocket port). */
  readonly realtime: RealtimeVoice | undefined;
  private readonly listeners: Array<(e: PhaseEvent) => void> = [];
  private turn: { engine: TurnRunner; principal(): Principal } | undefined;

  constructor(private readonly deps: VoiceBuildDeps) {
    const { ports, config } = deps;
    this.http = deps.audioHttp ?? bufferedAudioHttp(ports.http);
    this.transcriber = new Transcriber(this.http, ports.random, ports.clock, {
      provider: () => config.string("sttProv") as SttProvider,
      apiKey: (p) => deps.getSecret(p),
      baseUrl: (p) => deps.baseUrls?.[p],
    });
    const out = ports.audioOut;
    this.pipeline =
      ports.audioIn && out
        ? new VoicePipeline({
            mic: ports.audioIn,
            transcriber: this.transcriber,
            speech: this.speechOn(out),
            runTurn: (text) => this.runTurn(text),
            speakWith: () => this.speakWith(out),
            onPhase: (e) => this.emit(e),
          })
        : undefined;
    this.realtime =
      ports.audioIn && out && ports.webSocket
        ? new RealtimeVoice({
            webSocket: ports.webSocket,
            mic: ports.audioIn,
            speaker: out,
            registry: deps.registry,
            principal: () => {
              if (!this.turn) throw new Error("The voice principal is not bound yet.");
              return this.turn.principal();
            },
            apiKey: () => deps.getSecret("openai"),
            baseUrl: () => deps.baseUrls?.openai,
            voice: () => config.string("ttsVoice"),
            onPhase: (e) => this.emit(e),
          })
        : undefined;
  }

  /** A player of spoken replies on `out` (the device speaker, or a recorder). */
  speechOn(out: AudioOut): SpeechPlayer {
    const { ports, config } = this.deps;
    return new SpeechPlayer(this.http, ports.clock, out, {
      provider: () => config.string("ttsProv"),
      apiKey: () => this.deps.getSecret("openai"),
      baseUrl: () => this.deps.baseUrls?.openai,
    });
  }

  /** What device[] tts and reply.speak call: the text spoken on `out`, resolving once it played. */
  speakOnSpeaker(out: AudioOut): (text: string, voice: string) => Promise<unknown> {
    const player = this.speechOn(out);
    return (text, voice) => player.play(text, voice).done;
  }

  /** The voice to speak with on `out`, or why spoken replies are off (the rails device[] tts has). */
  speakWith(out: AudioOut): { voice: string } | { refusal: string } {
    const { config } = this.deps;
    if (config.string("profile") === "silent") return { refusal: "silent: the device is on silent (profile silent)." };
    if (!config.bool("ttsOn")) return { refusal: "off: spoken replies are off (ttsOn is false)." };
    if (config.number("sfxVol") === 0 || out.volume() === 0) return { refusal: "off: the speaker volume is 0." };
    return { voice: config.string("ttsVoice") };
  }

  /** The voice spoken replies use (the ttsVoice knob). */
  voiceName(): string {
    return this.deps.config.string("ttsVoice");
  }

  /** Binds the turn engine and whose turn a spoken request on the device is. */
  bindTurn(engine: TurnRunner, principal: () => Principal): void {
    this.turn = { engine, principal };
  }

  /** Phase events of the device's pipeline (the ring subscribes); returns the unsubscribe. */
  subscribe(listener: (e: PhaseEvent) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /**
   * The button went down: listen (or barge in), through the pipeline or, with
   * the owner's voiceMode realtime, the Realtime API. Undefined when the device
   * has no microphone or is busy.
   */
  press(): Promise<VoiceExchange> | undefined {
    if (this.deps.config.string("voiceMode") !== "realtime") return this.pipeline?.press();
    if (!this.pipeline) return undefined;
    if (!this.realtime) {
      const error = "Realtime speech is not available on this host (it has no WebSocket client); set voiceMode to pipeline.";
      this.emit({ phase: "error", detail: error });
      return Promise.resolve({ transcript: "", reply: "", ended: "released", capturedMs: 0, spoken: "not-spoken", error });
    }
    const running = this.realtime.press();
    return running?.then((r) => ({ ...r, transcript: "" }));
  }

  release(): void {
    this.pipeline?.release();
    this.realtime?.release();
  }

  private async runTurn(text: string): Promise<string> {
    if (!this.turn) throw new Error("The turn engine is not ready yet.");
    const result = await this.turn.engine.runTurn(this.turn.principal(), { text, channel: VOICE_CHANNEL });
    return result.reply;
  }

  private emit(e: PhaseEvent): void {
    for (const l of this.listeners.slice()) l(e);
  }
}
