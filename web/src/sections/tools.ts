// Tools: every registered tool from GET /api/tools, filterable by name.
import { errorText, get } from "../api";
import { clear, field, h } from "../dom";
import type { Section } from "../main";

interface Tool {
  name: string;
  description: string;
  arguments: Array<{ name: string; type: string; required: boolean; description?: string }>;
  runs: string[];
  callers: string;
  effect: string;
  live: boolean;
  needsKey?: string;
}

export const toolsSection: Section = async (root) => {
  const r = await get("/api/tools");
  root.append(h("h2", {}, "Tools"));
  if (!r.ok) return void root.append(h("p", { class: "bad" }, errorText(r)));
  const tools: Tool[] = r.json.tools;
  const list = h("div");
  const filter = h("input", { type: "search", name: "filter" }) as HTMLInputElement;
  const draw = (): void => {
    const q = filter.value.trim().toLowerCase();
    clear(list, ...tools.filter((t) => !q || t.name.includes(q) || t.description.toLowerCase().includes(q)).map(toolCard));
  };
  filter.addEventListener("input", draw);
  draw();
  root.append(h("p", { class: "mute" }, `${tools.length} tools.`), field("Filter", filter), list);
};

function toolCard(t: Tool): HTMLElement {
  return h(
    "article",
    { class: "card", "data-tool": t.name },
    h("h3", {}, t.name, " ", h("span", { class: t.live ? "ok" : "bad" }, t.live ? "live" : `needs the ${t.needsKey} key`)),
    h("p", {}, t.description),
    h("p", { class: "mute" }, `Runs in: ${t.runs.join(", ")}. Callers: ${t.callers}. Effect: ${t.effect}.`),
    t.arguments.length
      ? h(
          "ul",
          {},
          ...t.arguments.map((a) =>
            h("li", {}, h("code", {}, a.name), ` (${a.type}${a.required ? ", required" : ""})`, a.description ? `: ${a.description}` : ""),
          ),
        )
      : h("p", { class: "mute" }, "No arguments."),
  );
}
