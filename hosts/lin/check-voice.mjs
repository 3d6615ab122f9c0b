// Issue 23's voice loop (and issue 24's wake phrase) on the SDK's Linux target. Starts halo-lin with a private
// HOME whose `.asoundrc` points ALSA's `default` at files (hosts/lin/audio-files.mjs: the microphone reads a pipe
// this script fills with a quiet room and espeak-ng speech in real time, the speaker writes a pipe it reads into
// speaker.raw in real time), serves the transcription, chat and speech wire formats on 127.0.0.1:8099 (the tests'
// stand-ins, test/support/voice-server.ts), and presses the button with SIGUSR1. Build the app with the stand-in:
//   MODDABLE=... hosts/lin/build.sh openaiBaseUrl=http://127.0.0.1:8099/v1        (-d for the memory figures)
//   flock /tmp/halo-lin.lock node hosts/lin/check-voice.mjs <that mc.so> [--no-wake] [--no-realtime] [--keep]
// Prints one `CHECK <case> ok|FAIL` line a case and the figures `lin-voice-press-to-transcribe-ms`,
// `lin-voice-reply-to-first-audio-ms` and `lin-voice-barge-in-stop-ms` (and, from a debug build's `instruments:`
// rows, `lin-voice-peak-chunk-kb` and `lin-voice-peak-slots`). Exits 1 on a failed case. --keep leaves the
// private HOME (speaker.raw, the pipes) in place and prints where. Last, unless --no-realtime, the same press runs
// in realtime mode against the Realtime stand-in (test/support/realtime-server.ts) over ws:// on that port.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";
import { alsaFiles, MicPump, SpeakerTap, MIC_RATE, SPEAKER_RATE } from "./audio-files.mjs";
import { runHaloLin } from "./run-halo-lin.mjs";

const so = process.argv[2];
if (!so || so.startsWith("--")) {
  console.error(
    "usage: node hosts/lin/check-voice.mjs <mc.so built with openaiBaseUrl=http://127.0.0.1:8099/v1> [--no-wake] [--no-realtime] [--keep]",
  );
  process.exit(64);
}
const withWake = !process.argv.includes("--no-wake");
const withRealtime = !process.argv.includes("--no-realtime");
const keep = process.argv.includes("--keep");
const STANDIN_PORT = 8099;
const BASE = "http://127.0.0.1:8080";
const KEY = "sk-lin-voice-KEY";
/** lin slots are 32 bytes (hosts/lin/boot-figures.mjs). */
const SLOT_BYTES = 32;
/** The room's noise level (RMS) between clips: a quiet room, not digital silence. */
const ROOM_RMS = 60;
/** The aim of issue 23 for reply-to-first-audio. */
const FIRST_AUDIO_AIM_MS = 150;

const support = (path) => tsImport(path, import.meta.url);
const { say, scene } = await support("../../test/support/speech.ts");
const { VoiceServer } = await support("../../test/support/voice-server.ts");
const { RealtimeServer, audioDeltas } = await support("../../test/support/realtime-server.ts");
const { answer, openAiAnswer } = await support("../../test/turn/support.ts");
const { wakeExamples } = await support("../../test/support/wake-set.ts");
const { speak, trim } = await support("../../test/support/wake-speech.ts");
const { mulberry32 } = await support("../../test/support/prng.ts");
const { HANGOVER_MS } = await support("../../lib/voice/endpoint.ts");
const { resample } = await support("../../lib/voice/pcm.ts");
const { encodeWav } = await support("../../lib/voice/wav.ts");

