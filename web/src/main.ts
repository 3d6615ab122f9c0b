// The owner's page: sign in with a client token, then one section at a time,
// chosen by the URL's #fragment so the back button and links work.
import { forgetToken, get, savedToken, saveToken, whenUnauthorized } from "./api";
import { clear, field, form, h, value } from "./dom";
import { approvalsSection, pendingCount } from "./sections/approvals";
import { chatSection } from "./sections/chat";
import { deviceSection } from "./sections/device";
import { memorySection } from "./sections/memory";
import { peopleSection } from "./sections/people";
import { setupSection } from "./sections/setup";
import { toolsSection } from "./sections/tools";

export interface Session {
  name: string;
  role: string;
  ns: string;
}

/** A section draws itself into `main` and returns what stops its live parts, if any. */
export type Section = (main: HTMLElement, session: Session) => Promise<(() => void) | undefined>;

const SECTIONS: Array<{ id: string; title: string; adminOnly: boolean; draw: Section }> = [
  { id: "chat", title: "Chat", adminOnly: false, draw: chatSection },
  { id: "setup", title: "Setup", adminOnly: true, draw: setupSection },
  { id: "people", title: "People and clients", adminOnly: true, draw: peopleSection },
  { id: "approvals", title: "Approvals", adminOnly: true, draw: approvalsSection },
  { id: "tools", title: "Tools", adminOnly: true, draw: toolsSection },
  { id: "memory", title: "Memory and files", adminOnly: false, draw: memorySection },
  { id: "device", title: "Device", adminOnly: false, draw: deviceSection },
];

const main = document.getElementById("main")!;
const nav = document.getElementById("nav")!;
const who = document.getElementById("who")!;
const signOut = document.getElementById("signout")!;
let session: Session | undefined;
let stopLive: (() => void) | undefined;

function signInScreen(problem?: string): void {
  session = undefined;
  nav.hidden = true;
  signOut.hidden = true;
  who.textContent = "";
  const input = h("input", { name: "token", type: "password", autocomplete: "off", required: true, spellcheck: "false" });
  clear(
    main,
    h(
      "section",
      { "aria-labelledby": "signin-title" },
      h("h2", { id: "signin-title" }, problem ? "Token not accepted" : "Sign in"),
      problem ? h("p", { class: "bad", role: "alert" }, problem) : null,
      h("p", {}, "Paste a client token: the owner's (admin-token in the device's data folder) or one the owner made for you."),
      h("p", { class: "mute" }, "It stays in this browser for this address only and is sent only in the Authorization header."),
      form(
        (f) => {
          saveToken(value(f, "token").trim());
          void start();
        },
        field("Client token", input),
        h("div", { class: "row" }, h("button", { type: "submit" }, "Sign in")),
      ),
    ),
  );
  input.focus();
}

async function start(): Promise<void> {
  if (!savedToken()) return signInScreen();
  const me = await get("/api/whoami");
  if (me.status === 401) return; // whenUnauthorized already drew the screen
  if (!me.ok) return signInScreen(typeof me.json?.error === "string" ? me.json.error : "The device refused the request.");
  session = me.json as Session;
  who.textContent = `${session.name} (${session.role})`;
  signOut.hidden = false;
  await drawNav();
  await show();
}

async function drawNav(): Promise<void> {
  if (!session) return;
  const waiting = session.role === "admin" ? await pendingCount() : 0;
  const here = currentId();
  clear(
    nav,
    ...SECTIONS.filter((s) => !s.adminOnly || session!.role === "admin").map((s) =>
      h(
        "a",
        { href: `#${s.id}`, "aria-current": s.id === here ? "page" : undefined },
        s.title,
        s.id === "approvals" && waiting > 0 ? h("span", { class: "badge", "aria-label": `${waiting} waiting` }, String(waiting)) : null,
      ),
    ),
  );
  nav.hidden = false;
}

function currentId(): string {
  const id = location.hash.slice(1);
  const allowed = SECTIONS.filter((s) => !s.adminOnly || session?.role === "admin");
  return allowed.some((s) => s.id === id) ? id : allowed[0].id;
}

async function show(): Promise<void> {
  if (!session) return;
  if (stopLive) stopLive();
  stopLive = undefined;
  const id = currentId();
  for (const a of Array.from(nav.querySelectorAll("a"))) {
    if (a.getAttribute("href") === `#${id}`) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  const section = SECTIONS.find((s) => s.id === id)!;
  document.title = `${section.title} - Halo`;
  clear(main, h("p", { class: "mute" }, "Loading…"));
  // Each visit asks again who the token is: a revoked token gets the sign-in screen at once.
  if (!(await get("/api/whoami")).ok || !session) return;
  void drawNav();
  const el = h("div", { "data-section": id });
  stopLive = await section.draw(el, session);
  if (!session) return;
  clear(main, el);
  main.focus();
}

whenUnauthorized(() => {
  if (stopLive) stopLive();
  stopLive = undefined;
  signInScreen("The device does not know this token, or it was revoked. Paste a current one.");
});
signOut.addEventListener("click", () => {
  forgetToken();
  if (stopLive) stopLive();
  stopLive = undefined;
  signInScreen();
});
window.addEventListener("hashchange", () => void show());
window.addEventListener("halo:pending", () => void drawNav());
void start();
