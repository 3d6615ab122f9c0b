// The owner's view of what everyone stored: each person's files (listed by
// namespace, deleted after a confirm) and every skill capsule (an owner's or
// an agent's deleted, the built-ins kept). Admin tokens only.
import { del, errorText, get } from "../api";
import { clear, field, form, h, toast, value, when } from "../dom";

interface FileRow {
  project: string;
  name: string;
  kind: string;
  size: number;
  shared: boolean;
  updated: number;
  quarantined?: boolean;
}

const path = (...parts: string[]): string => parts.map(encodeURIComponent).join("/");

export function everyonesFilesPanel(): HTMLElement {
  const people = h("div");
  const files = h("div", { "aria-live": "polite" });
  const show = async (ns: string): Promise<void> => {
    const r = await get(`/api/files/${encodeURIComponent(ns)}`);
    if (!r.ok) return clear(files, h("p", { class: "bad" }, errorText(r)));
    const rows = r.json.files as FileRow[];
    clear(
      files,
      h("h4", {}, `Files of ${ns} (${rows.length}${r.json.more ? ` of ${rows.length + r.json.more}` : ""})`),
      rows.length ? null : h("p", { class: "mute" }, `${ns} has no files.`),
      ...rows.map((f) =>
        h(
          "div",
          { class: "card", "data-owner-file": `${ns}/${f.project}/${f.name}` },
          h(
            "p",
            {},
            `${f.project}/${f.name} (${f.kind}, ${f.size} bytes${f.shared ? ", shared" : ""}${f.quarantined ? ", awaiting a verdict" : ""}, ${when(f.updated)})`,
          ),
          h(
            "button",
            {
              type: "button",
              class: "danger",
              "aria-label": `Delete ${f.project}/${f.name} of ${ns}`,
              onclick: async () => {
                if (!confirm(`Delete ${f.project}/${f.name} of ${ns}? This cannot be undone.`)) return;
                const res = await del(`/api/files/${path(ns, f.project, f.name)}`);
                toast(res.ok ? `${f.project}/${f.name} of ${ns} deleted` : errorText(res));
                await show(ns);
                await listPeople();
              },
            },
            "Delete",
          ),
        ),
      ),
    );
  };
  const listPeople = async (): Promise<void> => {
    const r = await get("/api/files");
    if (!r.ok) return clear(people, h("p", { class: "bad" }, errorText(r)));
    const list = r.json.people as Array<{ ns: string; files: number; bytes: number }>;
    if (!list.length) return clear(people, h("p", { class: "mute" }, "Nobody has stored a file."));
    clear(
      people,
      form(
        (f) => void show(value(f, "ns")),
        field(
          "Person",
          h("select", { name: "ns" }, ...list.map((p) => h("option", { value: p.ns }, `${p.ns}: ${p.files} files, ${p.bytes} bytes`))),
        ),
        h("div", { class: "row" }, h("button", { type: "submit" }, "Show their files")),
      ),
    );
  };
  void listPeople();
  return h(
    "section",
    { "aria-labelledby": "all-files-title" },
    h("h3", { id: "all-files-title" }, "Everyone's files"),
    h("p", { class: "mute" }, "The owner sees every person's files by name and size, never their contents, and may delete any of them."),
    people,
    files,
  );
}

interface Skill {
  id: string;
  title: string;
  source: string;
  approved: boolean;
  bytes: number;
}

export function skillsPanel(): HTMLElement {
  const list = h("div");
  const refresh = async (): Promise<void> => {
    const r = await get("/api/skills");
    if (!r.ok) return clear(list, h("p", { class: "bad" }, errorText(r)));
    const skills = r.json.skills as Skill[];
    clear(
      list,
      r.json.note ? h("p", { class: "mute" }, r.json.note) : null,
      ...skills.map((k) =>
        h(
          "div",
          { class: "card", "data-capsule": k.id },
          h("p", {}, h("strong", {}, k.title), ` (${k.id}; ${k.source}${k.approved ? "" : ", awaiting approval"}, ${k.bytes} bytes)`),
          k.source === "built-in"
            ? null
            : h(
                "button",
                {
                  type: "button",
                  class: "danger",
                  "aria-label": `Delete capsule ${k.id}`,
                  onclick: async () => {
                    if (!confirm(`Delete the skill capsule ${k.id}? The assistant stops using it at once.`)) return;
                    const res = await del(`/api/skills/${encodeURIComponent(k.id)}`);
                    toast(res.ok ? `${k.id} deleted` : errorText(res));
                    await refresh();
                  },
                },
                "Delete",
              ),
        ),
      ),
    );
  };
  void refresh();
  return h(
    "section",
    { "aria-labelledby": "capsules-title" },
    h("h3", { id: "capsules-title" }, "Skill capsules"),
    h("p", { class: "mute" }, "Capsules the owner or the assistant wrote can be deleted; the built-in ones stay."),
    list,
  );
}
