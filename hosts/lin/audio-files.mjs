// The microphone and speaker of halo-lin as files, for check-voice.mjs. ALSA's `default` device is pointed (an
// `.asoundrc` in a private HOME) at two named pipes through ALSA's `file` plugin: capture reads mic.fifo, playback
// writes speaker.fifo. The plugin's slave is ALSA's `null` device, which has no clock: it takes and gives audio
// as fast as it is asked. The clock is here: the mic pump writes whole capture periods at 16 kHz in real time
// (the SDK's capture thread blocks on the pipe until they come), and the speaker tap reads 24 kHz in real time
// (the SDK's playback thread blocks while the pipe is full). Whole periods matter: the plugin reads once per
// period and fills a short read with silence. Both pipes are made as small as Linux allows (a page, through
// python3 when it is there): the speaker's is a fixed delay of the tap (subtracted from the figures), and a
// microphone whose reader falls behind loses samples (an overrun, counted) instead of queueing seconds.
import { spawnSync, execFileSync } from "node:child_process";
import { appendFileSync, closeSync, constants, openSync, readSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";

export const MIC_RATE = 16000;
export const SPEAKER_RATE = 24000;
/** Bytes the SDK's lin capture driver reads per period: (bytes per frame x rate) >> 5 (modules/io/audioin/lin). */
export const MIC_PERIOD_BYTES = (2 * MIC_RATE) >> 5;
const TICK_MS = 10;
/** The most periods one tick writes: a pump that was held up skips the time it lost instead of bursting. */
const MAX_BURST_PERIODS = 3;
/** Linux fcntl commands (Node has no fcntl; python3 sets them when present). */
const F_SETPIPE_SZ = 1031;
const F_GETPIPE_SZ = 1032;
/** The smallest pipe Linux makes (a page): the tap's queue and the microphone's backlog, as short as they can be. */
const PIPE_BYTES = 4096;
const DEFAULT_PIPE_BYTES = 65536;

/** Writes the `.asoundrc` and makes the two pipes in `home`. */
export function alsaFiles(home) {
  const mic = join(home, "mic.fifo");
  const speaker = join(home, "speaker.fifo");
  execFileSync("mkfifo", [mic, speaker]);
  writeFileSync(
    join(home, ".asoundrc"),
    `# halo check-voice: ALSA's default device is two pipes (hosts/lin/audio-files.mjs)
pcm.!default {
  type asym
  playback.pcm "halo_speaker"
  capture.pcm "halo_mic"
}
pcm.halo_speaker {
  type file
  slave.pcm "null"
  file "${speaker}"
  format "raw"
}
pcm.halo_mic {
  type file
  slave.pcm "null"
  file "/dev/null"
  infile "${mic}"
  format "raw"
}
`,
  );
  return { mic, speaker };
}

/** Opens a pipe without waiting for the other end (read and write), non-blocking, a page long where python3 can set it. */
function openPipe(path) {
  const sizing = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
  const bytes = pipeSize(sizing, PIPE_BYTES);
  // Handing the fd to python3 as its stdin made it blocking for every holder (it is one open file): a second
  // open is non-blocking again, and the pipe, its size with it, lives while either is open.
  const fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
  closeSync(sizing);
  return { fd, bytes: bytes ?? DEFAULT_PIPE_BYTES };
}

/** Sets (when `bytes` is given) and reads a pipe's size through python3; undefined without python3. */
function pipeSize(fd, bytes) {
  const code = `import fcntl; ${bytes ? `fcntl.fcntl(0, ${F_SETPIPE_SZ}, ${bytes}); ` : ""}print(fcntl.fcntl(0, ${F_GETPIPE_SZ}))`;
  const r = spawnSync("python3", ["-c", code], { stdio: [fd, "pipe", "ignore"] });
  const n = Number(String(r.stdout ?? "").trim());
  return r.status === 0 && n > 0 ? n : undefined;
}

/**
 * The microphone: room noise (`filler(n)` gives n samples) in real time, and clips queued with `say(samples)`,
 * which resolves with performance.now() at which the clip's first sample went into the pipe.
 */
export class MicPump {
  constructor(path, filler) {
    this.fd = openPipe(path).fd;
    this.filler = filler;
    this.queue = [];
    this.written = 0;
    this.overruns = 0;
    this.skipped = 0;
    this.start = performance.now();
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  say(samples) {
    return new Promise((started) => this.queue.push({ samples, at: 0, started }));
  }

  /** Whether every queued clip has gone into the pipe. */
  idle() {
    return this.queue.length === 0;
  }

  tick() {
    const due = Math.floor(((performance.now() - this.start) * MIC_RATE * 2) / 1000 / MIC_PERIOD_BYTES);
    // Held up (the event loop was busy): the room's time that passed is not written late all at once, or the app
    // would hear a clip faster than it was spoken.
    if (due - this.written > MAX_BURST_PERIODS) {
      this.skipped += due - this.written - MAX_BURST_PERIODS;
      this.written = due - MAX_BURST_PERIODS;
    }
    while (this.written < due) {
      const period = this.nextPeriod();
      this.written++;
      try {
        writeSync(this.fd, period);
      } catch (e) {
        if (e.code !== "EAGAIN") throw e;
        // The app is not reading (busy, or not started): like a microphone's overrun, the period is lost.
        this.overruns++;
      }
    }
  }

  nextPeriod() {
    const out = new Int16Array(MIC_PERIOD_BYTES / 2);
    let at = 0;
    while (at < out.length && this.queue.length) {
      const clip = this.queue[0];
      if (clip.at === 0) clip.started(performance.now());
      const take = Math.min(out.length - at, clip.samples.length - clip.at);
      out.set(clip.samples.subarray(clip.at, clip.at + take), at);
      at += take;
      clip.at += take;
      if (clip.at >= clip.samples.length) this.queue.shift();
    }
    if (at < out.length) out.set(this.filler(out.length - at), at);
    return Buffer.from(out.buffer);
  }

  close() {
    clearInterval(this.timer);
    closeSync(this.fd);
  }
}

/**
 * The speaker: reads what the app plays in real time into `file` (raw 24 kHz 16-bit mono), keeping each read's
 * sample offset and performance.now() so a sample's playing time can be looked up. `queueMs` is the pipe's own
 * delay: the app keeps it full, so a sample reaches the tap that long after the app wrote it.
 */
export class SpeakerTap {
  constructor(path, file) {
    const pipe = openPipe(path);
    this.fd = pipe.fd;
    this.queueMs = (pipe.bytes / (SPEAKER_RATE * 2)) * 1000;
    this.file = file;
    writeFileSync(file, Buffer.alloc(0));
    this.chunks = [];
    this.reads = [];
    this.samples = 0;
    this.short = 0;
    this.start = performance.now();
    this.odd = undefined;
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  tick() {
    const due = Math.floor(((performance.now() - this.start) * SPEAKER_RATE) / 1000) - this.samples;
    if (due <= 0) return;
    const buffer = Buffer.alloc(due * 2);
    let got = 0;
    try {
      got = readSync(this.fd, buffer, 0, buffer.length, null);
    } catch (e) {
      if (e.code !== "EAGAIN") throw e;
    }
    if (got < buffer.length) this.short++;
    if (got === 0) return;
    const bytes = buffer.subarray(0, got & ~1);
    if (got & 1) throw new Error("odd read from the speaker pipe");
    appendFileSync(this.file, bytes);
    this.chunks.push(bytes);
    this.reads.push({ offset: this.samples, at: performance.now() });
    this.samples += bytes.length >> 1;
  }

  /** Everything played so far. */
  played() {
    const all = Buffer.concat(this.chunks);
    return new Int16Array(all.buffer, all.byteOffset, all.length >> 1);
  }

  /** When sample `index` was read. */
  timeOf(index) {
    let lo = 0;
    let hi = this.reads.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.reads[mid].offset <= index) lo = mid;
      else hi = mid - 1;
    }
    return this.reads[lo]?.at ?? NaN;
  }

  close() {
    clearInterval(this.timer);
    closeSync(this.fd);
  }
}
