// Approvals: what the assistant made that waits for the owner: skill capsules
// (read before approving), routines, downloads under the trust policy, and the
// wallet's payments over the owner's limits and tokens from others.
import { callTool, errorText, get, post } from "../api";
import { button, clear, h, toast, when } from "../dom";
import type { Section } from "../main";

/** How many things wait for the owner (the badge in the navigation). */
export async function pendingCount(): Promise<number> {
  const [s, r, d, n, w] = await Promise.all([
    get("/api/skills/pending"),
    get("/api/routines"),
    get("/api/downloads"),
    get("/api/nostr/skills"),
    get("/api/wallet/approvals"),
  ]);
  return (
    waitingWallet(w.json?.approvals).length +
    waiting(s.json?.pending).length +
    waitingRoutines(r.json?.routines).length +
    waitingDownloads(d.json?.downloads).length +
    waitingNostr(n.json?.skills).length
  );
}

const waiting = (list: unknown): Array<{ id: string; title: string }> => (Array.isArray(list) ? list : []);
const waitingRoutines = (list: unknown): Array<{ id: string; name: string; prompt: string; schedule: unknown; owner: string }> =>
  Array.isArray(list) ? list.filter((r) => r.kind === "routine" && !r.approved) : [];
const waitingDownloads = (list: unknown): Array<{ id: string; url: string; owner: string; name: string; created: number }> =>
  Array.isArray(list) ? list.filter((d) => d.state === "awaiting-approval") : [];

const waitingWallet = (
  list: unknown,
): Array<{ id: string; kind: string; by: string; amount: number; mint?: string; source?: string; why: string; created: number }> =>
  Array.isArray(list) ? list.filter((a) => a.state === "awaiting-approval") : [];

const waitingNostr = (
  list: unknown,
): Array<{ id: string; author: string; description: string; content: string; requiresTools: string[] }> =>
  Array.isArray(list) ? list.filter((k) => !k.approved) : [];

export const approvalsSection: Section = async (root) => {
  const body = h("div");
  const refresh = async (): Promise<void> => {
    const [s, r, d, n, w] = await Promise.all([
      get("/api/skills/pending"),
      get("/api/routines"),
      get("/api/downloads"),
      get("/api/nostr/skills"),
      get("/api/wallet/approvals"),
    ]);
    const wallet = waitingWallet(w.json?.approvals);
    const skills = waiting(s.json?.pending);
    const nostr = waitingNostr(n.json?.skills);
    const routines = waitingRoutines(r.json?.routines);
    const downloads = waitingDownloads(d.json?.downloads);
    const decide = (path: string, label: string) => async (): Promise<void> => {
      const res = await post(path);
      toast(res.ok ? label : errorText(res));
      await refresh();
      window.dispatchEvent(new Event("halo:pending"));
    };
    const capsules = await Promise.all(skills.map((k) => callTool("skill.get", { id: k.id })));
    clear(
      body,
      h("h3", {}, `Wallet (${wallet.length})`),
      ...wallet.map((a) =>
        h(
          "article",
          { class: "card", "data-wallet-approval": a.id },
          h(
            "p",
            {},
            a.kind === "receive"
              ? `A token of ${a.amount} sats from ${a.source ?? a.by} (${a.mint ?? "unknown mint"}): redeem it?`
              : `${a.by} asks to ${a.kind === "send" ? "send a token of" : "pay an invoice of"} ${a.amount} sats: ${a.why} (${when(a.created)})`,
          ),
          h(
            "div",
            { class: "row" },
            button("Approve", decide(`/api/wallet/approvals/${a.id}/approve`, "Wallet approval given")),
            button("Reject", decide(`/api/wallet/approvals/${a.id}/reject`, "Wallet approval refused"), "quiet"),
          ),
        ),
      ),
      h("h3", {}, `Skills (${skills.length})`),
      s.ok ? null : h("p", { class: "bad" }, errorText(s)),
      ...skills.map((k, i) =>
        h(
          "article",
          { class: "card", "data-skill": k.id, "aria-label": `Skill ${k.id}` },
          h("h4", {}, `${k.title} (${k.id})`),
          h("pre", { tabindex: 0 }, capsules[i].text),
          h(
            "div",
            { class: "row" },
            button(`Approve`, decide(`/api/skills/${k.id}/approve`, `${k.id} approved`)),
            button(`Reject`, decide(`/api/skills/${k.id}/reject`, `${k.id} rejected`), "quiet"),
          ),
        ),
      ),
      h("h3", {}, `Skills from Nostr (${nostr.length})`),
      ...nostr.map((k) =>
        h(
          "article",
          { class: "card", "data-nostr-skill": k.id },
          h("h4", {}, k.description),
          h("p", { class: "mute" }, `By ${k.author.slice(0, 16)}…; needs tools: ${k.requiresTools.join(", ") || "none"}`),
          h("pre", { tabindex: 0 }, k.content),
          h(
            "div",
            { class: "row" },
            button("Approve", decide(`/api/nostr/skills/${k.id}/approve`, "Nostr skill approved")),
            button("Reject", decide(`/api/nostr/skills/${k.id}/reject`, "Nostr skill rejected"), "quiet"),
          ),
        ),
      ),
      h("h3", {}, `Routines (${routines.length})`),
      ...routines.map((rt) =>
        h(
          "article",
          { class: "card", "data-routine": rt.id },
          h("h4", {}, `${rt.name} (for ${rt.owner})`),
          h("p", {}, rt.prompt),
          h("p", { class: "mute" }, JSON.stringify(rt.schedule)),
          h(
            "div",
            { class: "row" },
            button("Approve", decide(`/api/routines/${rt.id}/approve`, "Routine approved")),
            button("Reject", decide(`/api/routines/${rt.id}/reject`, "Routine rejected"), "quiet"),
          ),
        ),
      ),
      h("h3", {}, `Downloads (${downloads.length})`),
      ...downloads.map((dl) =>
        h(
          "article",
          { class: "card", "data-download": dl.id },
          h("p", {}, `${dl.owner} asks for ${dl.url} as ${dl.name} (${when(dl.created)})`),
          h(
            "div",
            { class: "row" },
            button("Approve", decide(`/api/downloads/${dl.id}/approve`, "Download approved")),
            button("Reject", decide(`/api/downloads/${dl.id}/reject`, "Download rejected"), "quiet"),
          ),
        ),
      ),
    );
  };
  await refresh();
  root.append(h("h2", {}, "Approvals"), body);
};
