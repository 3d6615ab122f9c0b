// Setup: Wi-Fi, provider keys (write-only, with a check), provider priority,
// the Telegram chat allow-list, and every config knob the owner may set.
import { del, errorText, get, post, put } from "../api";
import { button, clear, field, form, h, toast, value } from "../dom";
import type { Section } from "../main";
import { budgetPanel, embedderPanel, modelsPanel } from "./setup-controls";
import { wifiPanel } from "./setup-wifi";

export const setupSection: Section = async (root) => {
  const [secrets, priority, chats, config, budget, models, embedder, wifi] = await Promise.all([
    get("/api/secrets"),
    get("/api/providers/priority"),
    get("/api/chats"),
    get("/api/config"),
    budgetPanel(),
    modelsPanel(),
    embedderPanel(),
    wifiPanel(),
  ]);
  const keys = h("div");
  const drawKeys = (list: Array<{ name: string; set: boolean }>): void => clear(keys, ...list.map((s) => keyRow(s, refreshKeys)));
  const refreshKeys = async (): Promise<void> => {
    const r = await get("/api/secrets");
    if (r.ok) drawKeys(r.json.secrets);
  };
  if (secrets.ok) drawKeys(secrets.json.secrets);
  else clear(keys, h("p", { class: "bad" }, errorText(secrets)));

  root.append(
    h("h2", {}, "Setup"),
    wifi,
    h(
      "section",
      { "aria-labelledby": "keys-title" },
      h("h3", { id: "keys-title" }, "Keys"),
      h("p", { class: "mute" }, "Keys are write-only: the device never sends them back, only whether each is set."),
      keys,
    ),
    h(
      "section",
      { "aria-labelledby": "prio-title" },
      h("h3", { id: "prio-title" }, "Provider priority"),
      form(
        async (f) => {
          const list = value(f, "priority")
            .split(/[\s,]+/)
            .filter((x) => x);
          const r = await put("/api/providers/priority", { priority: list });
          toast(r.ok ? `Priority: ${r.json.priority.join(", ")}` : errorText(r));
        },
        field(
          "Providers in order (openai, anthropic, mistral)",
          h("input", { name: "priority", value: priority.ok ? priority.json.priority.join(", ") : "" }),
        ),
        h("div", { class: "row" }, h("button", { type: "submit" }, "Save priority")),
      ),
    ),
    models,
    budget,
    embedder,
    h(
      "section",
      { "aria-labelledby": "chats-title" },
      h("h3", { id: "chats-title" }, "Telegram chats allowed to talk"),
      form(
        async (f) => {
          const list = value(f, "chats")
            .split(/[\s,]+/)
            .filter((x) => x);
          const r = await put("/api/chats", { chats: list });
          toast(r.ok ? `${r.json.chats.length} chats allowed` : errorText(r));
        },
        field("Chat ids, one per line", h("textarea", { name: "chats", rows: 3 }, chats.ok ? chats.json.chats.join("\n") : "")),
        h("div", { class: "row" }, h("button", { type: "submit" }, "Save chats")),
      ),
    ),
    h(
      "section",
      { "aria-labelledby": "knobs-title" },
      h("h3", { id: "knobs-title" }, "Settings"),
      h("p", { class: "mute" }, "Budgets, rates, voice, name, time zone and the rest of the device's knobs."),
      config.ok ? h("div", {}, ...config.json.knobs.map(knobRow)) : h("p", { class: "bad" }, errorText(config)),
    ),
  );
};

function keyRow(s: { name: string; set: boolean }, refresh: () => Promise<void>): HTMLElement {
  const status = h("span", { id: `key-${s.name}-status`, class: s.set ? "ok" : "mute" }, s.set ? "set" : "not set");
  const outcome = h("span", { id: `key-${s.name}-check`, role: "status" });
  const input = h("input", { name: "value", type: "password", autocomplete: "off", spellcheck: "false" });
  return h(
    "div",
    { class: "card" },
    form(
      async (f) => {
        const r = await put(`/api/secrets/${s.name}`, { value: value(f, "value") });
        toast(r.ok ? `${s.name} key saved` : errorText(r));
        if (r.ok) await refresh();
      },
      h("div", { class: "row" }, h("strong", {}, s.name), status, outcome),
      field(`New ${s.name} key`, input),
      h(
        "div",
        { class: "row" },
        h("button", { type: "submit" }, "Save"),
        s.set
          ? button(
              "Check",
              async () => {
                outcome.textContent = "checking…";
                const r = await post(`/api/secrets/${s.name}/check`);
                if (!r.ok) outcome.textContent = errorText(r);
                else outcome.textContent = r.json.ok ? "ok" : `${r.json.error}: ${r.json.message}`;
                outcome.className = r.ok && r.json.ok ? "ok" : "bad";
              },
              "quiet",
            )
          : null,
        s.set
          ? button(
              "Clear",
              async () => {
                const r = await del(`/api/secrets/${s.name}`);
                toast(r.ok ? `${s.name} key cleared` : errorText(r));
                await refresh();
              },
              "quiet",
            )
          : null,
      ),
    ),
  );
}

interface Knob {
  key: string;
  value: unknown;
  isDefault: boolean;
  spec: { type: string; min?: number; max?: number; values?: string[]; description: string };
}

function knobRow(k: Knob): HTMLElement {
  let control: HTMLElement;
  if (k.spec.type === "bool") control = h("input", { type: "checkbox", name: "value", checked: k.value === true });
  else if (k.spec.type === "enum")
    control = h("select", { name: "value" }, ...(k.spec.values ?? []).map((v) => h("option", { value: v, selected: v === k.value }, v)));
  else if (k.spec.type === "int")
    control = h("input", { type: "number", name: "value", min: k.spec.min, max: k.spec.max, value: String(k.value) });
  else control = h("input", { name: "value", value: String(k.value ?? "") });
  return h(
    "div",
    { class: "card" },
    form(
      async (f) => {
        const el = f.elements.namedItem("value") as HTMLInputElement;
        const v = k.spec.type === "bool" ? el.checked : k.spec.type === "int" ? Number(el.value) : el.value;
        const r = await put(`/api/config/${k.key}`, { value: v });
        toast(r.ok ? `${k.key} saved` : errorText(r));
      },
      field(`${k.key}: ${k.spec.description}`, control),
      h("div", { class: "row" }, h("button", { type: "submit", "aria-label": `Save ${k.key}` }, "Save")),
    ),
  );
}
