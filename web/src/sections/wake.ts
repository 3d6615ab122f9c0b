// The wake phrase, on the Device section for the owner: record three examples with the browser's microphone
// (or upload WAV files), turn the phrase on or off, set its sensitivity, forget it. The device keeps only
// each example's features (GET/PUT/DELETE /api/wake, POST /api/wake/examples).
import { del, errorText, get, put, request } from "../api";
import { clear, h } from "../dom";
import { MIC_UNAVAILABLE, recordToggle } from "../wav";

interface WakeState {
  set: boolean;
  enabled: boolean;
  sensitivity: number;
  pending: number;
  needed: number;
}

function summary(w: WakeState): string {
  const pending = w.pending > 0 ? ` ${w.pending} of ${w.needed} examples recorded for a new phrase.` : "";
  if (!w.set) return `No wake phrase yet: record the phrase ${w.needed} times.${pending}`;
  return `A wake phrase is set; it is ${w.enabled ? "on" : "off"}, sensitivity ${w.sensitivity}.${pending}`;
}

/** The panel; empty with a sentence when the device has no wake-word engine. */
export function wakePanel(): HTMLElement {
  const panel = h("section", { "aria-labelledby": "wake-title", id: "wake" });
  const state = h("p", { id: "wake-state" });
  const outcome = h("p", { id: "wake-outcome", role: "status" });
  const enabled = h("input", { type: "checkbox", id: "wake-enabled" }) as HTMLInputElement;
  const sensitivity = h("input", { type: "range", id: "wake-sensitivity", min: 0, max: 1, step: 0.05 }) as HTMLInputElement;
  const record = h("button", { type: "button", id: "wake-record", "aria-pressed": "false" }, "Record an example");
  const files = h("input", { type: "file", id: "wake-files", accept: "audio/wav", multiple: true }) as HTMLInputElement;

  const show = (w: WakeState): void => {
    state.textContent = summary(w);
    enabled.checked = w.enabled;
    enabled.disabled = !w.set;
    sensitivity.value = String(w.sensitivity);
    sensitivity.disabled = !w.set;
  };
  const load = async (): Promise<void> => {
    const r = await get("/api/wake");
    if (r.ok) show(r.json as WakeState);
    else clear(panel, h("h3", { id: "wake-title" }, "Wake phrase"), h("p", { class: "mute" }, errorText(r)));
  };
  /** Sends one example; the answer says how many are recorded, or why this one was refused. */
  const send = async (wav: Blob): Promise<void> => {
    const r = await request("POST", "/api/wake/examples", undefined, { type: "audio/wav", bytes: wav });
    const w = r.json as WakeState;
    // The third example completes a phrase: none is pending any more.
    const taught = w.set && w.pending === 0;
    outcome.textContent = !r.ok ? errorText(r) : taught ? "The phrase is taught." : `Example kept (${w.pending} of ${w.needed}).`;
    outcome.className = r.ok ? "" : "bad";
    await load();
  };

  recordToggle(record, {
    idle: "Record an example",
    recording: "Stop and keep",
    // No echo cancelling or noise suppression: the examples should sound as the device's microphone hears.
    processing: false,
    onStart: () => {
      outcome.textContent = "Say the phrase once, then stop.";
    },
    onUnavailable: () => {
      outcome.textContent = MIC_UNAVAILABLE;
    },
    onWav: send,
  });
  files.addEventListener("change", async () => {
    for (const file of Array.from(files.files ?? [])) await send(file);
    files.value = "";
  });
  enabled.addEventListener("change", async () => {
    const r = await put("/api/wake", { enabled: enabled.checked });
    outcome.textContent = r.ok ? "" : errorText(r);
    await load();
  });
  sensitivity.addEventListener("change", async () => {
    const r = await put("/api/wake", { sensitivity: Number(sensitivity.value) });
    outcome.textContent = r.ok ? "" : errorText(r);
    await load();
  });
  const forget = h("button", { type: "button", class: "quiet", id: "wake-forget" }, "Forget the phrase");
  forget.addEventListener("click", async () => {
    const r = await del("/api/wake");
    outcome.textContent = r.ok ? "The phrase is forgotten." : errorText(r);
    await load();
  });

  panel.append(
    h("h3", { id: "wake-title" }, "Wake phrase"),
    h("p", { class: "mute" }, "Two or three syllables, said in your own voice the way you will say it to Halo, three times."),
    state,
    h("div", { class: "row" }, record, h("label", { for: "wake-files" }, "or upload WAV files"), files),
    h(
      "div",
      { class: "row" },
      h("label", { for: "wake-enabled" }, enabled, " Listen for the phrase"),
      h("label", { for: "wake-sensitivity" }, "Sensitivity"),
      sensitivity,
      forget,
    ),
    outcome,
  );
  void load();
  return panel;
}
