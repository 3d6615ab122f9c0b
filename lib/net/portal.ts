// The captive portal's HTTP side: the setup page, its form, and the probe
// URLs that phones and laptops request to detect a portal (answered with a
// redirect to the page, so the system opens it). Plain request in, plain
// answer out; the host serves it while the access point is up.
import { utf8Length } from "../util/utf8";
import { checkWifiJoin, type WifiJoin } from "./wifi-credentials";

/** The form body is small; anything bigger is refused unread. */
export const PORTAL_BODY_MAX_BYTES = 1024;

/** Connectivity checks of Android, Apple, Windows, Firefox and others. */
export const PORTAL_PROBE_PATHS: readonly string[] = [
  "/generate_204",
  "/gen_204",
  "/hotspot-detect.html",
  "/library/test/success.html",
  "/ncsi.txt",
  "/connecttest.txt",
  "/redirect",
  "/canonical.html",
  "/success.txt",
];

export interface PortalAnswer {
  status: number;
  headers: { [name: string]: string };
  body: string;
  /** Set when the form carried credentials worth trying. */
  join?: WifiJoin;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(deviceName: string, message: string): string {
  return (
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(deviceName)} setup</title></head><body><h1>${escapeHtml(deviceName)}: Wi-Fi setup</h1>` +
    (message ? `<p>${escapeHtml(message)}</p>` : "") +
    `<form method="post" action="/setup"><label>Network <input name="ssid" maxlength="32" required></label><br>` +
    `<label>Password <input name="password" type="password" maxlength="64"></label><br>` +
    `<button type="submit">Join</button></form></body></html>`
  );
}

function html(status: number, body: string): PortalAnswer {
  return { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }, body };
}

/** Decodes an application/x-www-form-urlencoded body; undefined when malformed. */
export function parseForm(body: string): { [key: string]: string } | undefined {
  const out: { [key: string]: string } = {};
  if (body === "") return out;
  for (const pair of body.split("&")) {
    const eq = pair.indexOf("=");
    const raw = eq < 0 ? [pair, ""] : [pair.slice(0, eq), pair.slice(eq + 1)];
    try {
      const [k, v] = raw.map((s) => decodeURIComponent(s.replace(/\+/g, " ")));
      if (!(k in out)) out[k] = v;
    } catch {
      return undefined;
    }
  }
  return out;
}

/** Answers one request to the portal; `address` is the device's address on its access point. */
export function portalRequest(method: string, path: string, body: string, address: string, deviceName: string): PortalAnswer {
  const bare = path.split("?")[0];
  if (PORTAL_PROBE_PATHS.includes(bare)) return { status: 302, headers: { location: `http://${address}/` }, body: "" };
  if (bare === "/setup" && method === "POST") {
    if (utf8Length(body) > PORTAL_BODY_MAX_BYTES) return html(413, page(deviceName, "That form was too large."));
    const form = parseForm(body);
    if (!form || typeof form.ssid !== "string") return html(400, page(deviceName, "The form could not be read; try again."));
    const join = { ssid: form.ssid, password: form.password ?? "" };
    const problem = checkWifiJoin(join);
    if (problem) return html(400, page(deviceName, `Not saved: ${problem}`));
    return { ...html(200, page(deviceName, `Joining "${join.ssid}". This access point closes once the device is on that network.`)), join };
  }
  if (method !== "GET" && method !== "HEAD") return html(405, page(deviceName, "Only the form below is accepted here."));
  // Every other page is the setup page, so whatever the browser opens, the owner lands on the form.
  return html(200, page(deviceName, ""));
}
