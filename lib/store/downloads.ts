import { HaloError } from "../errors";
// files.fetch in the background, under the owner's trust policy. A request
// returns a job at once; the download runs as a promise in the core. The
// policy and the per-file cap are owner settings no tool can write; approving
// a link ("ask") and a scan verdict ("scan") arrive through the owner's API.
import { FILES_FETCH_DEFAULT_MAX_BYTES, FILES_FETCH_MAX_BYTES_LIMIT } from "../limits";
import type { Clock, HttpClient, Random, Resolver, Settings } from "../ports";
import type { Principal } from "../registry/principal";
import { toHex } from "../util/hash";
import { clipForMessage } from "../util/text";
import { formatHttpUrl } from "../util/url";
import { FETCH_EXTENSIONS, nameProblem, projectProblem } from "./artifact-names";
import type { ArtifactStore } from "./artifact-store";
import { checkFetchUrl, fetchFollowingRedirects } from "./https-fetch";

export type FetchPolicy = "off" | "ask" | "scan" | "full";
export const FETCH_POLICIES: readonly FetchPolicy[] = ["off", "ask", "scan", "full"];
export type FetchState = "awaiting-approval" | "downloading" | "quarantined" | "saved" | "failed" | "rejected";

export const FETCH_POLICY_KEY = "files.fetch.policy";
export const FETCH_MAX_BYTES_KEY = "files.fetch.max_bytes";
/** Whole download, redirects included. */
export const FETCH_TIMEOUT_MS = 120_000;
export const FETCH_MAX_REDIRECTS = 5;
/** Downloads running at once, links awaiting approval, and jobs remembered in all. */
export const FETCH_MAX_RUNNING = 2;
export const FETCH_MAX_AWAITING = 8;
export const FETCH_MAX_JOBS = 32;

/** What a caller or the owner sees of a download. */
export interface FetchJobView {
  id: string;
  owner: string;
  url: string;
  project: string;
  name: string;
  state: FetchState;
  /** Why it failed, or what it waits for. */
  detail?: string;
  bytes?: number;
  created: number;
}

interface FetchJob extends FetchJobView {
  principal: Principal;
  done: Promise<void>;
}

export interface DownloadDeps {
  http: HttpClient;
  settings: Settings;
  random: Random;
  clock: Clock;
  /** Resolves host names so every address is checked before connecting (Ports.resolver). */
  resolver?: Resolver;
}

export interface DownloadOptions {
  timeoutMs?: number;
  maxRedirects?: number;
  /** Test only: allow http:// URLs and local-network hosts. buildCore never sets it. */
  insecureForTests?: boolean;
  /** Test only: origins exempt from the address checks (a local server that redirects inward). */
  exemptOriginsForTests?: string[];
}

export class Downloads {
  private readonly jobs = new Map<string, FetchJob>();

  constructor(
    private readonly store: ArtifactStore,
    private readonly deps: DownloadDeps,
    private readonly options: DownloadOptions = {},
  ) {}

  /** The owner's policy and per-file cap. Unset or unreadable settings mean "off" and the default cap. */
  policy(): { policy: FetchPolicy; maxBytes: number } {
    const raw = this.deps.settings.get(FETCH_POLICY_KEY) as FetchPolicy | undefined;
    const policy = raw && FETCH_POLICIES.indexOf(raw) >= 0 ? raw : "off";
    const cap = Number(this.deps.settings.get(FETCH_MAX_BYTES_KEY));
    const maxBytes = Number.isInteger(cap) && cap > 0 && cap <= FILES_FETCH_MAX_BYTES_LIMIT ? cap : FILES_FETCH_DEFAULT_MAX_BYTES;
    return { policy, maxBytes };
  }

