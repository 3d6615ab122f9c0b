import { toJson } from "../util/json";
// Realtime speech-to-speech over OpenAI's Realtime API (WebSocket), half
// duplex like the Moddable SDK's ChatAudioIO example: the capture streams up
// as input_audio_buffer.append (24 kHz PCM, base64) until release, end of
// speech or the cap; then commit and response.create; the model's audio comes
// down as deltas and plays while it arrives. Its functions are the caller's
// registry tools (toolSpecsFor), and its calls go through registry.dispatch as
// that principal: the same tools, the same rails as a turn.
import type { AudioIn, AudioOut } from "../ports";
import type { Principal } from "../registry/principal";
import type { ToolRegistry } from "../registry/registry";
import { toolNames } from "../providers/wire";
import { DEFAULT_BASE_URLS } from "../providers/types";
import { decodeBase64 } from "../util/base64";
import { clipForMessage } from "../util/text";
import { encodeBase64 } from "./base64-encode";
import { EndOfSpeechDetector } from "./endpoint";
import { resample } from "./pcm";
import { MAX_CAPTURE_MS, type CaptureEnd, type PhaseEvent, type VoicePhase } from "./pipeline";
import type { WebSocketClient } from "../ports";
import { connectRealtime, type RealtimeSocket } from "./realtime-socket";
import { bytesToSamples, pcmBytes } from "./wav";

export const REALTIME_MODEL = "gpt-realtime";
export const REALTIME_RATE = 24000;
/** Function-call rounds one exchange may run before it is ended. */
export const REALTIME_MAX_TOOL_ROUNDS = 4;
/** Events waiting to be read; a server flooding past this ends the exchange. */
const EVENT_QUEUE_MAX = 512;
const INSTRUCTIONS = "You are Halo, a desk assistant. Answer briefly, in speech. Use the functions when they help.";

export interface RealtimeDeps {
  webSocket: WebSocketClient;
  mic: AudioIn;
  speaker: AudioOut;
  registry: Pick<ToolRegistry, "toolSpecsFor" | "dispatch" | "all">;
  /** Whose exchange this is (via "turn"). */
  principal(): Principal;
  apiKey(): string | undefined;
  baseUrl(): string | undefined;
  voice(): string;
  onPhase(e: PhaseEvent): void;
}

export interface RealtimeExchange {
  ended: CaptureEnd;
  capturedMs: number;
  /** What the model said (its audio transcript). */
  reply: string;
  /** Registry names of the tools it called, in order. */
  toolCalls: string[];
  spoken: "played" | "stopped" | "not-spoken";
  error?: string;
}

interface ServerEvent {
  type?: string;
  [key: string]: unknown;
}

export class RealtimeVoice {
  private current: VoicePhase = "idle";
  private stopCapture: ((end: CaptureEnd) => void) | undefined;
  private cancel: (() => void) | undefined;

  constructor(private readonly deps: RealtimeDeps) {}

  get phase(): VoicePhase {
    return this.current;
  }

  /** Listens (barging in on a reply that is playing); ignored while listening or thinking. */
  press(): Promise<RealtimeExchange> | undefined {
    if (this.current === "listening" || this.current === "thinking") return undefined;
    this.cancel?.();
    return this.exchange();
  }

  release(): void {
    this.stopCapture?.("released");
  }

  private setPhase(phase: VoicePhase, detail?: string): void {
    this.current = phase;
    this.deps.onPhase(detail === undefined ? { phase } : { phase, detail });
  }

  private async exchange(): Promise<RealtimeExchange> {
    const { deps } = this;
    const out: RealtimeExchange = { ended: "released", capturedMs: 0, reply: "", toolCalls: [], spoken: "not-spoken" };
    let socket: RealtimeSocket | undefined;
    let stopped = false;
    const events = new EventQueue();
    this.setPhase("listening");
    try {
      const key = deps.apiKey();
      if (!key) throw new Error("No OpenAI key is set for realtime speech; the owner sets it through the owner API.");
      const base = (deps.baseUrl() || DEFAULT_BASE_URLS.openai).replace(/\/+$/, "").replace(/^http/, "ws");
      socket = await connectRealtime(
        deps.webSocket,
        `${base}/realtime?model=${REALTIME_MODEL}`,
        { authorization: `Bearer ${key}` },
        events,
      );
      const open = socket;
      this.cancel = () => {
        stopped = true;
        deps.speaker.stop();
        events.onClose("stopped");
        open.close();
      };
      const principal: Principal = { ...deps.principal(), via: "turn" };
      const specs = deps.registry.toolSpecsFor(principal);
      // Names map over every tool, so a call to one not offered still reaches dispatch and its refusal.
      const names = toolNames({ tools: [...specs, ...deps.registry.all()], messages: [] });
      const tools = specs.map((t) => ({
        type: "function",
        name: names.toWire(t.name),
        description: t.description,
        parameters: t.inputSchema,
      }));
      const pcm = { type: "audio/pcm", rate: REALTIME_RATE };
      const session = {
        type: "realtime",
        instructions: INSTRUCTIONS,
        audio: { input: { format: pcm, turn_detection: null }, output: { format: pcm, voice: deps.voice() } },
        tools,
      };
      open.send(toJson({ type: "session.update", session }));
      out.ended = await this.capture(open, out);
      if (out.ended === "no-speech") {
        this.setPhase("idle");
        return out;
      }
      open.send(toJson({ type: "input_audio_buffer.commit" }));
      open.send(toJson({ type: "response.create" }));
      this.setPhase("thinking");
      for (let round = 0; ; round++) {
        const calls = await this.response(events, out, key);
        if (!calls.length) break;
        if (round >= REALTIME_MAX_TOOL_ROUNDS)
          throw new Error(`The model asked for more than ${REALTIME_MAX_TOOL_ROUNDS} rounds of function calls.`);
        for (const call of calls) {
          const name = names.fromWire(call.name);
          out.toolCalls.push(name);
          let output: string;
          try {
            output = (await deps.registry.dispatch(name, parseArguments(call.arguments), principal)).text;
          } catch (e) {
            output = e instanceof Error ? e.message : "The function failed.";
          }
          const item = { type: "function_call_output", call_id: call.callId, output };
          open.send(toJson({ type: "conversation.item.create", item }));
        }
        open.send(toJson({ type: "response.create" }));
      }
      await deps.speaker.drain();
      out.spoken = stopped ? "stopped" : this.current === "replying" ? "played" : "not-spoken";
      if (!stopped) this.setPhase("idle");
    } catch (e) {
      if (stopped) out.spoken = "stopped";
      else {
        out.error = e instanceof Error ? clipForMessage(e.message, 200) : "The realtime exchange failed.";
        deps.mic.stop();
        deps.speaker.stop();
        this.setPhase("error", out.error);
      }
    } finally {
      this.stopCapture = undefined;
      if (!stopped) this.cancel = undefined;
      socket?.close();
    }
    return out;
  }

