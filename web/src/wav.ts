// Press-to-talk from the browser: the microphone through Web Audio into 16-bit
// mono PCM, packed as a WAV file for POST /api/voice (which resamples it).

export interface Recording {
  stop(): Promise<Blob>;
}

/** The processor's block size (samples); a power of two as ScriptProcessorNode requires. */
const BLOCK = 4096;

/** `processing` (the default) lets the browser cancel echo and suppress noise, as a call would. */
export async function startRecording(options: { processing?: boolean } = {}): Promise<Recording> {
  const processing = options.processing ?? true;
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, echoCancellation: processing, noiseSuppression: processing, autoGainControl: processing },
  });
  const ctx = new AudioContext();
  const source = ctx.createMediaStreamSource(stream);
  const node = ctx.createScriptProcessor(BLOCK, 1, 1);
  const blocks: Float32Array[] = [];
  node.onaudioprocess = (ev) => blocks.push(new Float32Array(ev.inputBuffer.getChannelData(0)));
  source.connect(node);
  node.connect(ctx.destination);
  return {
    async stop(): Promise<Blob> {
      node.disconnect();
      source.disconnect();
      for (const t of stream.getTracks()) t.stop();
      const rate = ctx.sampleRate;
      await ctx.close();
      return encodeWav(blocks, rate);
    },
  };
}

/** What a record button says and does; `onStart` and `onWav` report to the section around it. */
export interface RecordToggle {
  idle: string;
  recording: string;
  processing?: boolean;
  onStart(): void;
  onUnavailable(): void;
  onWav(wav: Blob): Promise<void>;
}

/** Makes `button` a toggle: the first click starts recording, the second stops and hands over the WAV. */
export function recordToggle(button: HTMLElement, t: RecordToggle): void {
  let recording: Recording | undefined;
  const show = (on: boolean): void => {
    button.textContent = on ? t.recording : t.idle;
    button.setAttribute("aria-pressed", String(on));
  };
  button.addEventListener("click", async () => {
    if (!recording) {
      try {
        recording = await startRecording({ processing: t.processing });
      } catch {
        t.onUnavailable();
        return;
      }
      show(true);
      t.onStart();
      return;
    }
    const wav = await recording.stop();
    recording = undefined;
    show(false);
    await t.onWav(wav);
  });
}

/** The sentence a section shows when the browser refuses the microphone. */
export const MIC_UNAVAILABLE = "The microphone is not available (the page needs permission, and https or localhost).";

export function encodeWav(blocks: Float32Array[], rate: number): Blob {
  const count = blocks.reduce((n, b) => n + b.length, 0);
  const buf = new ArrayBuffer(44 + count * 2);
  const v = new DataView(buf);
  const text = (at: number, s: string): void => {
    for (let i = 0; i < s.length; i++) v.setUint8(at + i, s.charCodeAt(i));
  };
  text(0, "RIFF");
  v.setUint32(4, 36 + count * 2, true);
  text(8, "WAVEfmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  text(36, "data");
  v.setUint32(40, count * 2, true);
  let o = 44;
  for (const b of blocks) {
    for (let i = 0; i < b.length; i++, o += 2) v.setInt16(o, Math.max(-1, Math.min(1, b[i])) * 0x7fff, true);
  }
  return new Blob([buf], { type: "audio/wav" });
}
