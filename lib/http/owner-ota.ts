// Owner API endpoints of the update engine: read the status, set the feed
// URL, check now, and approve (install) a version, which also restarts into
// it unless `restart` is false; POST /api/ota/restart restarts later.
// The engine's refusals are HaloErrors (busy, conflict, invalid,
// not-configured): the pipeline answers each with its tag's status.
import type { Log, OtaStatus } from "../ports";
import { BODIES } from "./bodies";
import { ok, withBody, type ApiReply, type OwnerRoute } from "./owner-route";

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

/**
 * The engine's status. The check or install that just failed answers 502 (the release server or the image
 * failed), still with the whole status; reading the status (GET) is 200 whatever the last attempt did.
 */
function view(ota: OtaOwner, s: OtaStatus = ota.status(), failedNow = false): ApiReply {
  const body: { [key: string]: unknown } = { ...s, feedUrl: ota.feedUrl() ?? null };
  const why = ota.lastInstallDetail();
  if (s.lastInstall && why) body.lastInstall = { ...s.lastInstall, detail: why };
  return ok(body, failedNow && s.state === "error" ? 502 : 200);
}

async function act(ota: OtaOwner, log: Log, what: string, run: () => Promise<OtaStatus> | OtaStatus): Promise<ApiReply> {
  const s = await run();
  log.info(`owner api: ota ${what}: ${s.state}`);
  return view(ota, s, true);
}

export function otaRoutes(ota: OtaOwner | undefined, log: Log): OwnerRoute[] {
  if (!ota) return [];
  return [
    { method: "GET", pattern: "/api/ota", handler: () => view(ota) },
    withBody({
      method: "PUT",
      pattern: "/api/ota/feed",
      body: BODIES.otaFeed,
      handler: ({ body }) => act(ota, log, "feed", () => (ota.setFeedUrl(body.url ?? undefined), ota.status())),
    }),
    withBody({
      method: "POST",
      pattern: "/api/ota/check",
      body: BODIES.nothing,
      handler: () => act(ota, log, "check", () => ota.check()),
    }),
    withBody({
      method: "POST",
      pattern: "/api/ota/install",
      body: BODIES.otaInstall,
      handler: ({ body }) => act(ota, log, `install ${body.version}`, () => ota.install(body.version, body.restart !== false)),
    }),
    withBody({
      method: "POST",
      pattern: "/api/ota/restart",
      body: BODIES.nothing,
      handler: () => act(ota, log, "restart", () => ota.restart()),
    }),
  ];
}
