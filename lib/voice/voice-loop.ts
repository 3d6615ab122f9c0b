// The device's spoken conversation: press to talk (capture, speech to text, a
// turn, the reply spoken) and, with the owner's voiceMode realtime, the
// Realtime API. Built after the turn it runs; its phases are what the ring and
// the web page's preview follow.
import type { ConfigStore } from "../device/config";
import type { Ports } from "../ports";
import type { Principal } from "../registry/principal";
import type { ToolRegistry } from "../registry/registry";
import { VoicePipeline, type PhaseEvent, type VoiceExchange, type VoicePhase } from "./pipeline";
import { RealtimeVoice } from "./realtime";
import type { Speech } from "./speech-service";

/** The channel a spoken turn is shown as. */
export const VOICE_CHANNEL = "voice";

/** What voice needs of the orchestrator turn: a spoken request run as a turn, its reply's text back. */
export interface TurnRunner {
  runTurn(principal: Principal, request: { text: string; channel: string }): Promise<{ reply: string }>;
}

export interface VoiceLoopDeps {
  ports: Pick<Ports, "audioIn" | "audioOut" | "webSocket">;
  config: ConfigStore;
  speech: Speech;
  turns: TurnRunner;
  /** Whose turn a spoken request on the device is. */
  principal(): Principal;
  getSecret(name: "openai"): string | undefined;
  baseUrls: { [service: string]: string | undefined };
  /** The realtime mode's functions are this registry's tools. */
  registry: Pick<ToolRegistry, "toolSpecsFor" | "dispatch" | "all">;
}

export class VoiceLoop {
  /** Present when the device has a microphone and a speaker. */
  readonly pipeline: VoicePipeline | undefined;
  /** Present when the host also has a WebSocket client (the webSocket port). */
  readonly realtime: RealtimeVoice | undefined;
  private readonly listeners: Array<(e: PhaseEvent) => void> = [];

  constructor(private readonly deps: VoiceLoopDeps) {
    const { ports, config, speech } = deps;
    const out = ports.audioOut;
    this.pipeline =
      ports.audioIn && out
        ? new VoicePipeline({
            mic: ports.audioIn,
            transcriber: speech.transcriber,
            speech: speech.speechOn(out),
            runTurn: async (text) => (await deps.turns.runTurn(deps.principal(), { text, channel: VOICE_CHANNEL })).reply,
            speakWith: () => speech.speakWith(out),
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
            principal: () => deps.principal(),
            apiKey: () => deps.getSecret("openai"),
            baseUrl: () => deps.baseUrls.openai,
            voice: () => config.string("ttsVoice"),
            onPhase: (e) => this.emit(e),
          })
        : undefined;
  }

  /** Phase events of the device's pipeline (the ring subscribes); returns the unsubscribe. */
  subscribe(listener: (e: PhaseEvent) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** The phase of the mode in use (the owner's voiceMode): idle when the device has no microphone. */
  phase(): VoicePhase {
    const realtime = this.deps.config.string("voiceMode") === "realtime";
    return (realtime ? this.realtime?.phase : this.pipeline?.phase) ?? "idle";
  }

  /** Whether the device can listen at all (a microphone and a speaker). */
  available(): boolean {
    return this.pipeline !== undefined;
  }

  /** Whether the owner muted the microphone (the button's double press; the micMute knob). */
  muted(): boolean {
    return this.deps.config.bool("micMute");
  }

  /** Ends a capture in progress without sending it (muting mid-capture). */
  cancel(): void {
    this.pipeline?.cancel();
    this.realtime?.release();
  }

  /** Whether a spoken request holds the microphone now (audio.transcribe must not open it then). */
  capturing(): boolean {
    const phase = this.pipeline?.phase ?? "idle";
    return phase === "listening" || phase === "thinking";
  }

  /**
   * The button went down: listen (or barge in), through the pipeline or, with
   * the owner's voiceMode realtime, the Realtime API. Undefined when the device
   * has no microphone, is busy or is muted.
   */
  press(): Promise<VoiceExchange> | undefined {
    if (this.muted()) return undefined;
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

  private emit(e: PhaseEvent): void {
    for (const l of this.listeners.slice()) l(e);
  }
}
