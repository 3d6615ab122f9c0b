import { taggedText, type ErrorTag } from "../errors";
import type { AudioOut, Led, LedPattern, Log, System } from "../ports";
import type { Principal } from "../registry/principal";
import type { DeviceAction } from "./actions";
import type { ConfigStore } from "./config";
import { LED_MAX_BRIGHTNESS } from "./knobs";

export interface ActuatorDeps {
  config: ConfigStore;
  log: Log;
  led?: Led;
  audioOut?: AudioOut;
  system?: System;
  /** Streams speech for `text` to the speaker and resolves when it played (lib/voice); absent: tts fails honestly. */
  speak?(text: string, voice: string): Promise<unknown>;
  /**
   * With no speaker: sends the speech as a Telegram voice note to the chat `principal` reaches, and says where
   * it went ("the owner's chat"); rejects with one sentence. Absent: no fallback (lib/app/voice-note-fallback.ts).
   */
  voiceNote?(text: string, voice: string, principal: Principal): Promise<string>;
}

/** What an action did: one sentence; a failure also its tag and its sentence apart (`text` is "<tag>: <sentence>"). */
export type ActionOutcome = { ok: true; text: string } | { ok: false; tag: ErrorTag; sentence: string; text: string };

/**
 * Carries out validated device actions through the ports. An absent port is
 * reported as not present, never pretended. Outcomes name knobs, not values.
 */
export class DeviceActuator {
  constructor(private readonly deps: ActuatorDeps) {}

  /**
   * Carries out one action. `principal` is the caller of device[] or device.control: with it, a tts on a
   * device without a speaker falls back to a Telegram voice note; reply.speak passes none (it says why
   * nothing was spoken, and the model replies in text).
   */
  async apply(action: DeviceAction, principal?: Principal): Promise<ActionOutcome> {
    const { config, led, audioOut, system } = this.deps;
    switch (action.kind) {
      case "led": {
        if (!led) return fail("not-present", "this device has no LED ring.");
        const asked = action.brightness === null ? config.number("ledBrightness") : action.brightness;
        const brightness = Math.min(asked, LED_MAX_BRIGHTNESS);
        led.show({ mode: action.mode, r: action.r, g: action.g, b: action.b, brightness });
        const capped = asked > LED_MAX_BRIGHTNESS ? ` (capped from ${asked} at 60% for the hardware's safety)` : "";
        return done(`ring: ${action.mode} ${action.r},${action.g},${action.b} at brightness ${brightness}${capped}.`);
      }
      case "lights": {
        if (!led) return fail("not-present", "this device has no LED ring.");
        const pattern: LedPattern =
          action.value === "off"
            ? { mode: "off", r: 0, g: 0, b: 0, brightness: 0 }
            : { mode: "solid", r: 255, g: 255, b: 255, brightness: LED_MAX_BRIGHTNESS };
        led.show(pattern);
        return done(`ring: lights ${action.value}.`);
      }
      case "config": {
        const problem = config.apply(action.changes, "device");
        if (problem) return fail("invalid", problem);
        if (audioOut && action.changes.some(([k]) => k === "sfxVol")) audioOut.setVolume(config.number("sfxVol"));
        this.deps.log.info(`config: ${action.changes.map(([k]) => k).join(", ")} changed by a device action`);
        return done(`config: ${action.changes.map(([k]) => k).join(", ")} updated.`);
      }
      case "orch_model": {
        const problem = config.apply(
          [
            ["orchProvider", action.provider],
            ["orchModel", action.model],
          ],
          "orch_model",
        );
        if (problem) return fail("invalid", problem);
        return done(`orchestrator model: ${action.provider} ${action.model} from the next turn.`);
      }
      case "reboot":
        if (!system) return fail("not-present", "this host cannot reboot (no System port).");
        this.deps.log.info("device: reboot requested by a device action");
        system.reboot();
        return done(system.info().simulated ? "reboot requested (simulated: the simulator keeps running)." : "rebooting.");
      case "tts":
        return this.speak(action.text, principal);
    }
  }

  private async speak(text: string, principal: Principal | undefined): Promise<ActionOutcome> {
    const { config, audioOut } = this.deps;
    if (!audioOut)
      return principal && this.deps.voiceNote ? this.voiceNote(text, principal) : fail("not-present", "this device has no speaker.");
    if (config.string("profile") === "silent") return fail("silent", "the device is on silent (profile silent).");
    if (!config.bool("ttsOn")) return fail("off", "spoken replies are off (ttsOn is false).");
    if (config.number("sfxVol") === 0 || audioOut.volume() === 0) return fail("off", "the speaker volume is 0.");
    if (!this.deps.speak) return fail("not-present", "this build has no speech synthesis.");
    try {
      await this.deps.speak(text, config.string("ttsVoice"));
    } catch (e) {
      const why = e instanceof Error ? e.message.replace(/\.$/, "") : "unknown error";
      return fail("failed", `the speech did not play (${why}).`);
    }
    return done(`spoke ${text.length} characters.`);
  }

  /** The seed's fallback without a speaker: the same words as a Telegram voice note, under the same ttsOn knob. */
  private async voiceNote(text: string, principal: Principal): Promise<ActionOutcome> {
    const { config } = this.deps;
    if (!config.bool("ttsOn")) return fail("off", "spoken replies are off (ttsOn is false).");
    try {
      const where = await this.deps.voiceNote!(text, config.string("ttsVoice"), principal);
      return done(`no speaker: sent ${text.length} characters as a Telegram voice note to ${where}.`);
    } catch (e) {
      const why = e instanceof Error ? e.message.replace(/\.$/, "") : "unknown error";
      return fail("not-present", `this device has no speaker, and the Telegram voice note was not sent (${why}).`);
    }
  }
}

function done(text: string): ActionOutcome {
  return { ok: true, text };
}

function fail(tag: ErrorTag, sentence: string): ActionOutcome {
  return { ok: false, tag, sentence, text: taggedText(tag, sentence) };
}
