// Owner API endpoints of the update engine: read the status, set the feed
// URL, check now, and approve (install) a version, which also restarts into
// it unless `restart` is false; POST /api/ota/restart restarts later.
import { HaloError } from "../errors";
import type { Log, OtaStatus } from "../ports";
import type { ApiHandler, ApiReply } from "./owner-routes";
import type { Route } from "./router";

/** What the owner API calls (OtaEngine implements it). */
export interface OtaOwner {
  status(): OtaStatus;
  lastInstallDetail(): string | undefined;
  feedUrl(): string | undefined;
  setFeedUrl(url: string | undefined): void;
  check(): Promise<OtaStatus>;
  install(version: string, restart: boolean): Promise<OtaStatus>;
  restart(): OtaStatus;
}

const HALO_STATUS: { readonly [tag: string]: number } = { busy: 409, conflict: 409, invalid: 400, "not-configured": 409 };

function view(ota: OtaOwner, s: OtaStatus = ota.status()): ApiReply {
  const body: { [key: string]: unknown } = { ...s, feedUrl: ota.feedUrl() ?? null };
  const why = ota.lastInstallDetail();
  if (s.lastInstall && why) body.lastInstall = { ...s.lastInstall, detail: why };
  return { status: s.state === "error" ? 502 : 200, body };
}

async function guarded(ota: OtaOwner, log: Log, what: string, run: () => Promise<OtaStatus> | OtaStatus): Promise<ApiReply> {
  try {
    const s = await run();
    log.info(`owner api: ota ${what}: ${s.state}`);
    return view(ota, s);
  } catch (e) {
    if (e instanceof HaloError) return { status: HALO_STATUS[e.tag] ?? 500, body: { error: e.message } };
    throw e;
  }
}

function onlyFields(body: { [key: string]: unknown }, allowed: string[]): ApiReply | undefined {
  for (const k of Object.keys(body))
    if (allowed.indexOf(k) < 0)
      return { status: 400, body: { error: `Bad request: unknown field; the fields are ${allowed.join(", ") || "none"}.` } };
  return undefined;
}

export function otaRoutes(ota: OtaOwner | undefined, log: Log): Array<Route<ApiHandler>> {
  if (!ota) return [];
  return [
    { method: "GET", pattern: "/api/ota", handler: () => view(ota) },
    {
      method: "PUT",
      pattern: "/api/ota/feed",
      handler: ({ body }) => {
        const bad = onlyFields(body, ["url"]);
        if (bad) return bad;
        if (body.url !== null && typeof body.url !== "string")
          return { status: 400, body: { error: "Bad request: url is a string, or null for the build's own." } };
        return guarded(ota, log, "feed", () => (ota.setFeedUrl(body.url === null ? undefined : String(body.url)), ota.status()));
      },
    },
    {
      method: "POST",
      pattern: "/api/ota/check",
      handler: ({ body }) => onlyFields(body, []) ?? guarded(ota, log, "check", () => ota.check()),
    },
    {
      method: "POST",
      pattern: "/api/ota/install",
      handler: ({ body }) => {
        const bad = onlyFields(body, ["version", "restart"]);
        if (bad) return bad;
        if (typeof body.version !== "string" || body.version.length > 40)
          return { status: 400, body: { error: "Bad request: version names the release you approve." } };
        if (body.restart !== undefined && typeof body.restart !== "boolean")
          return { status: 400, body: { error: "Bad request: restart is true or false." } };
        const version = body.version;
        return guarded(ota, log, `install ${version}`, () => ota.install(version, body.restart !== false));
      },
    },
    {
      method: "POST",
      pattern: "/api/ota/restart",
      handler: ({ body }) => onlyFields(body, []) ?? guarded(ota, log, "restart", () => ota.restart()),
    },
  ];
}
