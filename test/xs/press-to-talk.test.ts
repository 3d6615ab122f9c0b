// The button on the voice loop, on Node and on the XS engine: the same transcript, and what it must say.
import assert from "node:assert/strict";
import { runPressToTalkScenario } from "../scenarios/press-to-talk.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("press to talk, mute and barge-in on XS", () => {
  const run = compareOnXs("test/xs/press-to-talk.xs.ts", runPressToTalkScenario, 20);
  const line = (prefix: string): string => {
    const found = run.node().find((l) => l.startsWith(prefix));
    assert.ok(found, `no line starting ${prefix}`);
    return found;
  };

  it("turns pin levels into press, double-press and the long presses; a storm ends released", () => {
    assert.equal(line("gestures single:"), "gestures single: press@470 pressed=false");
    assert.equal(line("gestures double:"), "gestures double: double-press@430 pressed=false");
    assert.equal(line("gestures slow pair:"), "gestures slow pair: press@470 press@1150 pressed=false");
    assert.equal(line("gestures second held long:"), "gestures second held long: long-press@3630 pressed=false");
    assert.equal(line("gestures very long:"), "gestures very long: very-long-press@10000 pressed=false");
    const storm = line("gestures storm of 20 in 2 s:");
    assert.equal(storm.match(/double-press@/g)?.length, 10, storm);
    assert.match(storm, /pressed=false$/);
  });

  it("a press listens after an earcon and the ring follows listening, thinking, speaking, idle", () => {
    assert.equal(
      line("press:"),
      'press: listening -> speech-ended "what time is it" | "You said: what time is it" | played; ring listening,thinking,replying,idle; phase idle',
    );
    assert.match(line("earcons"), /^earcons 1320\/60@100 played=9600 turns=what time is it$/);
  });

  it("a second press ends the capture, and a press while speaking stops the reply and listens again", () => {
    assert.match(
      line("second press:"),
      /^second press: listening\+capture-ended -> released "a long question" .* played; ring listening,thinking,replying,idle/,
    );
    assert.equal(
      line("barge-in:"),
      'barge-in: listening+barge-in (first reply stopped) -> speech-ended "stop" | "You said: stop" | played; ring listening,thinking,replying,listening,thinking,replying,idle; phase idle',
    );
  });

  it("a double press mutes, the mute survives a restart, and a muted press captures nothing", () => {
    assert.equal(line("mute:"), "mute: muted; stored true; after a restart micMute=true; ring muted");
    assert.equal(line("muted press:"), "muted press: muted-press; captures 0; requests 0; ring muted; exchange refused");
    assert.equal(line("unmute:"), "unmute: unmuted; ring idle");
    assert.equal(line("mute sounds"), "mute sounds 880/60@100 660/90@100 660/60@100 880/90@100", "falling on mute, rising on unmute");
    assert.equal(
      line("mute mid-capture:"),
      'mute mid-capture: listening+muted -> cancelled "" | "" | not-spoken; ring listening,muted; phase idle',
    );
    assert.equal(line("mid-capture requests"), "mid-capture requests 0");
  });

  it("the long presses keep their meaning", () => {
    assert.equal(line("long "), "long long-press very-long-press ignored hooks=setup,reboot phase=idle");
  });

  it("a storm of 20 presses leaves the loop idle, the ring idle, and the next press works", () => {
    const outcomes = line("storm outcomes");
    const total = [...outcomes.matchAll(/=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
    assert.equal(total, 20);
    assert.match(outcomes, /capture-ended=\d+/);
    assert.equal(line("storm settled:"), "storm settled: phase idle; ring idle; capturing false");
    assert.match(
      line("after the storm:"),
      /-> speech-ended "after the storm" .* played; ring listening,thinking,replying,idle; phase idle$/,
    );
  });
});
