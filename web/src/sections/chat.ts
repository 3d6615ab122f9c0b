// Chat: type to talk (POST /api/chat) and see each turn's anatomy: tool calls
// with their results, memory written, device actions, usage. The talk button
// records the microphone and sends it to POST /api/voice, then plays the answer.
import { errorText, request, savedToken } from "../api";
import { append, field, form, h, value } from "../dom";
import type { Section } from "../main";
import { MIC_UNAVAILABLE, recordToggle } from "../wav";

export const chatSection: Section = async (root) => {
  const log = h("div", { id: "chat-log", "aria-live": "polite" });
  const input = h("textarea", { name: "text", rows: 2, required: true });
  const talk = h("button", { type: "button", id: "talk", "aria-pressed": "false" }, "Talk");
  const busy = h("p", { class: "mute", role: "status" });
  recordToggle(talk, {
    idle: "Talk",
    recording: "Stop and send",
    onStart: () => {
      busy.textContent = "Listening…";
    },
    onUnavailable: () => {
      busy.textContent = MIC_UNAVAILABLE;
    },
    onWav: async (wav) => {
      busy.textContent = "Thinking…";
      const r = await request("POST", "/api/voice", undefined, { type: "audio/wav", bytes: wav });
      busy.textContent = "";
      log.append(r.ok ? await voiceTurn(r.json) : h("p", { class: "bad" }, errorText(r)));
    },
  });
  root.append(
    h("h2", {}, "Chat"),
    log,
    form(
      async (f) => {
        const text = value(f, "text").trim();
        if (!text) return;
        f.reset();
        log.append(h("p", { class: "card" }, h("strong", {}, "You: "), text));
        busy.textContent = "Thinking…";
        const r = await request("POST", "/api/chat", { text });
        busy.textContent = "";
        log.append(r.ok ? turnView(r.json) : h("p", { class: "bad" }, errorText(r)));
        input.focus();
      },
      field("Message", input),
      h("div", { class: "row" }, h("button", { type: "submit" }, "Send"), talk),
    ),
    busy,
  );
  input.addEventListener("keydown", (ev) => {
    const k = ev as KeyboardEvent;
    if (k.key === "Enter" && !k.shiftKey) {
      k.preventDefault();
      (input.closest("form") as HTMLFormElement).requestSubmit();
    }
  });
};

/** As the turn reports it; the whole result is in the results ring under `tag` (results.get). */
interface ToolCall {
  round: number;
  name: string;
  ok: boolean;
  truncated?: boolean;
  tag?: string;
  /** The tool's result text (at most 2 KB, then a cut marker); ok false: it is an error. */
  result?: string;
}

/** One turn's answer and what it did. */
function turnView(t: any): HTMLElement {
  const calls: ToolCall[] = Array.isArray(t.toolCalls) ? t.toolCalls : [];
  const usage = t.usage ? `${t.usage.inputTokens ?? 0} in, ${t.usage.outputTokens ?? 0} out tokens` : "";
  const el = h(
    "article",
    { class: "card turn" },
    h("p", {}, h("strong", {}, "Halo: "), t.reply || (t.failure ? `No answer (${t.failure}).` : "")),
    t.ask ? h("p", {}, h("em", {}, t.ask)) : null,
    h("p", { class: "mute" }, [t.provider, t.model, `${t.rounds ?? 0} rounds`, usage].filter((x) => x).join(" · ")),
  );
  const details = h("details", {}, h("summary", {}, `Anatomy: ${calls.length} tool calls`));
  if (calls.length)
    append(details, [
      h(
        "ol",
        { class: "tool-calls" },
        ...calls.map((c) =>
          h(
            "li",
            {},
            h("code", {}, c.name),
            ` round ${c.round}, `,
            h("span", { class: c.ok ? "ok" : "bad" }, c.ok ? "ok" : "failed"),
            c.tag ? h("span", { class: "mute" }, ` · result ${c.tag}${c.truncated ? " (cut for the model)" : ""}`) : null,
            typeof c.result === "string"
              ? h(
                  "details",
                  { class: "tool-result" },
                  h("summary", {}, c.ok ? `Result of ${c.name}` : `Error from ${c.name}`),
                  h("pre", { tabindex: 0, class: c.ok ? undefined : "bad" }, c.result),
                )
              : null,
          ),
        ),
      ),
    ]);
  for (const [name, label] of [
    ["memoryWritten", "Memory written"],
    ["device", "Device actions"],
    ["sessionOps", "Sessions"],
    ["problems", "Problems"],
    ["notes", "Notes"],
  ]) {
    if (Array.isArray(t[name]) && t[name].length)
      append(details, [h("h4", {}, label), h("pre", { tabindex: 0 }, JSON.stringify(t[name], null, 1))]);
  }
  el.append(details);
  if (calls.length) (details as HTMLDetailsElement).open = true;
  return el;
}

async function voiceTurn(v: any): Promise<HTMLElement> {
  const el = h(
    "article",
    { class: "card turn" },
    h("p", {}, h("strong", {}, "You said: "), v.transcript ?? ""),
    h("p", {}, h("strong", {}, "Halo: "), v.reply ?? ""),
  );
  if (typeof v.audio === "string") {
    const res = await fetch(v.audio, { headers: { authorization: `Bearer ${savedToken() ?? ""}` }, credentials: "omit" });
    if (res.ok) {
      const audio = h("audio", { controls: true, id: "voice-reply" }) as HTMLAudioElement;
      audio.src = URL.createObjectURL(await res.blob());
      el.append(audio);
      audio.play().catch(() => undefined);
    }
  }
  return el;
}
