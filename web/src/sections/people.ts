// People and clients: MCP client tokens (created, shown once, revoked) and the
// people the device knows, with their roles and quotas.
import { del, errorText, get, post, put } from "../api";
import { button, clear, field, form, h, toast, value, when } from "../dom";
import type { Section } from "../main";

interface Client {
  name: string;
  role: string;
  ns: string;
  created: number;
  names?: string;
}

export const peopleSection: Section = async (root) => {
  const clients = h("div");
  const created = h("div", { "aria-live": "polite" });
  const people = h("div");
  const refresh = async (): Promise<void> => {
    const [c, p] = await Promise.all([get("/api/clients"), get("/api/people")]);
    if (c.ok) clear(clients, clientTable(c.json.clients, refresh));
    else clear(clients, h("p", { class: "bad" }, errorText(c)));
    if (p.ok) clear(people, peopleTable(p.json.people, refresh));
    else clear(people, h("p", { class: "bad" }, errorText(p)));
  };
  await refresh();
  root.append(
    h("h2", {}, "People and clients"),
    h(
      "section",
      { "aria-labelledby": "new-client-title" },
      h("h3", { id: "new-client-title" }, "New client token"),
      form(
        async (f) => {
          const body: { [k: string]: string | boolean } = {
            name: value(f, "name").trim(),
            role: value(f, "role"),
            names: value(f, "names"),
          };
          const ns = value(f, "ns").trim();
          if (ns) body.ns = ns;
          if ((f.elements.namedItem("shares") as HTMLInputElement).checked) body.shares_owner_ns = true;
          const r = await post("/api/clients", body);
          if (!r.ok) return toast(errorText(r));
          clear(created, tokenOnce(r.json.name, r.json.token));
          f.reset();
          await refresh();
        },
        field("Name", h("input", { name: "name", required: true, pattern: "[a-z0-9][a-z0-9._-]{0,31}" })),
        field(
          "Role",
          h(
            "select",
            { name: "role" },
            h("option", { value: "user" }, "user"),
            h("option", { value: "guest" }, "guest"),
            h("option", { value: "admin" }, "admin"),
          ),
        ),
        field("Person it acts as (default: the name)", h("input", { name: "ns" })),
        field(
          "Tool names in its tools/list",
          h(
            "select",
            { name: "names" },
            h("option", { value: "dotted" }, "dotted (docs.search)"),
            h("option", { value: "plain" }, "plain (docs_search)"),
          ),
        ),
        field("It may share the owner's memory and files (acts as owner)", h("input", { type: "checkbox", name: "shares" })),
        h("div", { class: "row" }, h("button", { type: "submit" }, "Create client")),
      ),
      created,
    ),
    h("section", { "aria-labelledby": "clients-title" }, h("h3", { id: "clients-title" }, "Clients"), clients),
    h("section", { "aria-labelledby": "people-title" }, h("h3", { id: "people-title" }, "People"), people),
  );
};

function tokenOnce(name: string, token: string): HTMLElement {
  const out = h("output", { id: "new-token", class: "mono" }, token);
  return h(
    "div",
    { class: "card" },
    h("p", {}, `The token of ${name}, shown this once: store it now.`),
    h("pre", { tabindex: 0 }, out),
    button("Copy token", async () => {
      try {
        await navigator.clipboard.writeText(token);
        toast("Token copied");
      } catch {
        const range = document.createRange();
        range.selectNodeContents(out);
        getSelection()?.removeAllRanges();
        getSelection()?.addRange(range);
        toast("Selected: copy it with Ctrl+C");
      }
    }),
  );
}

