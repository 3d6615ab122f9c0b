// The AudioIn port over the SDK's `embedded:io/audio/in`. The reference board
// has a PDM MEMS microphone on I2S port 0 in PDM mode (the manifest's
// audioIn defines; docs/device.md), which the SDK's esp32 driver reads as
// 16-bit samples. The driver is made at boot, before the speaker's: the
// speaker's driver takes the first free I2S controller, and PDM receive
// exists only on controller 0. A driver that reports 32-bit words (another
// build) has them cut to 16 bits (slots32ToSamples); other rates are
// resampled to 16 kHz per block. What a board has verified: docs/device.md.
import type AudioInDriver from "embedded:io/audio/in";
import Modules from "modules";
import type { AudioIn, Log } from "../../../lib/ports";
import { MIC_SAMPLE_RATE, resample, slots32ToSamples } from "../../../lib/voice/pcm";

type AudioInClass = typeof AudioInDriver;

/** The microphone, or undefined when the build has no audio input module. */
export function i2sAudioIn(log: Log): AudioIn | undefined {
  if (!Modules.has("embedded:io/audio/in")) return undefined;
  const Driver = Modules.importNow("embedded:io/audio/in") as AudioInClass;
  let deliver: ((samples: Int16Array) => void) | undefined;
  let input: AudioInDriver;
  try {
    input = new Driver({
      sampleRate: MIC_SAMPLE_RATE,
      channels: 1,
      // Said here, not left to a define: the SDK's lin driver has no default and refuses to start without it.
      bitsPerSample: 16,
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
    log.warn(`microphone: the driver did not start (${e instanceof Error ? e.message : "error"}); no microphone`);
    return undefined;
  }
  return {
    sampleRate: MIC_SAMPLE_RATE,
    start(onSamples) {
      if (deliver) throw new Error("The microphone is already capturing.");
      deliver = onSamples;
      try {
        input.start();
      } catch (e) {
        deliver = undefined;
        log.warn(`microphone: capture did not start (${e instanceof Error ? e.message : "error"})`);
        throw new Error("The microphone did not start.");
      }
    },
    stop() {
      deliver = undefined;
      input.stop();
    },
  };
}
