import { errorTag } from "../errors";
// Owner API endpoints for files.fetch: the download trust policy and per-file
// cap, every remembered download (state only, never a file's contents), and
// the owner's decisions: approve or reject a link under "ask", a scan verdict
// on a quarantined file under "scan". Same auth and error style as the other
// owner routes; no tool reaches any of it.
import { FILES_FETCH_MAX_BYTES_LIMIT } from "../limits";
import type { Log } from "../ports";
import { FETCH_POLICIES, type FetchJobView, type FetchPolicy } from "../store/downloads";
import { noFields } from "./owner-fields";
import type { ApiHandler, ApiReply } from "./owner-routes";
import type { Route } from "./router";

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
/** Longest refusal sentence passed on from the downloads subsystem. */
const REFUSAL_MAX_CHARS = 200;

const ok = (body: { [key: string]: unknown }): ApiReply => ({ status: 200, body });
const fail = (status: number, error: string): ApiReply => ({ status, body: { error } });

export function downloadRoutes(downloads: DownloadApprovals | undefined, log: Log): Array<Route<ApiHandler>> {
  if (!downloads) return [];
  const policyJson = (): { [key: string]: unknown } => {
    const p = downloads.policy();
    return { policy: p.policy, max_bytes: p.maxBytes };
  };
  /** Runs one owner decision on download `id`; a refusal becomes 404 (no such id) or 409 (not now). */
  const decide = (id: string, missing: string, act: () => ApiReply): ApiReply => {
    if (!FETCH_ID_PATTERN.test(id)) return fail(404, missing);
    try {
      return act();
    } catch (e) {
      const why = e instanceof Error ? e.message : "";
      if (errorTag(e) === "not-found") return fail(404, missing);
      // The subsystem's refusals are one sentence naming no secret (busy, policy off, the card pulled).
      return fail(409, `Conflict: ${why.length > 0 && why.length <= REFUSAL_MAX_CHARS ? why : "the download could not be changed."}`);
    }
  };
  const awaiting = "Not found: no link awaits approval under that id.";
  return [
    { method: "GET", pattern: "/api/downloads", handler: () => ok({ ...policyJson(), downloads: downloads.all() }) },
    {
      method: "PUT",
      pattern: "/api/downloads/policy",
      handler: ({ body }) => {
        for (const k of Object.keys(body)) {
          if (k !== "policy" && k !== "max_bytes") return fail(400, "Bad request: unknown field; the fields are policy, max_bytes.");
        }
        const policy = body.policy as FetchPolicy;
        if (typeof policy !== "string" || FETCH_POLICIES.indexOf(policy) < 0)
          return fail(400, `Bad request: policy is ${FETCH_POLICIES.join(", ")}.`);
        const maxBytes = body.max_bytes;
        if (
          maxBytes !== undefined &&
          !(typeof maxBytes === "number" && Number.isInteger(maxBytes) && maxBytes >= 1 && maxBytes <= FILES_FETCH_MAX_BYTES_LIMIT)
        ) {
          return fail(400, `Bad request: max_bytes must be an integer from 1 to ${FILES_FETCH_MAX_BYTES_LIMIT}.`);
        }
        try {
          downloads.setPolicy(policy, maxBytes as number | undefined);
        } catch {
          return fail(409, "Conflict: the download policy could not be saved.");
        }
        log.info(`owner api: download policy set to ${policy}`);
        return ok(policyJson());
      },
    },
    {
      method: "POST",
      pattern: "/api/downloads/:id/approve",
      handler: ({ params, body }) =>
        noFields(body) ??
        decide(params.id, awaiting, () => {
          const job = downloads.approveFetch(params.id);
          log.info(`owner api: download ${job.id} approved`);
          return ok({ id: job.id, decision: "approved", download: job });
        }),
    },
    {
      method: "POST",
      pattern: "/api/downloads/:id/reject",
      handler: ({ params, body }) =>
        noFields(body) ??
        decide(params.id, awaiting, () => {
          const job = downloads.rejectFetch(params.id);
          log.info(`owner api: download ${job.id} rejected`);
          return ok({ id: job.id, decision: "rejected", download: job });
        }),
    },
    {
      method: "POST",
      pattern: "/api/downloads/:id/verdict",
      handler: ({ params, body }) => {
        for (const k of Object.keys(body)) if (k !== "verdict") return fail(400, "Bad request: unknown field; the only field is verdict.");
        if (body.verdict !== "safe" && body.verdict !== "unsafe") return fail(400, "Bad request: verdict is safe or unsafe.");
        const verdict = body.verdict;
        return decide(params.id, "Not found: no downloaded file awaits a verdict under that id.", () => {
          const job = downloads.setVerdict(params.id, verdict);
          log.info(`owner api: download ${params.id} judged ${verdict}`);
          const out: { [key: string]: unknown } = { id: params.id, verdict };
          if (job) out.download = job;
          return ok(out);
        });
      },
    },
  ];
}