  /** Owner API only: no tool reaches this. */
  setPolicy(policy: FetchPolicy, maxBytes?: number): void {
    if (FETCH_POLICIES.indexOf(policy) < 0) throw new Error("unknown download policy");
    if (maxBytes !== undefined && !(Number.isInteger(maxBytes) && maxBytes > 0 && maxBytes <= FILES_FETCH_MAX_BYTES_LIMIT)) {
      throw new Error(`the per-file cap must be 1 to ${FILES_FETCH_MAX_BYTES_LIMIT} bytes`);
    }
    this.deps.settings.set(FETCH_POLICY_KEY, policy);
    if (maxBytes !== undefined) this.deps.settings.set(FETCH_MAX_BYTES_KEY, String(maxBytes));
  }

  /** files.fetch: checks the request, then starts it or parks it for the owner's approval. */
  request(p: Principal, url: string, project: string, name: string): FetchJobView {
    const { policy } = this.policy();
    if (policy === "off") {
      throw new HaloError("policy-off", "downloads are turned off by the owner (owner API: PUT /api/downloads/policy).");
    }
    const problem = projectProblem(project) || nameProblem(name, FETCH_EXTENSIONS);
    if (problem) throw new HaloError("invalid", problem, problem);
    const target = checkFetchUrl(url, !!this.options.insecureForTests, this.options.exemptOriginsForTests);
    if (typeof target === "string") throw new HaloError("invalid", target, `invalid url: ${target}.`);
    const counts = this.counts();
    if (policy === "ask" && counts.awaiting >= FETCH_MAX_AWAITING) {
      throw new HaloError("busy", `${FETCH_MAX_AWAITING} links already await the owner's approval.`);
    }
    if (policy !== "ask" && counts.running >= FETCH_MAX_RUNNING) {
      throw new HaloError("busy", `${FETCH_MAX_RUNNING} downloads are running; try again when one finishes.`);
    }
    this.evictFinished();
    const job: FetchJob = {
      id: this.newId(),
      owner: p.ns,
      url: formatHttpUrl(target),
      project,
      name,
      state: "awaiting-approval",
      created: this.deps.clock.now(),
      principal: p,
      done: Promise.resolve(),
    };
    this.jobs.set(job.id, job);
    if (policy === "ask") job.detail = "the owner approves each link";
    else this.start(job, policy === "scan");
    return view(job);
  }

  /** One of `p`'s downloads; another person's is not found. */
  status(p: Principal, id: string): FetchJobView {
    const job = this.jobs.get(id);
    if (!job || job.owner !== p.ns)
      throw new HaloError("not-found", "no download with that id (finished downloads are forgotten after a restart).");
    return view(job);
  }

  /** `p`'s remembered downloads, newest first. */
  jobsOf(p: Principal): FetchJobView[] {
    return this.all().filter((j) => j.owner === p.ns);
  }

  /** Every remembered download, newest first (owner API). */
  all(): FetchJobView[] {
    return Array.from(this.jobs.values(), view).sort((a, b) => b.created - a.created);
  }

  /** Owner API: starts a link that awaits approval. */
  approveFetch(id: string): FetchJobView {
    const job = this.awaiting(id);
    const { policy } = this.policy();
    if (policy === "off") throw new HaloError("policy-off", "downloads are turned off; turn them on before approving a link.");
    if (this.counts().running >= FETCH_MAX_RUNNING)
      throw new HaloError("busy", `${FETCH_MAX_RUNNING} downloads are running; approve again when one finishes.`);
    this.start(job, policy === "scan");
    return view(job);
  }

  /** Owner API: refuses a link that awaits approval. */
  rejectFetch(id: string): FetchJobView {
    const job = this.awaiting(id);
    job.state = "rejected";
    job.detail = "the owner refused the link";
    return view(job);
  }

