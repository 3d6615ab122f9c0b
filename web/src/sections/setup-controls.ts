// Setup's owner controls: budgets and rates per provider, the model each
// provider is asked for and the orchestrator's, and the memory embedder
// (locked while memories exist unless they are re-embedded).
import { errorText, get, put } from "../api";
import { button, clear, field, form, h, toast, value } from "../dom";

const num = (s: string): number | null => (s.trim() === "" ? null : Number(s));

interface BudgetRow {
  provider: string;
  usd: number;
  input_tokens: number;
  output_tokens: number;
  usd_ceiling: number | null;
  token_ceiling: number | null;
  usd_per_mtok_in: number | null;
  usd_per_mtok_out: number | null;
  over: boolean;
}

export async function budgetPanel(): Promise<HTMLElement> {
  const r = await get("/api/budget");
  const box = h("section", { "aria-labelledby": "budget-title" }, h("h3", { id: "budget-title" }, "Budgets and rates"));
  if (!r.ok) return box.appendChild(h("p", { class: "bad" }, errorText(r))) && box;
  const b = r.json;
  box.append(
    h("p", { class: "mute" }, `This period: ${b.period_start} to ${b.next_reset}. Empty means no ceiling.`),
    ...(b.providers as BudgetRow[]).map((p) =>
      h(
        "div",
        { class: "card", "data-budget": p.provider },
        form(
          async (f) => {
            const body = {
              usd_ceiling: num(value(f, "usd_ceiling")),
              token_ceiling: num(value(f, "token_ceiling")),
              usd_per_mtok_in: num(value(f, "usd_per_mtok_in")),
              usd_per_mtok_out: num(value(f, "usd_per_mtok_out")),
            };
            const res = await put(`/api/budget/${p.provider}`, body);
            toast(res.ok ? `${p.provider} budget saved` : errorText(res));
          },
          h(
            "p",
            {},
            h("strong", {}, p.provider),
            ` ${p.input_tokens + p.output_tokens} tokens, $${p.usd.toFixed(4)} spent`,
            p.over ? h("span", { class: "bad" }, " (over its ceiling)") : null,
          ),
          h(
            "div",
            { class: "row" },
            field(
              `${p.provider} ceiling in dollars`,
              h("input", { name: "usd_ceiling", type: "number", min: 0, step: "any", value: p.usd_ceiling ?? "" }),
            ),
            field(
              `${p.provider} ceiling in tokens`,
              h("input", { name: "token_ceiling", type: "number", min: 0, value: p.token_ceiling ?? "" }),
            ),
            field(
              `${p.provider} $ per million input tokens`,
              h("input", { name: "usd_per_mtok_in", type: "number", min: 0, step: "any", value: p.usd_per_mtok_in ?? "" }),
            ),
            field(
              `${p.provider} $ per million output tokens`,
              h("input", { name: "usd_per_mtok_out", type: "number", min: 0, step: "any", value: p.usd_per_mtok_out ?? "" }),
            ),
          ),
          h("div", { class: "row" }, h("button", { type: "submit", "aria-label": `Save ${p.provider} budget` }, "Save")),
        ),
      ),
    ),
    form(
      async (f) => {
        const res = await put("/api/budget", { reset_day: Number(value(f, "reset_day")) });
        toast(res.ok ? "Reset day saved" : errorText(res));
      },
      field("Budget period starts on day (1-28)", h("input", { name: "reset_day", type: "number", min: 1, max: 28, value: b.reset_day })),
      h("div", { class: "row" }, h("button", { type: "submit" }, "Save reset day")),
    ),
  );
  return box;
}

export async function modelsPanel(): Promise<HTMLElement> {
  const r = await get("/api/models");
  const box = h("section", { "aria-labelledby": "models-title" }, h("h3", { id: "models-title" }, "Models"));
  if (!r.ok) return box.appendChild(h("p", { class: "bad" }, errorText(r))) && box;
  const m = r.json;
  const providers: Array<{ provider: string; model: string; default_model: string; chosen: boolean }> = m.providers;
  box.append(
    form(
      async (f) => {
        const model = value(f, "model").trim();
        const res = await put("/api/models/orchestrator", { provider: value(f, "provider"), model: model || null });
        toast(res.ok ? "Orchestrator model saved" : errorText(res));
      },
      field(
        "Orchestrator provider",
        h(
          "select",
          { name: "provider" },
          ...providers.map((p) => h("option", { value: p.provider, selected: p.provider === m.orchestrator.provider }, p.provider)),
        ),
      ),
      field("Orchestrator model (empty: that provider's model)", h("input", { name: "model", value: m.orchestrator.model ?? "" })),
      h("div", { class: "row" }, h("button", { type: "submit" }, "Save orchestrator")),
    ),
    ...providers.map((p) => {
      const list = h("p", { class: "mute", "aria-live": "polite" });
      return h(
        "div",
        { class: "card", "data-model": p.provider },
        form(
          async (f) => {
            const model = value(f, "model").trim();
            const res = await put(`/api/models/${p.provider}`, { model: model || null });
            toast(res.ok ? `${p.provider} model saved` : errorText(res));
          },
          field(`${p.provider} model (default ${p.default_model})`, h("input", { name: "model", value: p.chosen ? p.model : "" })),
          h(
            "div",
            { class: "row" },
            h("button", { type: "submit", "aria-label": `Save ${p.provider} model` }, "Save"),
            button(
              "List available",
              async () => {
                const res = await get(`/api/models/${p.provider}/available`);
                clear(list, res.ok ? (res.json.models as string[]).join(", ") : errorText(res));
              },
              "quiet",
            ),
          ),
          list,
        ),
      );
    }),
  );
  return box;
}

export async function embedderPanel(): Promise<HTMLElement> {
  const r = await get("/api/embedder");
  const box = h("section", { "aria-labelledby": "embedder-title" }, h("h3", { id: "embedder-title" }, "Memory embedder"));
  if (!r.ok) return box.appendChild(h("p", { class: "bad" }, errorText(r))) && box;
  const e = r.json;
  box.append(
    h("p", {}, `In use: ${e.active}; ${e.vectors} memories.`, e.locked ? " Locked while memories exist: a change re-embeds them all." : ""),
    form(
      async (f) => {
        const body: { [k: string]: unknown } = { provider: value(f, "provider"), dims: Number(value(f, "dims")) };
        if (body.provider === "openai") {
          body.model = value(f, "model").trim();
          body.base_url = value(f, "base_url").trim();
        }
        if (e.locked) body.reembed = true;
        const res = await put("/api/embedder", body);
        toast(res.ok ? String(res.json.result ?? "Embedder saved") : errorText(res));
      },
      field(
        "Embedder",
        h(
          "select",
          { name: "provider" },
          ...["offline", "openai"].map((p) => h("option", { value: p, selected: p === e.setting.provider }, p)),
        ),
      ),
      field("Dimensions", h("input", { name: "dims", type: "number", min: 8, max: 4096, value: e.setting.dims })),
      field("Model (openai)", h("input", { name: "model", value: e.setting.model ?? "" })),
      field("Base URL (openai)", h("input", { name: "base_url", value: e.setting.base_url ?? e.setting.baseUrl ?? "" })),
      h("div", { class: "row" }, h("button", { type: "submit" }, e.locked ? "Save and re-embed" : "Save embedder")),
    ),
  );
  return box;
}
