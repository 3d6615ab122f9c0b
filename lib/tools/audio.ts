// audio.transcribe: N seconds from the device's microphone, as text. Only an
// admin may open the microphone, never in an unattended turn, and never while
// the voice pipeline is using it.
import { HaloError } from "../errors";
import type { AudioIn } from "../ports";
import { defineTool } from "../registry/define";
import { assertMayCall } from "../registry/policy";
import type { ToolRegistry } from "../registry/registry";
import type { ToolResult } from "../registry/types";
import type { VoiceSubsystem } from "../voice/build";
import { transcribeFromMic, TRANSCRIBE_MAX_SECONDS } from "../voice/mic-capture";

const MARKS = { name: "audio.transcribe", adminOnly: true, refuseScheduled: true };

export function registerAudioTools(registry: ToolRegistry, voice: VoiceSubsystem, mic: AudioIn | undefined): void {
  registry.register(
    defineTool({
      ...MARKS,
      description: "Listen to the device microphone for N seconds and return what was said (admins only).",
      effect: "read",
      openWorld: true,
      inputSchema: {
        type: "object",
        properties: { seconds: { type: "integer", minimum: 1, maximum: TRANSCRIBE_MAX_SECONDS, description: "how long to listen" } },
        required: ["seconds"],
        additionalProperties: false,
      },
      handler: async (args, ctx): Promise<ToolResult> => {
        // The registry checked these marks; the handler checks them again (reached without the registry too).
        assertMayCall(MARKS, ctx.principal);
        if (!mic) throw new HaloError("not-present", "this device has no microphone.");
        const phase = voice.pipeline?.phase ?? "idle";
        if (phase === "listening" || phase === "thinking") throw new HaloError("busy", "the microphone is in use by a spoken request.");
        let text: string;
        try {
          text = await transcribeFromMic(mic, voice.transcriber, args.seconds);
        } catch (e) {
          throw new HaloError(
            "failed",
            `the transcription did not complete (${e instanceof Error ? e.message.replace(/\.$/, "") : "error"}).`,
          );
        }
        return { text: text ? `Heard (${args.seconds} s): ${text}` : `Heard nothing in ${args.seconds} s.` };
      },
    }),
  );
}
