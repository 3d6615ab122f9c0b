// The button on the voice loop, on Node and on XS with the same transcript:
// pin levels to gestures (double press, a press storm), and the press-to-talk
// controller driving a real VoiceLoop (pipeline, transcriber and speech player
// against the in-process wire stand-ins) with the status ring following the
// loop's phases: press, second press, barge-in, mute that survives a restart,
// a press while muted, mute mid-capture, the long presses and a storm of 20
// presses. Time does not move: the ring's phases are read after each event.
import { ConfigStore } from "../../lib/device/config.ts";
import { ButtonGestures } from "../../lib/device/button.ts";
import { StatusRing } from "../../lib/device/ring/status.ts";
import type { RingPhase } from "../../lib/device/ring/phases.ts";
import type { AudioIn, AudioOut, ButtonGesture } from "../../lib/ports.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { recordingSpeaker, samplesSource } from "../../lib/voice/memory-audio.ts";
import { sineTone } from "../../lib/voice/pcm.ts";
import type { VoiceExchange } from "../../lib/voice/pipeline.ts";
import { PressToTalk, type ButtonOutcome } from "../../lib/voice/press-to-talk.ts";
import { SoundEffects } from "../../lib/voice/sound-effects.ts";
import { Speech } from "../../lib/voice/speech-service.ts";
import { VoiceLoop } from "../../lib/voice/voice-loop.ts";
import { portablePorts } from "../support/portable-ports.ts";
import { scriptedAudioHttp, syntheticSpeech, type WireLog, type WireScript } from "./voice-rig.ts";

/** Lets queued microtasks (the stand-ins' pieces, the microphone's blocks) run. */
async function settle(turns = 50): Promise<void> {
  for (let i = 0; i < turns; i++) await null;
}

export async function runPressToTalkScenario(): Promise<string[]> {
  const out: string[] = [];
  gestures(out);
  await controller(out);
  return out;
}

/** Pin levels to gestures: single, double, long, a second press held long, and 20 presses in 2 s. */
function gestures(out: string[]): void {
  const run = (label: string, edges: Array<[number, boolean]>, until: number): void => {
    const b = new ButtonGestures();
    const seen: string[] = [];
    let i = 0;
    for (let t = 0; t < until; t += 10) {
      while (i < edges.length && edges[i][0] <= t) i++;
      const level = i > 0 && edges[i - 1][1];
      for (const g of b.sample(level, t)) if (g !== "down") seen.push(`${g}@${t}`);
    }
    out.push(`gestures ${label}: ${seen.join(" ")} pressed=${b.isPressed()}`);
  };
  run(
    "single",
    [
      [0, true],
      [120, false],
    ],
    1000,
  );
  run(
    "double",
    [
      [0, true],
      [120, false],
      [300, true],
      [400, false],
    ],
    1200,
  );
  run(
    "slow pair",
    [
      [0, true],
      [120, false],
      [700, true],
      [800, false],
    ],
    1600,
  );
  run(
    "second held long",
    [
      [0, true],
      [100, false],
      [250, true],
      [3600, false],
    ],
    4200,
  );
  run(
    "long",
    [
      [0, true],
      [3500, false],
    ],
    4000,
  );
  run(
    "very long",
    [
      [0, true],
      [10500, false],
    ],
    11000,
  );
  const storm: Array<[number, boolean]> = [];
  for (let k = 0; k < 20; k++) storm.push([k * 100, true], [k * 100 + 50, false]);
  run("storm of 20 in 2 s", storm, 3000);
}

