// Memory, files and history, through the same tools an MCP client calls
// (memory.search, memory.pin, files.list, files.read, files.share,
// memory.episodic), so a member's token sees only that member's own. An admin
// also sees everyone's files and the skill capsules (./owner-files.ts).
import { callTool, del, errorText } from "../api";
import { button, clear, field, form, h, toast, value } from "../dom";
import type { Section } from "../main";
import { everyonesFilesPanel, skillsPanel } from "./owner-files";

export const memorySection: Section = async (root, session) => {
  const hits = h("div", { "aria-live": "polite" });
  const search = async (query: string): Promise<void> => {
    const r = await callTool("memory.search", { query, n_results: 20 });
    const lines = r.text.split("\n").filter((l) => /^- \[\d+%\] /.test(l));
    if (!r.ok || !lines.length) return clear(hits, h("p", { class: r.ok ? "mute" : "bad" }, r.text));
    clear(
      hits,
      ...lines.map((line) => {
        const content = line.replace(/^- \[\d+%\] /, "");
        const act = (action: string) => async (): Promise<void> => {
          const res = await callTool("memory.pin", { action, content });
          toast(res.text);
          await search(query);
        };
        return h(
          "div",
          { class: "card", "data-memory": content },
          h("p", {}, line.slice(2)),
          h(
            "div",
            { class: "row" },
            button("Pin", act("pin")),
            button("Unpin", act("unpin"), "quiet"),
            button("Delete", act("delete"), "danger"),
          ),
        );
      }),
    );
  };
  const files = h("div");
  const reader = h("div", { "aria-live": "polite" });
  const listFiles = async (): Promise<void> => {
    const r = await callTool("files.list");
    const rows = r.text.split("\n").filter((l) => /^- [^/\s]+\/\S+ \(/.test(l));
    if (!rows.length) return clear(files, h("p", { class: "mute" }, r.text));
    clear(
      files,
      ...rows.map((line) => {
        const [project, name] = line.slice(2, line.indexOf(" (")).split("/");
        const shared = /yours, shared/.test(line);
        const mine = /\byours\b/.test(line);
        return h(
          "div",
          { class: "card", "data-file": `${project}/${name}` },
          h("p", {}, line.slice(2)),
          h(
            "div",
            { class: "row" },
            button(`Read`, async () => {
              const res = await callTool("files.read", { project, name });
              clear(reader, h("h4", {}, `${project}/${name}`), h("pre", { tabindex: 0, id: "file-text" }, res.text));
            }),
            button(
              shared ? "Unshare" : "Share",
              async () => {
                const res = await callTool("files.share", { project, name, share: !shared });
                toast(res.text);
                await listFiles();
              },
              "quiet",
            ),
            mine
              ? button(
                  "Delete",
                  async () => {
                    if (!confirm(`Delete ${project}/${name}? This cannot be undone.`)) return;
                    const res = await del(`/api/files/${encodeURIComponent(project)}/${encodeURIComponent(name)}`);
                    toast(res.ok ? `${project}/${name} deleted` : errorText(res));
                    await listFiles();
                  },
                  "danger",
                )
              : null,
          ),
        );
      }),
    );
  };
  const history = h("pre", { tabindex: 0, id: "history" });
  await listFiles();
  root.append(
    h("h2", {}, "Memory and files"),
    h(
      "section",
      { "aria-labelledby": "mem-title" },
      h("h3", { id: "mem-title" }, "Memories"),
      form(
        (f) => void search(value(f, "query")),
        field("Search memories", h("input", { name: "query", type: "search", required: true })),
        h("div", { class: "row" }, h("button", { type: "submit" }, "Search")),
      ),
      hits,
    ),
    h("section", { "aria-labelledby": "files-title" }, h("h3", { id: "files-title" }, "Files"), files, reader),
    ...(session.role === "admin" ? [everyonesFilesPanel(), skillsPanel()] : []),
    h(
      "section",
      { "aria-labelledby": "hist-title" },
      h("h3", { id: "hist-title" }, "History"),
      form(
        async (f) => {
          const args: { [k: string]: unknown } = { limit: 50 };
          if (value(f, "kind")) args.kind = value(f, "kind");
          if (value(f, "text").trim()) args.text = value(f, "text").trim();
          if (value(f, "hours")) args.since_hours = Number(value(f, "hours"));
          const r = await callTool("memory.episodic", args);
          history.textContent = r.text;
        },
        field(
          "Kind",
          h(
            "select",
            { name: "kind" },
            ...["", "message", "tool_output", "llm_response", "file", "image", "audio", "transcript", "log"].map((k) =>
              h("option", { value: k }, k || "any"),
            ),
          ),
        ),
        field("Text contains", h("input", { name: "text" })),
        field("Last hours", h("input", { name: "hours", type: "number", min: 1, max: 8760 })),
        h("div", { class: "row" }, h("button", { type: "submit" }, "Show history")),
      ),
      history,
    ),
  );
};
