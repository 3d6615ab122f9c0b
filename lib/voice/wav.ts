// WAV (RIFF, PCM) in and out. Uploads are parsed strictly: a malformed or
// unsupported file is refused with one sentence, never guessed at. Only the
// header is walked in JS; samples are copied with typed-array views.
import { HaloError } from "../errors";

/** 16-bit mono samples at a rate. */
export interface Pcm {
  sampleRate: number;
  samples: Int16Array;
}

export const WAV_HEADER_BYTES = 44;
/** Rates an upload may have; the pipeline resamples to the microphone's rate. */
export const WAV_MIN_RATE = 8000;
export const WAV_MAX_RATE = 48000;
/** The media types a WAV upload may name. */
export const WAV_MEDIA_TYPES: readonly string[] = ["audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave"];
/** The data size a streamed WAV declares when its length is not known yet. */
export const WAV_STREAMING_SIZE = 0xffffffff;
const FORMAT_PCM = 1;
const FORMAT_EXTENSIBLE = 0xfffe;
/** Chunks walked before giving up on finding `data`. */
const MAX_CHUNKS = 16;

/** The 44-byte header of a 16-bit mono PCM file; `dataBytes` WAV_STREAMING_SIZE when unknown. */
export function wavHeader(sampleRate: number, dataBytes: number): Uint8Array {
  const h = new Uint8Array(WAV_HEADER_BYTES);
  const v = new DataView(h.buffer);
  const ascii = (at: number, s: string): void => {
    for (let i = 0; i < s.length; i++) h[at + i] = s.charCodeAt(i);
  };
  ascii(0, "RIFF");
  v.setUint32(4, dataBytes === WAV_STREAMING_SIZE ? WAV_STREAMING_SIZE : 36 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, FORMAT_PCM, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  ascii(36, "data");
  v.setUint32(40, dataBytes, true);
  return h;
}

/** A whole 16-bit mono WAV file. */
export function encodeWav(pcm: Pcm): Uint8Array {
  const data = pcmBytes(pcm.samples);
  const out = new Uint8Array(WAV_HEADER_BYTES + data.length);
  out.set(wavHeader(pcm.sampleRate, data.length), 0);
  out.set(data, WAV_HEADER_BYTES);
  return out;
}

/** Parses a PCM WAV (16-bit, mono or stereo; stereo is mixed down). Throws HaloError("invalid") with the reason. */
export function decodeWav(bytes: Uint8Array): Pcm {
  const bad = (why: string): HaloError => new HaloError("invalid", `The audio is not a usable WAV file: ${why}.`);
  if (bytes.length < 12 || tag(bytes, 0) !== "RIFF" || tag(bytes, 8) !== "WAVE") throw bad("no RIFF/WAVE header");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 12;
  let fmt: { channels: number; rate: number; bits: number } | undefined;
  for (let n = 0; n < MAX_CHUNKS && at + 8 <= bytes.length; n++) {
    const id = tag(bytes, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt ") {
      if (size < 16 || body + 16 > bytes.length) throw bad("the fmt chunk is short");
      const format = view.getUint16(body, true);
      if (format !== FORMAT_PCM && format !== FORMAT_EXTENSIBLE) throw bad("only PCM is accepted");
      fmt = { channels: view.getUint16(body + 2, true), rate: view.getUint32(body + 4, true), bits: view.getUint16(body + 14, true) };
      if (fmt.bits !== 16) throw bad("only 16-bit samples are accepted");
      if (fmt.channels !== 1 && fmt.channels !== 2) throw bad("only mono or stereo is accepted");
      if (fmt.rate < WAV_MIN_RATE || fmt.rate > WAV_MAX_RATE) throw bad(`the rate must be ${WAV_MIN_RATE}-${WAV_MAX_RATE} Hz`);
    } else if (id === "data") {
      if (!fmt) throw bad("data comes before fmt");
      // A streamed file declares an unknown size: take what is there.
      const end = size === WAV_STREAMING_SIZE || body + size > bytes.length ? bytes.length : body + size;
      const frame = 2 * fmt.channels;
      const frames = Math.floor((end - body) / frame);
      if (frames === 0) throw bad("it holds no samples");
      return { sampleRate: fmt.rate, samples: readSamples(bytes, body, frames, fmt.channels) };
    }
    if (size > bytes.length) throw bad("a chunk runs past the end");
    at = body + size + (size & 1);
  }
  throw bad("no data chunk");
}

/** Little-endian bytes of samples (a copy). */
export function pcmBytes(samples: Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length * 2);
  new Int16Array(out.buffer).set(samples);
  return out;
}

/** Samples from little-endian bytes; an odd trailing byte is left to the caller. */
export function bytesToSamples(bytes: Uint8Array, start: number, count: number): Int16Array {
  const copy = bytes.slice(start, start + count * 2);
  return new Int16Array(copy.buffer, 0, count);
}

function readSamples(bytes: Uint8Array, at: number, frames: number, channels: number): Int16Array {
  const raw = bytesToSamples(bytes, at, frames * channels);
  if (channels === 1) return raw;
  const mono = new Int16Array(frames);
  for (let i = 0; i < frames; i++) mono[i] = (raw[2 * i] + raw[2 * i + 1]) >> 1;
  return mono;
}

function tag(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}
