// Voice on the XS engine: the same transcript as on Node.
import assert from "node:assert/strict";
import { HANGOVER_MS } from "../../lib/voice/endpoint.ts";
import { MAX_CAPTURE_MS } from "../../lib/voice/pipeline.ts";
import { runVoiceScenario } from "../scenarios/voice.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("voice on XS", () => {
  const cmp = compareOnXs("test/xs/voice.xs.ts", runVoiceScenario, 15);

  it("parsed, detected and ran the exchanges", () => {
    const node = cmp.node().join("\n");
    assert.match(node, /^wav 16000 1600 /m);
    assert.match(node, /^wav\.empty invalid: The audio is not a usable WAV file: no RIFF\/WAVE header\.$/m);
    assert.match(node, /^wav\.no data invalid: .*no data chunk\.$/m);
    assert.match(node, /^slots 32767,-1,4660,0$/m);
    for (const noise of [0, 300]) {
      const m = new RegExp(`^endpoint noise=${noise} speech-ended start=\\d+ late=(-?[\\d.]+)$`, "m").exec(node);
      assert.ok(m, `noise ${noise}`);
      assert.ok(Number(m[1]) > 0 && Number(m[1]) <= 400 && Number(m[1]) >= HANGOVER_MS - 60, `late ${m[1]}`);
    }
    assert.match(node, /^endpoint silence no-speech at=8000$/m);
    assert.match(
      node,
      /^exchange speech-ended hello device \| You said: hello device \| played captured=[\d.]+ model=gpt-4o-mini-transcribe$/m,
    );
    assert.match(node, /^played 12000 /m);
    assert.match(node, /^phases listening,thinking,replying,idle$/m);
    assert.match(node, /^barge-in stopped kept=\d+ phases=listening,thinking,replying,listening,thinking,replying,idle$/m);
    assert.match(
      node,
      /^broken The connection to OpenAI failed: the connection closed mid-answer phases=listening,thinking,replying,error$/m,
    );
    assert.match(node, /^rt connect ws:\/\/stand-in\/v1\/realtime\?model=gpt-realtime Bearer sk-xs$/m);
    assert.match(node, /^rt speech-ended calls=device\.status spoken=played appended=\d+ captured=[\d.]+$/m);
    const rt = /^rt speech-ended .* appended=(\d+) captured=([\d.]+)$/m.exec(node)!;
    assert.ok(Math.abs(Number(rt[1]) / 24 - Number(rt[2])) <= Number(rt[2]) * 0.05, "24 kHz appends cover the capture");
    assert.match(
      node,
      /^rt sent session\.update,input_audio_buffer\.commit,response\.create,conversation\.item\.create,response\.create$/m,
    );
    assert.match(node, /^rt tools \[\{"type":"function","name":"device_status"/m);
    assert.match(
      node,
      /^rt output \{"type":"conversation\.item\.create","item":\{"type":"function_call_output","call_id":"c1","output":"ran device\.status"\}\}$/m,
    );
    assert.match(node, /^rt played 2400 phases=listening,thinking,replying,idle$/m);
    const cap = /^cap cap (\d+) bytes=(\d+)$/m.exec(node);
    assert.ok(cap && Number(cap[1]) === MAX_CAPTURE_MS);
    // 60 s of 16 kHz 16-bit samples, the WAV header and the multipart framing.
    const pcmBytes = MAX_CAPTURE_MS * 32;
    assert.ok(Number(cap[2]) > pcmBytes + 44 && Number(cap[2]) < pcmBytes + 44 + 600, cap[2]);
  });
});
