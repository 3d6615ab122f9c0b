// The AudioIn port over the SDK's `embedded:io/audio/in` (I2S). The SDK's
// esp32 driver reads 16-bit slots; an INMP441 puts 24 bits in 32-bit slots,
// so a driver configured for 32-bit slots reports bitsPerSample 32 and its
// words are cut to 16-bit samples here (slots32ToSamples). Other rates are
// resampled to 16 kHz per block. What a board has verified: see docs/voice.md.
import type AudioInDriver from "embedded:io/audio/in";
import Modules from "modules";
import type { AudioIn, Log } from "../../../lib/ports";
import { MIC_SAMPLE_RATE, resample, slots32ToSamples } from "../../../lib/voice/pcm";

type AudioInClass = typeof AudioInDriver;

/** The microphone, or undefined when the build has no audio input module. */
export function i2sAudioIn(log: Log): AudioIn | undefined {
  if (!Modules.has("embedded:io/audio/in")) return undefined;
  const Driver = Modules.importNow("embedded:io/audio/in") as AudioInClass;
  let input: AudioInDriver | undefined;
  let deliver: ((samples: Int16Array) => void) | undefined;
  return {
    sampleRate: MIC_SAMPLE_RATE,
    start(onSamples) {
      if (deliver) throw new Error("The microphone is already capturing.");
      deliver = onSamples;
      if (!input) {
        try {
          input = new Driver({
            sampleRate: MIC_SAMPLE_RATE,
            channels: 1,
            onReadable(byteLength) {
              const bytes = this.bitsPerSample === 32 ? byteLength & ~3 : byteLength & ~1;
              if (!deliver || bytes === 0) return;
              const buffer = new ArrayBuffer(bytes);
              this.read(buffer);
              const samples = this.bitsPerSample === 32 ? slots32ToSamples(new Int32Array(buffer)) : new Int16Array(buffer);
              deliver(this.sampleRate === MIC_SAMPLE_RATE ? samples : resample(samples, this.sampleRate, MIC_SAMPLE_RATE));
            },
          });
        } catch (e) {
          deliver = undefined;
          log.warn(`microphone: the driver did not start (${e instanceof Error ? e.message : "error"})`);
          throw new Error("The microphone did not start.");
        }
      }
      input.start();
    },
    stop() {
      deliver = undefined;
      input?.stop();
    },
  };
}
