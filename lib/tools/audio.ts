// audio.transcribe: a recording from the file store, or N seconds from the
// device's microphone, as text. Any approved caller may transcribe a recording
// they can see; only an admin may open the microphone, never in an unattended
// turn, and never while the voice pipeline is using it.
import { HaloError } from "../errors";
import type { AudioIn, Storage } from "../ports";
import { defineTool } from "../registry/define";
import { assertMayCall } from "../registry/policy";
import type { Principal } from "../registry/principal";
import type { ToolResult } from "../registry/types";
import { AUDIO_EXTENSIONS, extensionOf, mimeOf } from "../store/artifact-names";
import type { ArtifactStore } from "../store/artifact-store";
import { transcribeFromMic, TRANSCRIBE_MAX_SECONDS } from "../voice/mic-capture";
import type { Speech } from "../voice/speech-service";
import type { VoiceLoop } from "../voice/voice-loop";
import { NAME_ARG, PROJECT_ARG } from "./files";

/** The largest recording sent whole to speech-to-text (it is read into RAM first). */
export const TRANSCRIBE_FILE_MAX_BYTES = 4 * 1024 * 1024;

/** Opening the microphone: admins only, and not in a scheduled turn. */
const MIC_MARKS = { name: "audio.transcribe (microphone)", adminOnly: true, refuseScheduled: true };

/** What audio.transcribe uses: speech to text, the microphone (and whether a spoken request holds it), the file store. */
export interface AudioToolDeps {
  speech: Pick<Speech, "transcriber">;
  voice: Pick<VoiceLoop, "capturing" | "muted">;
  audioIn: AudioIn | undefined;
  artifacts: ArtifactStore;
  /** Undefined on a device without a card slot: no recordings then. */
  storage: Storage | undefined;
}

export const audioTranscribe = defineTool({
  name: "audio.transcribe",
  needs: ["speech", "voice", "audioIn", "artifacts", "storage"],
  description:
    "Transcribe a stored recording (project + name: .wav .mp3 .m4a .ogg .webm), or listen to the device microphone for N seconds (seconds; admins only).",
  effect: "read",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: {
      seconds: { type: "integer", minimum: 1, maximum: TRANSCRIBE_MAX_SECONDS, description: "microphone: how long to listen" },
      project: PROJECT_ARG,
      name: NAME_ARG,
    },
    additionalProperties: false,
  },
  handler: async (args, ctx, deps: AudioToolDeps): Promise<ToolResult> => {
    const file = args.project !== undefined || args.name !== undefined;
    if (file === (args.seconds !== undefined)) {
      throw new HaloError("invalid-arguments", "give either project and name (a stored recording) or seconds (the microphone).");
    }
    if (file) {
      if (args.project === undefined || args.name === undefined)
        throw new HaloError("invalid-arguments", "a recording needs both project and name.");
      return transcribeStored(deps, ctx.principal, args.project, args.name);
    }
    return transcribeMic(deps, ctx.principal, args.seconds ?? 0);
  },
});

/** audio.transcribe. */
export const AUDIO_TOOLS = [audioTranscribe] as const;

async function transcribeStored(deps: AudioToolDeps, p: Principal, project: string, name: string): Promise<ToolResult> {
  if (!deps.storage) throw new HaloError("no-card", "this device has no file store.");
  if (AUDIO_EXTENSIONS.indexOf(extensionOf(name)) < 0) {
    throw new HaloError("invalid", `recordings end in ${AUDIO_EXTENSIONS.map((e) => `.${e}`).join(" ")}.`);
  }
  const record = deps.artifacts.stat(p, project, name);
  if (record.size > TRANSCRIBE_FILE_MAX_BYTES) {
    throw new HaloError(
      "too-large",
      `${record.project}/${record.name} is over ${TRANSCRIBE_FILE_MAX_BYTES / (1024 * 1024)} MB, the most transcribed at once.`,
    );
  }
  const { bytes } = deps.artifacts.readBytes(p, project, name);
  const text = await transcribe(() => deps.speech.transcriber.transcribeFile(bytes, mimeOf(name), record.name));
  return { text: text ? `Transcript of ${record.project}/${record.name}: ${text}` : `No speech in ${record.project}/${record.name}.` };
}

async function transcribeMic(deps: AudioToolDeps, p: Principal, seconds: number): Promise<ToolResult> {
  // The registry lists the tool for everyone (recordings); the microphone is re-checked here.
  assertMayCall(MIC_MARKS, p);
  const mic = deps.audioIn;
  if (!mic) throw new HaloError("not-present", "this device has no microphone.");
  if (deps.voice.muted()) throw new HaloError("policy-off", "the microphone is muted (a double press of the button unmutes it).");
  if (deps.voice.capturing()) throw new HaloError("busy", "the microphone is in use by a spoken request.");
  const text = await transcribe(() => transcribeFromMic(mic, deps.speech.transcriber, seconds));
  return { text: text ? `Heard (${seconds} s): ${text}` : `Heard nothing in ${seconds} s.` };
}

async function transcribe(run: () => Promise<string>): Promise<string> {
  try {
    return await run();
  } catch (e) {
    throw new HaloError("failed", `the transcription did not complete (${e instanceof Error ? e.message.replace(/\.$/, "") : "error"}).`);
  }
}
