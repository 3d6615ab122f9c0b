// system.health's microphone line, from the AudioIn port: the simulator's
// microphone in a quiet room, one stuck at zero, one clipped, one that
// delivers nothing, a muted one (never opened) and one in use by a spoken
// request; and device.selftest's loopback on the same real ports.
import assert from "node:assert/strict";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { simAudioIn } from "../../hosts/sim/ports/audio.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import type { AudioIn, Ports } from "../../lib/ports.ts";
import { MIC_CHECK_DEADLINE_MS } from "../../lib/voice/mic-level.ts";
import { TEST_HOST } from "../support/halo.ts";
import { principal } from "../support/registry.ts";

const admin = principal("admin", "turn", "owner");

function coreWith(over: Partial<Ports> = {}): Core {
  return buildCore(memoryPorts(over), TEST_HOST);
}

async function micLine(core: Core): Promise<string> {
  const r = await core.registry.dispatch("system.health", {}, admin);
  const line = r.text.split("\n").find((l) => l.startsWith("- mic:"));
  assert.ok(line, r.text);
  return line;
}

/** A simulated microphone that hears `samples` first. */
function hearing(samples: Int16Array): AudioIn {
  const mic = simAudioIn();
  mic.load(samples);
  return mic;
}

describe("system.health's microphone line", function () {
  this.timeout(MIC_CHECK_DEADLINE_MS + 5000);

  it("listens to the simulator's quiet room: OK, with its rate and the last second's level", async () => {
    assert.match(await micLine(coreWith()), /^- mic: OK \(16000 Hz; the last second: RMS [1-4], peak [1-4]\)$/);
    const voice = new Int16Array(16000);
    for (let i = 0; i < voice.length; i++) voice[i] = Math.round(3000 * Math.sin((2 * Math.PI * 200 * i) / 16000));
    assert.match(await micLine(coreWith({ audioIn: hearing(voice) })), /^- mic: OK \(16000 Hz; the last second: RMS 21\d\d, peak 3000\)$/);
  });

  it("fails a microphone stuck at zero", async () => {
    assert.equal(
      await micLine(coreWith({ audioIn: hearing(new Int16Array(16000)) })),
      "- mic: FAIL (stuck at zero: every sample of the last second is 0 (16000 Hz))",
    );
  });

  it("fails a clipped signal, and passes one with a few full-scale samples", async () => {
    const pinned = new Int16Array(16000);
    for (let i = 0; i < pinned.length; i++) pinned[i] = (i >> 3) % 2 ? 32767 : -32768;
    assert.equal(
      await micLine(coreWith({ audioIn: hearing(pinned) })),
      "- mic: FAIL (clipped: 100% of the last second at full scale (16000 Hz))",
    );
    const few = new Int16Array(16000).fill(500);
    for (let i = 0; i < 100; i++) few[i * 100] = 32767;
    assert.match(await micLine(coreWith({ audioIn: hearing(few) })), /^- mic: OK /);
  });

  it("fails a microphone that delivers nothing, after the deadline", async () => {
    const dead: AudioIn = { sampleRate: 16000, start: () => undefined, stop: () => undefined };
    const began = Date.now();
    assert.match(await micLine(coreWith({ audioIn: dead })), /^- mic: FAIL \(delivered 0 of 16000 samples in \d+ ms at 16000 Hz\)$/);
    assert.ok(Date.now() - began >= MIC_CHECK_DEADLINE_MS - 50);
  });

  it("does not open a muted microphone, and reports one in use without disturbing it", async () => {
    let starts = 0;
    const mic = simAudioIn();
    const counted: AudioIn = { sampleRate: 16000, start: (cb) => (starts++, mic.start(cb)), stop: () => mic.stop() };
    const core = coreWith({ audioIn: counted });
    core.config.apply([["micMute", true]], "owner");
    assert.equal(await micLine(core), "- mic: OK (16000 Hz; muted by the owner, not listened to)");
    assert.equal(starts, 0);
    core.config.apply([["micMute", false]], "owner");
    mic.start(() => undefined);
    try {
      assert.equal(await micLine(core), "- mic: OK (16000 Hz; not measured (The microphone is already capturing))");
    } finally {
      mic.stop();
    }
    assert.equal(await micLine(coreWith({ audioIn: undefined })), "- mic: NOT PRESENT (no microphone port on this build)");
  });

  it("device.selftest's loopback plays on the speaker port and listens on the microphone port", async () => {
    const core = coreWith();
    const text = (await core.registry.dispatch("device.selftest", { audible: true }, admin)).text;
    assert.match(text, /^- mic loopback: PASS \(heard the tone/m);
    const out = core.ports.audioOut as unknown as { calls: Array<{ hz: number }> };
    assert.ok(out.calls.length >= 2, "the speaker port played the tones");
  });
});