async function controller(out: string[]): Promise<void> {
  const ports = portablePorts();
  const log: WireLog = { requests: [], speechPieceAt: [] };
  const script: WireScript = { transcripts: [], speech: [] };
  let tick = 0;
  const http = scriptedAudioHttp(script, log, () => ++tick);
  const settings = ports.settings;
  const config = new ConfigStore(settings, ports.log);
  const speech = new Speech({
    ports: { audioHttp: http, random: ports.random, clock: ports.clock, timers: ports.timers },
    config,
    getSecret: () => "sk-xs",
    baseUrls: { openai: "http://stand-in/v1" },
  });

  // The microphone: a clip per capture (then it ends the capture), counted.
  let clip: Int16Array = new Int16Array(0);
  let starts = 0;
  let source: AudioIn | undefined;
  const mic: AudioIn = {
    sampleRate: 16000,
    start(cb) {
      starts++;
      source = samplesSource(clip, () => loop.release());
      source.start(cb);
    },
    stop: () => source?.stop(),
  };
  const recorder = recordingSpeaker();
  const tones: string[] = [];
  const speaker: AudioOut = {
    ...recorder,
    async tone(hz, ms, level) {
      tones.push(`${hz}/${ms}@${level}`);
    },
  };
  const turns: string[] = [];
  const loop: VoiceLoop = new VoiceLoop({
    ports: { audioIn: mic, audioOut: speaker, webSocket: undefined },
    config,
    speech,
    turns: {
      runTurn: async (_p, request) => {
        turns.push(request.text);
        return { reply: `You said: ${request.text}` };
      },
    },
    principal: () => makePrincipal("owner", "admin", "turn"),
    getSecret: () => "sk-xs",
    baseUrls: { openai: "http://stand-in/v1" },
    registry: { toolSpecsFor: () => [], dispatch: () => Promise.reject(new Error("no tools")), all: () => [] },
  });

  // The status ring, fed as lib/app/ring.ts feeds it; every phase it shows is kept.
  let ring: StatusRing | undefined;
  const shown: RingPhase[] = [];
  const note = (): void => {
    const p = ring?.phase();
    if (p && shown[shown.length - 1] !== p) shown.push(p);
  };
  ring = new StatusRing({ sink: { pixels: 12, write: () => note() }, clock: ports.clock, log: ports.log, knobs: config });
  ring.report({ kind: "booted" });
  loop.subscribe((e) => {
    ring!.report({ kind: "voice", phase: e.phase });
    note();
  });
  const hooks: string[] = [];
  const make = (): PressToTalk =>
    new PressToTalk({
      voice: loop,
      config,
      effects: new SoundEffects({ config, clock: ports.clock, speaker }),
      ring: { report: (e) => (ring!.report(e), note()) },
      log: ports.log,
      longPress: () => void hooks.push("setup"),
      veryLongPress: () => void hooks.push("reboot"),
    });
  let button = make();
  const press = (g: ButtonGesture): ButtonOutcome => button.gesture(g);
  const line = (label: string, r: VoiceExchange | undefined, outcome: string): void => {
    out.push(
      `${label}: ${outcome} -> ${r ? `${r.ended} "${r.transcript}" | "${r.reply}" | ${r.spoken}${r.error ? ` | ${r.error}` : ""}` : "no exchange"}; ring ${shown.join(",")}; phase ${loop.phase()}`,
    );
    shown.length = 0;
  };

  // 1. A press: the earcon, then listening until end of speech, the turn, the reply spoken.
  shown.length = 0;
  clip = syntheticSpeech(5, 300, 800, 100).samples;
  script.transcripts.push("what time is it");
  script.speech.push({ pcm: sineTone(300, 400, 24000, 5000) });
  let o = press("press");
  line("press", await button.exchange(), o);
  out.push(`earcons ${tones.join(" ")} played=${recorder.take().length} turns=${turns.join("/")}`);

  // 2. A second press ends the capture (a talker who would go on for 20 s).
  clip = syntheticSpeech(90, 300, 800, 100).samples;
  script.transcripts.push("a long question");
  script.speech.push({ pcm: sineTone(300, 100, 24000, 5000) });
  o = press("press");
  await settle(20);
  const second = press("press");
  line("second press", await button.exchange(), `${o}+${second}`);
  recorder.take();

  // 3. A press while the reply is spoken stops it and listens again (barge-in).
  clip = syntheticSpeech(4, 300, 800, 0).samples;
  script.transcripts.push("tell me a story", "stop");
  script.speech.push({ pcm: sineTone(300, 8000, 24000, 5000), pieceBytes: 4800 }, { pcm: sineTone(300, 200, 24000, 5000) });
  o = press("press");
  const story = button.exchange()!;
  while (loop.phase() !== "replying") await null;
  await settle(3);
  const barge = press("press");
  const storyEnd = await story;
  line("barge-in", await button.exchange(), `${o}+${barge} (first reply ${storyEnd?.spoken})`);
  recorder.take();

  // 4. A double press mutes; the mute is stored and survives a restart; a press while muted captures nothing.
  tones.length = 0;
  o = press("double-press");
  await settle();
  const restarted = new ConfigStore(settings, ports.log);
  out.push(
    `mute: ${o}; stored ${settings.get("cfg.micmute")}; after a restart micMute=${restarted.bool("micMute")}; ring ${shown.join(",")}`,
  );
  shown.length = 0;
  button = make();
  const before = starts;
  const requests = log.requests.length;
  o = press("press");
  await settle();
  out.push(
    `muted press: ${o}; captures ${starts - before}; requests ${log.requests.length - requests}; ring ${ring.phase()}; exchange ${loop.press() === undefined ? "refused" : "ran"}`,
  );
  o = press("double-press");
  await settle();
  out.push(`unmute: ${o}; ring ${ring.phase()}`);
  out.push(`mute sounds ${tones.join(" ")}`);
  shown.length = 0;

  // 5. Muting mid-capture drops the capture: nothing is sent.
  clip = syntheticSpeech(90, 300, 800, 100).samples;
  const sent = log.requests.length;
  o = press("press");
  await settle(20);
  const muted = press("double-press");
  line("mute mid-capture", await button.exchange(), `${o}+${muted}`);
  out.push(`mid-capture requests ${log.requests.length - sent}`);
  press("double-press");
  shown.length = 0;

  // 6. The long presses keep their meaning; "down" does nothing.
  out.push(`long ${press("long-press")} ${press("very-long-press")} ${press("down")} hooks=${hooks.join(",")} phase=${loop.phase()}`);

  // 7. A storm: 20 presses a few microtasks apart, whatever the loop is doing.
  clip = syntheticSpeech(6, 200, 600, 100).samples;
  for (let k = 0; k < 20; k++) {
    script.transcripts.push(`storm ${k}`);
    script.speech.push({ pcm: sineTone(300, 300, 24000, 5000), pieceBytes: 4800 });
  }
  const outcomes: ButtonOutcome[] = [];
  for (let k = 0; k < 20; k++) {
    outcomes.push(press("press"));
    await settle(k % 3 === 0 ? 2 : 7);
  }
  for (let i = 0; i < 200 && loop.phase() !== "idle" && loop.phase() !== "error"; i++) await settle(20);
  const counts: { [outcome: string]: number } = {};
  for (const x of outcomes) counts[x] = (counts[x] ?? 0) + 1;
  out.push(
    `storm outcomes ${Object.keys(counts)
      .sort()
      .map((k) => `${k}=${counts[k]}`)
      .join(" ")}`,
  );
  out.push(`storm settled: phase ${loop.phase()}; ring ${ring.phase()}; capturing ${loop.capturing()}`);
  recorder.take();
  // And the loop still works after it.
  shown.length = 0;
  script.transcripts.length = 0;
  script.speech.length = 0;
  clip = syntheticSpeech(4, 300, 800, 0).samples;
  script.transcripts.push("after the storm");
  script.speech.push({ pcm: sineTone(300, 100, 24000, 5000) });
  o = press("press");
  line("after the storm", await button.exchange(), o);
}