let failures = 0;
function check(name, ok, detail) {
  if (!ok) failures++;
  console.log(`CHECK ${name} ${ok ? "ok" : "FAIL"}${detail ? `: ${detail}` : ""}`);
  return ok;
}
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
/** `promise`, or an error naming `what` after `ms`. */
function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, fail) => (timer = setTimeout(() => fail(new Error(`${what}: nothing within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// Every clip is made before the pumps start: espeak-ng holds the event loop while it speaks.
const clips = {
  calendar: scene(say("what is on my calendar today"), 800, 2500, ROOM_RMS),
  calendarReply: replySpeech("Nothing is on your calendar today."),
  story: scene(say("tell me a long story"), 800, 2500, ROOM_RMS),
  storyReply: replySpeech("Once upon a time there was a small lamp on a desk that liked to talk."),
  wakeTakes: withWake ? wakeExamples("hey halo") : [],
  phrase: withWake ? trim(speak("hey halo", { voice: "en-us", wordsPerMinute: 170, pitch: 50 })) : new Int16Array(0),
  time: scene(say("what time is it"), 500, 2500, ROOM_RMS),
  timeReply: replySpeech("It is noon."),
  weather: scene(say("what is the weather like"), 800, 2500, ROOM_RMS),
  weatherReply: replySpeech("It is sunny."),
};

// --- the room, the stand-ins, halo-lin ---
const home = mkdtempSync(join(tmpdir(), "halo-lin-voice-home-"));
const files = alsaFiles(home);
const rng = mulberry32(5);
const room = (n) => {
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.round(rng.gaussian() * ROOM_RMS);
  return out;
};
const mic = new MicPump(files.mic, room);
const speaker = new SpeakerTap(files.speaker, join(home, "speaker.raw"));
let stand = await VoiceServer.start(STANDIN_PORT);

/** Every line halo-lin printed, with when it came. */
const lines = [];
const waiters = new Set();
const instruments = { keys: undefined, rows: [] };
let finish = () => {};
const child = runHaloLin({
  so,
  name: "check-voice",
  timeoutMs: 300_000,
  timeoutMessage: "the checks did not end within 5 minutes",
  exitMessage: "during the checks",
  env: { ...process.env, HOME: home },
  onExit() {
    mic.close();
    speaker.close();
    if (!keep) rmSync(home, { recursive: true, force: true });
    else console.log(`check-voice: kept ${home} (speaker.raw: what the speaker played)`);
  },
  onLine(text, done) {
    finish = done;
    const at = performance.now();
    if (text.startsWith("instruments key: ")) instruments.keys = text.slice("instruments key: ".length).split(",");
    else if (text.startsWith("instruments: "))
      instruments.rows.push({ at, values: text.slice("instruments: ".length).split(",").map(Number) });
    else if (/^\[halo\] (ring|button|warning|wake|voice)/.test(text) || /ALSA|error/i.test(text)) console.log(`  halo-lin: ${text}`);
    lines.push({ text, at });
    for (const w of Array.from(waiters)) w();
  },
});

/** Waits for a line matching `re` at or after index `from`; resolves with { text, at, index, match }. */
function waitLine(re, from, ms, what) {
  return new Promise((resolve, reject) => {
    const look = () => {
      for (let i = from; i < lines.length; i++) {
        const match = re.exec(lines[i].text);
        if (match) {
          waiters.delete(look);
          clearTimeout(timer);
          resolve({ ...lines[i], index: i, match });
          return true;
        }
      }
      return false;
    };
    const timer = setTimeout(() => {
      waiters.delete(look);
      reject(new Error(`no ${what ?? re} within ${ms} ms`));
    }, ms);
    if (!look()) waiters.add(look);
  });
}

/** The ring's phases traced from line `from` on (hosts/device/ring-trace.ts). */
function ringSince(from, to = lines.length) {
  return lines
    .slice(from, to)
    .map((l) => /^\[halo\] ring: (\S+)/.exec(l.text)?.[1])
    .filter((p) => p !== undefined);
}

async function owner(method, path, body, type = "application/json") {
  const headers = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers["content-type"] = type;
  const res = await fetch(new URL(path, BASE), {
    method,
    headers,
    body: body === undefined ? undefined : type === "application/json" ? JSON.stringify(body) : body,
  });
  return { status: res.status, text: await res.text() };
}

/** The index where `expected` (24 kHz, at the speaker's volume) starts in `played` at or after `from`, with the volume; -1 if absent. */
function findReply(played, expected, from) {
  // The SDK's lin output scales each sample by (volume x 256) >> 8; the first loud sample gives the volume.
  const first = expected[0];
  for (let k = from; k < played.length - 64; k++) {
    if (played[k] === 0) continue;
    const v = Math.round((played[k] * 256) / first);
    if (v <= 0 || v > 256) continue;
    let same = true;
    for (let j = 0; j < 64 && same; j++) same = played[k + j] === (v === 256 ? expected[j] : (expected[j] * v) >> 8);
    if (same) return { at: k, volume: v };
  }
  return { at: -1, volume: 0 };
}

/** How many samples of `expected` follow `at` in `played` exactly. */
function matchingRun(played, expected, at, v) {
  let n = 0;
  while (n < expected.length && at + n < played.length && played[at + n] === (v === 256 ? expected[n] : (expected[n] * v) >> 8)) n++;
  return n;
}

/** Where the upload's samples sit in the clip that was fed (exact match of the first 800 samples); -1 if not found. */
function findInClip(sent, clip) {
  const probe = Math.min(800, sent.length);
  outer: for (let o = 0; o + probe <= clip.length; o++) {
    for (let j = 0; j < probe; j++) if (sent[j] !== clip[o + j]) continue outer;
    return o;
  }
  return -1;
}

function uploadSamples(upload) {
  const b = upload.file.bytes;
  return new Int16Array(b.buffer.slice(b.byteOffset + 44, b.byteOffset + b.length));
}

/**
 * The SDK's lin `socket` module (under its `http` client) polls every 20 ms and moves at most 1,024 bytes a
 * poll (modules/network/socket/lin/modSocket.c): a floor on a whole body's time on lin that the board's lwip
 * sockets do not have. The device's HTTP client sends and takes whole bodies, so the figures include it.
 */
function linSocketFloor(bytes) {
  return `the lin socket's floor for its ${bytes} bytes: ${Math.ceil(bytes / 1024) * 20} ms`;
}

/** Resolves once the speaker has played a non-zero sample read after `at`. */
async function heardAfter(at) {
  for (;;) {
    const first = speaker.reads.find((r) => r.at > at);
    if (first) {
      const played = speaker.played();
      if (played.subarray(first.offset).some((s) => s !== 0)) return;
    }
    await sleep(20);
  }
}

/** A 24 kHz reply: espeak-ng speech, from its first loud sample (so the reply's start is found exactly). */
function replySpeech(text, repeat = 1) {
  const s16 = say(text);
  const s24 = resample(s16, MIC_RATE, SPEAKER_RATE);
  let first = 0;
  while (first < s24.length && Math.abs(s24[first]) < 500) first++;
  const one = s24.subarray(first);
  const out = new Int16Array(one.length * repeat);
  for (let i = 0; i < repeat; i++) out.set(one, i * one.length);
  return out;
}

let token = "";
/** The first turn's span, for the memory figures. */
const memory = { turn: undefined };
const figures = [];

try {
  token = (await waitLine(/owner token \(shown once\): (\S+)/, 0, 120_000, "owner token")).match[1];
  await waitLine(/serving http/, 0, 120_000, "serving http");
  const ports = check(
    "the lin build has a microphone and a speaker",
    !lines.some((l) => /microphone: .*no microphone/.test(l.text)) && lines.some((l) => /speaker: I2S output ready/.test(l.text)),
  );
  if (!ports) throw new Error("no audio ports: nothing to check");
  const put = await owner("PUT", "/api/secrets/openai", { value: KEY });
  check("PUT /api/secrets/openai", put.status === 200, `${put.status}`);
  await pressToTalk();
  await bargeIn();
  if (withWake) await wakePhrase();
  if (withRealtime) await realtimeTurn();
  memoryFigures();
} catch (e) {
  check("the run", false, e instanceof Error ? e.message : String(e));
}
for (const [name, value] of figures) console.log(`${name}: ${value}`);
console.log(
  `check-voice: microphone overruns ${mic.overruns} periods, pump skipped ${mic.skipped}, speaker short reads ${speaker.short}, speaker pipe ${speaker.queueMs.toFixed(1)} ms`,
);
finish(failures ? 1 : 0);

/** A press, a spoken question, the turn, the reply played to the end. */
async function pressToTalk() {
  const question = clips.calendar;
  const reply = clips.calendarReply;
  stand.transcripts.push("what is on my calendar today");
  stand.llm.reply(openAiAnswer(answer({ reply: "Nothing is on your calendar today." })));
  // One piece: the stand-in adds no delay of its own.
  stand.speech.push({ pcm: reply, pieceBytes: reply.byteLength });
  const uploads = stand.uploads.length;
  const calls = stand.llm.seen.length;
  const mark = lines.length;
  const playedFrom = speaker.samples;
  const pressedAt = performance.now();
  child.kill("SIGUSR1");
  const clipAt = await within(mic.say(question.samples), 5000, "the microphone reading the question");
  await waitLine(/^\[halo\] ring: listening/, mark, 5000, "ring listening");
  const speaking = await waitLine(/^\[halo\] ring: replying/, mark, 60_000, "ring replying");
  const idle = await waitLine(/^\[halo\] ring: idle/, speaking.index, 60_000, "ring idle after the reply");
  await sleep(300);

  const up = stand.uploads[uploads];
  if (!check("the transcription stand-in received the capture", stand.uploads.length === uploads + 1 && up !== undefined)) return;
  const wav = up.wav;
  check(
    "the capture's format",
    wav && wav.rate === 16000 && wav.channels === 1 && wav.bits === 16 && up.file.contentType === "audio/wav",
    wav
      ? `${up.file.contentType}, ${wav.rate} Hz, ${wav.channels} channel(s), ${wav.bits} bits, ${wav.durationMs.toFixed(0)} ms`
      : "not a WAV",
  );
  const sent = uploadSamples(up);
  const o = findInClip(sent, question.samples);
  const speechEnd = Math.floor((question.speechEndMs * MIC_RATE) / 1000);
  const holds = o >= 0 && o < speechEnd && sent.length >= speechEnd - o;
  check(
    "the capture holds the speech sample for sample",
    holds && sent.subarray(0, speechEnd - o).every((s, i) => s === question.samples[o + i]),
    `starts ${((o * 1000) / MIC_RATE).toFixed(0)} ms into the fed clip`,
  );
  if (o >= 0) {
    const expected = question.speechEndMs - (o * 1000) / MIC_RATE + HANGOVER_MS;
    check(
      "the capture's duration (within 5%)",
      Math.abs(wav.durationMs - expected) <= expected * 0.05,
      `${wav.durationMs.toFixed(0)} ms sent, ${expected.toFixed(0)} ms expected`,
    );
    // The press to the whole capture at the stand-in, less the talker's own time (the clip up to the end of its
    // speech) and the end-of-speech hangover: what the device adds.
    const speechEndAt = clipAt + question.speechEndMs;
    figures.push(["lin-voice-press-to-transcribe-ms", Math.round(up.lastByteAt - speechEndAt - HANGOVER_MS)]);
    console.log(
      `  (press to transcription received: ${Math.round(up.lastByteAt - pressedAt)} ms, of which the talker ${Math.round(speechEndAt - pressedAt)} ms and the hangover ${HANGOVER_MS} ms; ${linSocketFloor(up.file.bytes.length)})`,
    );
  }
  const turn = stand.llm.seen[calls];
  check("the turn ran on the transcript", stand.llm.seen.length > calls && /what is on my calendar today/.test(turn?.text ?? ""));
  check(
    "the reply was asked for",
    stand.speechRequests.at(-1)?.input === "Nothing is on your calendar today.",
    JSON.stringify(stand.speechRequests.at(-1)),
  );

  const played = speaker.played();
  const found = findReply(played, reply, playedFrom);
  const run = found.at >= 0 ? matchingRun(played, reply, found.at, found.volume) : 0;
  check(
    "the speaker played the speech stand-in's PCM",
    run === reply.length,
    `${run} of ${reply.length} samples, volume ${found.volume}/256`,
  );
  if (found.at >= 0) {
    // First byte sent by the stand-in to that sample read from the speaker's pipe, less the pipe's own delay.
    const heardAt = speaker.timeOf(found.at);
    const ms = Math.round(heardAt - stand.speechFirstByteAt.at(-1) - speaker.queueMs);
    figures.push(["lin-voice-reply-to-first-audio-ms", ms]);
    console.log(
      `  (aim ${FIRST_AUDIO_AIM_MS} ms; the speaker pipe's ${speaker.queueMs.toFixed(1)} ms subtracted; ${linSocketFloor(reply.byteLength)})`,
    );
  }
  const earcon = played.subarray(playedFrom, found.at >= 0 ? found.at : played.length).some((s) => s !== 0);
  check("the earcon played before listening", earcon);
  const ring = ringSince(mark, idle.index + 1);
  check("the ring went listening, thinking, replying, idle", ring.join(",") === "listening,thinking,replying,idle", ring.join(","));
  memory.turn = { from: pressedAt, to: idle.at };
}

/** A press while the reply plays stops it and listens again. */
async function bargeIn() {
  const question = clips.story;
  const reply = clips.storyReply;
  stand.transcripts.push("tell me a long story");
  stand.llm.reply(openAiAnswer(answer({ reply: "Once upon a time." })));
  stand.speech.push({ pcm: reply, pieceBytes: reply.byteLength });
  const mark = lines.length;
  const playedFrom = speaker.samples;
  child.kill("SIGUSR1");
  await within(mic.say(question.samples), 5000, "the microphone reading the question");
  const speaking = await waitLine(/^\[halo\] ring: replying/, mark, 60_000, "ring replying");
  // The device plays once the whole answer is in (its HTTP client does not stream): wait until it is heard.
  await within(heardAfter(speaking.at), 30_000, "the reply on the speaker");
  await sleep(500);
  const bargeAt = performance.now();
  child.kill("SIGUSR1");
  const listening = await waitLine(/^\[halo\] ring: listening/, speaking.index, 5000, "ring listening after the barge-in");
  // The room has no speech now: the new capture ends with none and the ring goes back to idle.
  const idle = await waitLine(/^\[halo\] ring: idle/, listening.index, 30_000, "ring idle after the barge-in");
  await sleep(500);
  const played = speaker.played();
  const found = findReply(played, reply, playedFrom);
  const run = found.at >= 0 ? matchingRun(played, reply, found.at, found.volume) : 0;
  check("the barge-in stopped the reply", found.at >= 0 && run > 0 && run < reply.length / 2, `${run} of ${reply.length} samples played`);
  if (found.at >= 0 && run > 0) {
    const lastAt = speaker.timeOf(found.at + run - 1) - speaker.queueMs;
    figures.push(["lin-voice-barge-in-stop-ms", Math.round(lastAt - bargeAt)]);
    const after = played.subarray(found.at + run, found.at + run + SPEAKER_RATE);
    check(
      "silence after the barge-in",
      after.every((s) => s === 0),
      `${after.filter((s) => s !== 0).length} non-zero samples in the next second`,
    );
  }
  const ring = ringSince(mark, idle.index + 1);
  check(
    "the ring went replying, listening, idle on the barge-in",
    /replying,listening,(thinking,)?idle$/.test(ring.join(",")),
    ring.join(","),
  );
}

/** Issue 24: the taught phrase starts the turn with no press. */
async function wakePhrase() {
  const takes = clips.wakeTakes;
  for (const [i, take] of takes.entries()) {
    const r = await owner("POST", "/api/wake/examples", encodeWav({ sampleRate: MIC_RATE, samples: take }), "audio/wav");
    check(`POST /api/wake/examples ${i + 1}`, r.status === 201, `${r.status} ${r.text.slice(0, 200)}`);
  }
  const state = await owner("GET", "/api/wake");
  check("GET /api/wake", state.status === 200 && /"enabled":true/.test(state.text), state.text.slice(0, 200));
  const phrase = clips.phrase;
  const noise = room(3 * MIC_RATE);
  const question = clips.time;
  const clip = new Int16Array(noise.length + phrase.length + question.samples.length);
  clip.set(noise, 0);
  clip.set(phrase, noise.length);
  clip.set(question.samples, noise.length + phrase.length);
  stand.transcripts.push("what time is it");
  stand.llm.reply(openAiAnswer(answer({ reply: "It is noon." })));
  const reply = clips.timeReply;
  stand.speech.push({ pcm: reply, pieceBytes: reply.byteLength });
  const uploads = stand.uploads.length;
  const calls = stand.llm.seen.length;
  await sleep(2000); // the listener picks the phrase up within a sync tick
  const mark = lines.length;
  await within(mic.say(clip), 5000, "the microphone reading the room");
  const listening = await waitLine(/^\[halo\] ring: listening/, mark, 30_000, "ring listening on the phrase");
  const idle = await waitLine(/^\[halo\] ring: idle/, listening.index, 60_000, "ring idle after the wake turn");
  await sleep(300);
  check("no press was sent: the phrase started the turn", !lines.slice(mark).some((l) => /button: press/.test(l.text)));
  const up = stand.uploads[uploads];
  check("the transcription stand-in received one capture", stand.uploads.length === uploads + 1 && up !== undefined);
  if (up) {
    const sent = uploadSamples(up);
    const o = findInClip(sent, clip);
    const phraseEnd = noise.length + phrase.length;
    check(
      "the capture starts after the phrase began and holds the question",
      o >= noise.length &&
        o < phraseEnd + Math.floor((question.speechStartMs * MIC_RATE) / 1000) &&
        o + sent.length >= phraseEnd + Math.floor((question.speechEndMs * MIC_RATE) / 1000),
      `capture from ${((o * 1000) / MIC_RATE).toFixed(0)} ms of the clip (phrase ${((noise.length * 1000) / MIC_RATE).toFixed(0)}-${((phraseEnd * 1000) / MIC_RATE).toFixed(0)} ms), ${up.wav?.durationMs.toFixed(0)} ms sent`,
    );
  }
  check("the wake turn ran", stand.llm.seen.length > calls && /what time is it/.test(stand.llm.seen[calls]?.text ?? ""));
  const ring = ringSince(mark, idle.index + 1);
  check(
    "the ring went listening, thinking, replying, idle on the phrase",
    ring.join(",") === "listening,thinking,replying,idle",
    ring.join(","),
  );
}

/** Realtime mode: the same press over the OpenAI Realtime WebSocket, ws:// to its stand-in on the same port. */
async function realtimeTurn() {
  const set = await owner("PUT", "/api/config/voiceMode", { value: "realtime" });
  check("PUT /api/config/voiceMode realtime", set.status === 200, `${set.status} ${set.text.slice(0, 120)}`);
  // The wake phrase would hear the room too: off for this part.
  if (withWake) await owner("PUT", "/api/wake", { enabled: false });
  await stand.close();
  const realtime = await RealtimeServer.start(KEY, STANDIN_PORT);
  stand = { close: () => realtime.close() };
  const reply = clips.weatherReply;
  realtime.responses.push([...audioDeltas(reply, 2400), { type: "response.done", response: { status: "completed" } }]);
  const question = clips.weather;
  const mark = lines.length;
  const playedFrom = speaker.samples;
  child.kill("SIGUSR1");
  await within(mic.say(question.samples), 5000, "the microphone reading the question");
  const speaking = await waitLine(/^\[halo\] ring: (replying|error)/, mark, 60_000, "ring replying (realtime)");
  if (speaking.match[1] === "error") {
    const why = lines.slice(mark).find((l) => /voice: error/.test(l.text))?.text ?? "(no sentence traced)";
    const seen = `${realtime.connections.length} connection(s), events ${realtime.events.map((e) => e.type).join(",")}`;
    check("the realtime exchange", false, `${why}; the stand-in saw ${seen}`);
    return;
  }
  const idle = await waitLine(/^\[halo\] ring: idle/, speaking.index, 60_000, "ring idle after the realtime reply");
  await sleep(300);
  check("the realtime stand-in was reached over ws://", realtime.connections.length === 1, JSON.stringify(realtime.connections));
  const types = realtime.events.map((e) => e.type);
  check(
    "session.update, commit, response.create",
    /session\.update.*input_audio_buffer\.commit.*response\.create/.test(types.join(",")),
    types.join(","),
  );
  // The capture goes up at 24 kHz: at least the speech, at most the whole clip.
  const appendedMs = ((realtime.appended[0] ?? 0) * 1000) / SPEAKER_RATE;
  check(
    "the capture went up as appends",
    appendedMs >= question.speechEndMs - question.speechStartMs && appendedMs <= (question.samples.length * 1000) / MIC_RATE + 500,
    `${appendedMs.toFixed(0)} ms appended; the speech is ${(question.speechEndMs - question.speechStartMs).toFixed(0)} ms`,
  );
  const played = speaker.played();
  const found = findReply(played, reply, playedFrom);
  const run = found.at >= 0 ? matchingRun(played, reply, found.at, found.volume) : 0;
  check("the speaker played the realtime audio", run === reply.length, `${run} of ${reply.length} samples`);
  const ring = ringSince(mark, idle.index + 1);
  check(
    "the ring went listening, thinking, replying, idle (realtime)",
    ring.join(",") === "listening,thinking,replying,idle",
    ring.join(","),
  );
}

/** The chunk and slot peaks of the first turn from a debug build's rows (none in a release build). */
function memoryFigures() {
  if (!instruments.keys || !memory.turn) {
    console.log("check-voice: no instruments rows (a release build); build with -d for the memory figures");
    return;
  }
  const chunk = instruments.keys.indexOf("Chunk used");
  const slot = instruments.keys.indexOf("Slot used");
  const during = instruments.rows.filter((r) => r.at >= memory.turn.from && r.at <= memory.turn.to + 1000);
  const before = instruments.rows.filter((r) => r.at < memory.turn.from).at(-1);
  if (!check("instruments rows during the turn", during.length > 0 && chunk >= 0 && slot >= 0, `${during.length} rows`)) return;
  const peakChunk = Math.max(...during.map((r) => r.values[chunk]));
  const peakSlots = Math.max(...during.map((r) => r.values[slot])) / SLOT_BYTES;
  figures.push(["lin-voice-peak-chunk-kb", Math.round(peakChunk / 1024)]);
  figures.push(["lin-voice-peak-slots", Math.round(peakSlots)]);
  const gc = instruments.keys.indexOf("Garbage collections");
  const series = during.map((r) => `${Math.round(r.values[chunk] / 1024)}/${Math.round(r.values[slot] / SLOT_BYTES)}/${r.values[gc]}`);
  console.log(`  (rows during the turn, chunk KB/slots/collections: ${series.join(" ")})`);
  if (before)
    console.log(
      `  (before the press: ${Math.round(before.values[chunk] / 1024)} KB of chunks, ${Math.round(before.values[slot] / SLOT_BYTES)} slots; ${during.length} rows during the turn)`,
    );
}