  /**
   * The scan verdict on a quarantined download: "safe" makes it readable,
   * "unsafe" deletes it. The AI scanner is not wired yet: until it is, a
   * quarantined file stays quarantined unless the owner calls this.
   */
  setVerdict(id: string, verdict: "safe" | "unsafe"): FetchJobView | undefined {
    const record = this.store.quarantined(id);
    if (!record) throw new HaloError("not-found", "no downloaded file awaits a verdict under that id.");
    this.store.settleQuarantine(id, verdict === "safe");
    const job = this.jobs.get(id);
    if (!job) return undefined;
    job.state = verdict === "safe" ? "saved" : "failed";
    job.detail = verdict === "safe" ? "the safety scan passed" : "the safety scan judged it unsafe; it was deleted";
    return view(job);
  }

  /** Resolves when the download has left the "downloading" state (tests and the owner API). */
  settled(id: string): Promise<void> {
    return this.jobs.get(id)?.done ?? Promise.resolve();
  }

  private start(job: FetchJob, quarantine: boolean): void {
    job.state = "downloading";
    job.detail = undefined;
    job.done = this.run(job, quarantine);
  }

  private async run(job: FetchJob, quarantine: boolean): Promise<void> {
    const { maxBytes } = this.policy();
    try {
      const start = checkFetchUrl(job.url, !!this.options.insecureForTests, this.options.exemptOriginsForTests);
      if (typeof start === "string") throw new Error(start);
      const { bytes, url } = await fetchFollowingRedirects(this.deps.http, this.deps.clock, start, {
        maxBytes,
        timeoutMs: this.options.timeoutMs ?? FETCH_TIMEOUT_MS,
        maxRedirects: this.options.maxRedirects ?? FETCH_MAX_REDIRECTS,
        insecure: !!this.options.insecureForTests,
        exemptOrigins: this.options.exemptOriginsForTests,
        resolver: this.deps.resolver,
      });
      this.store.save(job.principal, job.project, job.name, bytes, {
        note: `downloaded from ${url.host}`,
        quarantine: quarantine ? job.id : undefined,
      });
      job.bytes = bytes.length;
      job.state = quarantine ? "quarantined" : "saved";
      job.detail = quarantine ? "awaiting the safety scan's verdict (the scanner is not wired yet)" : undefined;
    } catch (e) {
      job.state = "failed";
      job.detail = clipForMessage(e instanceof Error ? e.message : "the download failed", 200);
    }
  }

  private awaiting(id: string): FetchJob {
    const job = this.jobs.get(id);
    if (job?.state !== "awaiting-approval") throw new HaloError("not-found", "no link awaits approval under that id.");
    return job;
  }

  private counts(): { running: number; awaiting: number } {
    let running = 0;
    let awaiting = 0;
    for (const j of this.jobs.values()) {
      if (j.state === "downloading") running++;
      else if (j.state === "awaiting-approval") awaiting++;
    }
    return { running, awaiting };
  }

  /** Keeps the job table bounded: the oldest finished jobs go first. */
  private evictFinished(): void {
    if (this.jobs.size < FETCH_MAX_JOBS) return;
    const finished = Array.from(this.jobs.values())
      .filter((j) => j.state !== "downloading" && j.state !== "awaiting-approval")
      .sort((a, b) => a.created - b.created);
    for (const j of finished) {
      if (this.jobs.size < FETCH_MAX_JOBS) break;
      this.jobs.delete(j.id);
    }
    if (this.jobs.size >= FETCH_MAX_JOBS) throw new HaloError("busy", "too many downloads are in progress or awaiting approval.");
  }

  private newId(): string {
    const bytes = new Uint8Array(4);
    this.deps.random.fill(bytes);
    return "f" + toHex(bytes);
  }
}

function view(job: FetchJob): FetchJobView {
  const out: FetchJobView = {
    id: job.id,
    owner: job.owner,
    url: job.url,
    project: job.project,
    name: job.name,
    state: job.state,
    created: job.created,
  };
  if (job.detail) out.detail = job.detail;
  if (job.bytes !== undefined) out.bytes = job.bytes;
  return out;
}
