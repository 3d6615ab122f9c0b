import { HaloError } from "../errors";
import { FILES_FETCH_URL_MAX_CHARS } from "../limits";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import type { Downloads } from "../store/downloads";
import { describeJob, NAME_ARG, PROJECT_ARG } from "./files";

const JOB_ID = {
  type: "string",
  minLength: 9,
  maxLength: 9,
  pattern: "^f[0-9a-f]{8}$",
  description: "a download id from an earlier files.fetch: report its state",
} as const;

/** What files.fetch works on: the download jobs (they run in the background, past the call). */
export interface FetchToolDeps {
  downloads: Downloads;
}

export const filesFetch = defineTool({
  name: "files.fetch",
  needs: ["downloads"],
  effect: "write",
  openWorld: true,
  description:
    "Download a document from an https URL into the file store, governed by the owner's download trust policy (off / ask per link / scan / full trust). Runs in the background and returns a download id; call again with job to see its state. A per-file size cap applies. Under scan the file stays quarantined until a verdict; the AI scanner is not wired yet.",
  inputSchema: {
    type: "object",
    properties: {
      url: { type: "string", minLength: 1, maxLength: FILES_FETCH_URL_MAX_CHARS, description: "https URL" },
      project: PROJECT_ARG,
      name: { ...NAME_ARG, description: "file name: .md .txt .csv .json .log .png .jpg .jpeg .gif .webp or .pdf" },
      job: JOB_ID,
    },
    additionalProperties: false,
  },
  handler: (args, ctx, { downloads }: FetchToolDeps): ToolResult => {
    const p = ctx.principal;
    if (typeof args.job === "string") {
      if (args.url !== undefined || args.project !== undefined || args.name !== undefined) {
        throw new HaloError("invalid-arguments", "give either job, or url with project and name.");
      }
      return { text: describeJob(downloads.status(p, args.job)).slice(2) };
    }
    if (typeof args.url !== "string" || typeof args.project !== "string" || typeof args.name !== "string") {
      throw new HaloError("invalid-arguments", "url, project and name are required (or job alone for a status).");
    }
    const job = downloads.request(p, args.url, args.project, args.name);
    const next =
      job.state === "awaiting-approval"
        ? "The owner approves each link; the download starts once they do."
        : "It runs in the background; files.fetch with job, or files.list, shows its state.";
    return { text: `Download ${job.id} ${job.state}: ${job.project}/${job.name}. ${next}` };
  },
});

/** files.fetch: start a background download, or report one by id. */
export const FETCH_TOOLS = [filesFetch] as const;
