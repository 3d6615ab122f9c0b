// Speech to text and text to speech for the whole device: the transcriber, and
// players of spoken replies on a speaker. Built early (device[] tts speaks
// through it); the press-to-talk loop (voice-loop.ts) is built on it later.
import type { ConfigStore } from "../device/config";
import type { AudioHttp, AudioOut, Ports } from "../ports";
import { SpeechPlayer } from "./speech";
import { Transcriber, type SttProvider } from "./transcribe";

export interface SpeechDeps {
  ports: Pick<Ports, "audioHttp" | "random" | "clock" | "timers">;
  config: ConfigStore;
  getSecret(name: "openai" | "mistral"): string | undefined;
  /** Base URLs by service (`openai`, `mistral`); unset means the public API. */
  baseUrls: { [service: string]: string | undefined };
}

export class Speech {
  readonly transcriber: Transcriber;
  readonly http: AudioHttp;

  constructor(private readonly deps: SpeechDeps) {
    const { ports, config } = deps;
    this.http = ports.audioHttp;
    this.transcriber = new Transcriber(this.http, ports.random, ports.clock, {
      provider: () => config.string("sttProv") as SttProvider,
      apiKey: (p) => deps.getSecret(p),
      baseUrl: (p) => deps.baseUrls[p],
    });
  }

  /** A player of spoken replies on `out` (the device speaker, or a recorder). */
  speechOn(out: AudioOut): SpeechPlayer {
    const { ports, config } = this.deps;
    return new SpeechPlayer(
      this.http,
      ports.clock,
      out,
      {
        provider: () => config.string("ttsProv"),
        apiKey: () => this.deps.getSecret("openai"),
        baseUrl: () => this.deps.baseUrls.openai,
        mistral: { apiKey: () => this.deps.getSecret("mistral"), baseUrl: () => this.deps.baseUrls.mistral },
      },
      ports.timers,
    );
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
}