  /** Streams the microphone up as appends until the capture ends. */
  private capture(socket: RealtimeSocket, out: RealtimeExchange): Promise<CaptureEnd> {
    const { mic } = this.deps;
    const rate = mic.sampleRate;
    const cap = (MAX_CAPTURE_MS * rate) / 1000;
    const detector = new EndOfSpeechDetector(rate);
    let captured = 0;
    return new Promise<CaptureEnd>((resolve) => {
      let ended = false;
      const stop = (end: CaptureEnd): void => {
        if (ended) return;
        ended = true;
        mic.stop();
        this.stopCapture = undefined;
        out.capturedMs = (captured * 1000) / rate;
        resolve(end);
      };
      this.stopCapture = stop;
      mic.start((block) => {
        if (ended) return;
        const take = block.length > cap - captured ? block.subarray(0, cap - captured) : block;
        captured += take.length;
        const audio = encodeBase64(pcmBytes(resample(take, rate, REALTIME_RATE)));
        socket.send(toJson({ type: "input_audio_buffer.append", audio }));
        const verdict = detector.push(take);
        if (verdict) stop(verdict);
        else if (captured >= cap) stop("cap");
      });
    });
  }

  /** Reads one response: plays its audio, keeps its transcript, returns its function calls. */
  private async response(
    events: EventQueue,
    out: RealtimeExchange,
    key: string,
  ): Promise<Array<{ callId: string; name: string; arguments: string }>> {
    const calls: Array<{ callId: string; name: string; arguments: string }> = [];
    for (;;) {
      const e = await events.next();
      switch (e.type) {
        case "response.output_audio.delta":
        case "response.audio.delta": {
          const bytes = typeof e.delta === "string" ? decodeBase64(e.delta) : undefined;
          if (!bytes || bytes.length & 1) throw new Error("The realtime audio delta is not 16-bit PCM in base64.");
          if (this.current !== "replying") this.setPhase("replying");
          this.deps.speaker.write(bytesToSamples(bytes, 0, bytes.length >> 1), REALTIME_RATE);
          break;
        }
        case "response.output_audio_transcript.done":
        case "response.audio_transcript.done":
          if (typeof e.transcript === "string") out.reply += (out.reply ? " " : "") + e.transcript;
          break;
        case "response.function_call_arguments.done":
          if (typeof e.call_id === "string" && typeof e.name === "string")
            calls.push({ callId: e.call_id, name: e.name, arguments: typeof e.arguments === "string" ? e.arguments : "{}" });
          break;
        case "response.done":
          return calls;
        case "error": {
          const detail = (e.error as { message?: unknown } | undefined)?.message;
          // The service's own words, never the key even if it echoes it.
          const said = typeof detail === "string" ? clipForMessage(detail.split(key).join("[key]"), 120) : "an error event";
          throw new Error(`OpenAI Realtime refused: ${said}.`);
        }
      }
    }
  }
}

/** Server events in order; next() rejects once the connection closed and nothing is left. */
class EventQueue {
  private readonly items: ServerEvent[] = [];
  private closed: string | undefined;
  private wake: (() => void) | undefined;

  onMessage(text: string): void {
    if (this.closed !== undefined) return;
    if (this.items.length >= EVENT_QUEUE_MAX) {
      this.onClose("the server sent events faster than they were read");
      return;
    }
    let event: ServerEvent;
    try {
      const parsed: unknown = JSON.parse(text);
      event = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as ServerEvent) : { type: "malformed" };
    } catch {
      event = { type: "malformed" };
    }
    this.items.push(event);
    this.wake?.();
  }

  onClose(reason: string): void {
    if (this.closed === undefined) this.closed = reason;
    this.wake?.();
  }

  async next(): Promise<ServerEvent> {
    for (;;) {
      const e = this.items.shift();
      if (e) return e;
      if (this.closed !== undefined) throw new Error(`The realtime connection closed (${this.closed}).`);
      await new Promise<void>((ok) => (this.wake = ok));
      this.wake = undefined;
    }
  }
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