function clientTable(list: Client[], refresh: () => Promise<void>): HTMLElement {
  return h(
    "table",
    {},
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, "Name"),
        h("th", {}, "Role"),
        h("th", {}, "Person"),
        h("th", {}, "Tool names"),
        h("th", {}, "Created"),
        h("th", {}, "Action"),
      ),
    ),
    h(
      "tbody",
      {},
      ...list.map((c) =>
        h(
          "tr",
          { "data-client": c.name },
          h("td", {}, c.name),
          h("td", {}, c.role),
          h("td", {}, c.ns),
          h("td", {}, c.names ?? "dotted"),
          h("td", {}, when(c.created)),
          h(
            "td",
            {},
            h(
              "button",
              {
                type: "button",
                class: "danger",
                "aria-label": `Revoke ${c.name}`,
                onclick: async () => {
                  if (!confirm(`Revoke the token of ${c.name}? Anything using it stops at once.`)) return;
                  const r = await del(`/api/clients/${encodeURIComponent(c.name)}`);
                  toast(r.ok ? `${c.name} revoked` : errorText(r));
                  await refresh();
                },
              },
              "Revoke",
            ),
          ),
        ),
      ),
    ),
  );
}

interface Person {
  id: string;
  role: string;
  quota: { [k: string]: number };
  overridden?: string[];
}

/** The quota fields, their labels and the device's upper bounds (lib/people/people.ts QUOTA_MAXIMUM). */
const QUOTAS: Array<[string, string, number]> = [
  ["vectors", "Memories", 100000],
  ["bytes", "File storage in bytes", 8 * 1024 * 1024 * 1024],
  ["ttlHours", "Memory lifetime in hours", 87600],
  ["pins", "Pinned memories", 10000],
];

function peopleTable(list: Person[], refresh: () => Promise<void>): HTMLElement {
  if (!list.length) return h("p", { class: "mute" }, "Nobody yet besides the owner.");
  return h("div", {}, ...list.map((p) => h("div", { class: "card", "data-person": p.id }, roleForm(p, refresh), quotaForm(p, refresh))));
}

function roleForm(p: Person, refresh: () => Promise<void>): HTMLElement {
  return form(
    async (f) => {
      const r = await put(`/api/people/${encodeURIComponent(p.id)}`, { role: value(f, "role") });
      toast(r.ok ? `${p.id} updated` : errorText(r));
      await refresh();
    },
    h("div", { class: "row" }, h("strong", {}, p.id)),
    field(
      `Role of ${p.id}`,
      h(
        "select",
        { name: "role" },
        ...["admin", "user", "guest", "unknown"].map((r) => h("option", { value: r, selected: r === p.role }, r)),
      ),
    ),
    h("div", { class: "row" }, h("button", { type: "submit", "aria-label": `Save role of ${p.id}` }, "Save")),
  );
}

/** Only the fields changed are sent, so the others keep following the role's default; 0 restores the default. */
function quotaForm(p: Person, refresh: () => Promise<void>): HTMLElement {
  const overridden = p.overridden ?? [];
  return form(
    async (f) => {
      const quota: { [k: string]: number } = {};
      for (const [k] of QUOTAS) {
        const v = value(f, k).trim();
        if (v !== "" && Number(v) !== p.quota[k]) quota[k] = Number(v);
      }
      if (!Object.keys(quota).length) return toast("No quota changed");
      const r = await put(`/api/people/${encodeURIComponent(p.id)}`, { quota });
      toast(r.ok ? `${p.id} quota saved` : errorText(r));
      if (r.ok) await refresh();
    },
    h(
      "div",
      { class: "row" },
      ...QUOTAS.map(([k, label, max]) =>
        field(
          `${label} of ${p.id}${overridden.indexOf(k) >= 0 ? " (set by you)" : ""}`,
          h("input", { name: k, type: "number", min: 0, max, step: 1, required: true, value: String(p.quota[k] ?? 0) }),
        ),
      ),
    ),
    h("p", { class: "mute" }, "0 returns a quota to the role's default (an admin's memories have no lifetime limit: 0)."),
    h("div", { class: "row" }, h("button", { type: "submit", "aria-label": `Save quota of ${p.id}` }, "Save quota")),
  );
}
