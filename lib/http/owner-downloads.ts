// Owner API endpoints for files.fetch: the download trust policy and per-file
// cap, every remembered download (state only, never a file's contents), and
// the owner's decisions: approve or reject a link under "ask", a scan verdict
// on a quarantined file under "scan". Same auth and error style as the other
// owner routes; no tool reaches any of it. The subsystem's refusals are
// HaloErrors (not-found, busy, policy-off, the card pulled): the pipeline
// answers each with its tag's status.
import type { Log } from "../ports";
import type { FetchJobView, FetchPolicy } from "../store/downloads";
import { BODIES } from "./bodies";
import { notFound } from "./http-error";
import { ok, withBody, type OwnerRoute } from "./owner-route";

/** What the downloads subsystem offers the owner (Downloads implements it). */
export interface DownloadApprovals {
  policy(): { policy: FetchPolicy; maxBytes: number };
  setPolicy(policy: FetchPolicy, maxBytes?: number): void;
  /** Newest first. */
  all(): FetchJobView[];
  /** Each throws a HaloError with its tag (not-found, busy, policy-off...). */
  approveFetch(id: string): FetchJobView;
  rejectFetch(id: string): FetchJobView;
  /** Undefined when the file was settled but its job is no longer remembered (after a restart). */
  setVerdict(id: string, verdict: "safe" | "unsafe"): FetchJobView | undefined;
}

const FETCH_ID_PATTERN = /^f[0-9a-f]{8}$/;

export function downloadRoutes(downloads: DownloadApprovals | undefined, log: Log): OwnerRoute[] {
  if (!downloads) return [];
  const policyJson = (): { [key: string]: unknown } => {
    const p = downloads.policy();
    return { policy: p.policy, max_bytes: p.maxBytes };
  };
  /** A download id in a URL: a malformed one names no download. */
  const fetchId = (id: string, missing: string): string => {
    if (!FETCH_ID_PATTERN.test(id)) throw notFound(missing);
    return id;
  };
  const awaiting = "no link awaits approval under that id.";
  const decide = (verb: "approve" | "reject"): OwnerRoute =>
    withBody({
      method: "POST",
      pattern: `/api/downloads/:id/${verb}`,
      body: BODIES.nothing,
      handler: ({ params }) => {
        const id = fetchId(params.id, awaiting);
        const job = verb === "approve" ? downloads.approveFetch(id) : downloads.rejectFetch(id);
        const decision = verb === "approve" ? "approved" : "rejected";
        log.info(`owner api: download ${job.id} ${decision}`);
        return ok({ id: job.id, decision, download: job });
      },
    });
  return [
    { method: "GET", pattern: "/api/downloads", handler: () => ok({ ...policyJson(), downloads: downloads.all() }) },
    withBody({
      method: "PUT",
      pattern: "/api/downloads/policy",
      body: BODIES.downloadPolicy,
      handler: ({ body }) => {
        downloads.setPolicy(body.policy, body.max_bytes);
        log.info(`owner api: download policy set to ${body.policy}`);
        return ok(policyJson());
      },
    }),
    decide("approve"),
    decide("reject"),
    withBody({
      method: "POST",
      pattern: "/api/downloads/:id/verdict",
      body: BODIES.verdict,
      handler: ({ params, body }) => {
        const id = fetchId(params.id, "no downloaded file awaits a verdict under that id.");
        const job = downloads.setVerdict(id, body.verdict);
        log.info(`owner api: download ${id} judged ${body.verdict}`);
        const out: { [key: string]: unknown } = { id, verdict: body.verdict };
        if (job) out.download = job;
        return ok(out);
      },
    }),
  ];
}
