import {
  ARTIFACT_NAME_MAX_CHARS,
  ARTIFACT_PROJECT_MAX_CHARS,
  ARTIFACT_TEXT_MAX_BYTES,
  FILES_FETCH_MAX_BYTES_LIMIT,
  FILES_LIST_MAX_ENTRIES,
  FILES_SEARCH_QUERY_MAX_CHARS,
} from "../limits";
import { HaloError } from "../errors";
import type { Principal } from "../registry/principal";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { mimeOf } from "../store/artifact-names";
import type { ArtifactRecord, ArtifactStore } from "../store/artifact-store";
import { queryTerms } from "../store/docs-pack";
import type { Downloads, FetchJobView } from "../store/downloads";

export const PROJECT_ARG = {
  type: "string",
  minLength: 1,
  maxLength: ARTIFACT_PROJECT_MAX_CHARS,
  description: "project folder: lower-case letters, digits, - and _",
} as const;
export const NAME_ARG = {
  type: "string",
  minLength: 1,
  maxLength: ARTIFACT_NAME_MAX_CHARS,
  description: "file name with its extension",
} as const;

/** What the file tools work on: the SD artifact store, and the downloads files.list shows beside it. */
export interface FilesToolDeps {
  artifacts: ArtifactStore;
  downloads: Downloads;
}

export const filesList = defineTool({
  name: "files.list",
  needs: ["artifacts", "downloads"],
  effect: "read",
  description: "List the device's durable artifact store: projects and files.",
  inputSchema: {
    type: "object",
    properties: { project: { ...PROJECT_ARG, description: "only this project" } },
    additionalProperties: false,
  },
  handler: (args, ctx, { artifacts, downloads }: FilesToolDeps): ToolResult => {
    const p = ctx.principal;
    const records = artifacts.list(p, args.project);
    const shown = records
      .slice(0, FILES_LIST_MAX_ENTRIES)
      .map((r) => `- ${r.project}/${r.name} (${r.kind}, ${r.size} bytes, ${ownership(r, p)}${r.quarantine ? ", quarantined" : ""})`);
    if (records.length > shown.length) shown.push(`… and ${records.length - shown.length} more: filter by project.`);
    const jobs = downloads.jobsOf(p).filter((j) => args.project === undefined || j.project === args.project);
    const text = [records.length === 0 ? "No files." : `Files (${records.length}):\n${shown.join("\n")}`];
    if (jobs.length > 0) text.push(`Downloads:\n${jobs.map(describeJob).join("\n")}`);
    return { text: text.join("\n") };
  },
});

export const filesStat = defineTool({
  name: "files.stat",
  needs: ["artifacts"],
  effect: "read",
  description: "Metadata for one stored file: size, kind, created time.",
  inputSchema: {
    type: "object",
    properties: { project: PROJECT_ARG, name: NAME_ARG },
    required: ["project", "name"],
    additionalProperties: false,
  },
  handler: (args, ctx, { artifacts }: Pick<FilesToolDeps, "artifacts">): ToolResult => {
    const r = artifacts.stat(ctx.principal, args.project, args.name);
    const lines = [
      `${r.project}/${r.name}`,
      `kind: ${r.kind} (${mimeOf(r.name)})`,
      `size: ${r.size} bytes`,
      `created: ${new Date(r.created).toISOString()}`,
      `updated: ${new Date(r.updated).toISOString()}`,
      `owner: ${ownership(r, ctx.principal)}`,
      `state: ${r.quarantine ? "quarantined (awaiting a safety verdict)" : "ready"}`,
    ];
    return { text: lines.join("\n") };
  },
});

export const filesRead = defineTool({
  name: "files.read",
  needs: ["artifacts"],
  effect: "read",
  description: "Read a stored TEXT document's content, paged.",
  inputSchema: {
    type: "object",
    properties: {
      project: PROJECT_ARG,
      name: NAME_ARG,
      offset: { type: "integer", minimum: 0, maximum: FILES_FETCH_MAX_BYTES_LIMIT, description: "byte offset, default 0" },
    },
    required: ["project", "name"],
    additionalProperties: false,
  },
  handler: (args, ctx, { artifacts }: Pick<FilesToolDeps, "artifacts">): ToolResult => {
    const page = artifacts.readText(ctx.principal, args.project, args.name, args.offset ?? 0);
    const tail = page.next !== undefined ? `\n[more: call files.read with offset ${page.next} (${page.record.size} bytes in all)]` : "";
    return { text: page.text + tail };
  },
});

export const filesSearch = defineTool({
  name: "files.search",
  needs: ["artifacts"],
  effect: "read",
  description: "Search the CONTENT of saved text documents for words; returns the best matches with a snippet, ranked by term frequency.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", minLength: 1, maxLength: FILES_SEARCH_QUERY_MAX_CHARS },
      project: { ...PROJECT_ARG, description: "only this project" },
    },
    required: ["query"],
    additionalProperties: false,
  },
  handler: (args, ctx, { artifacts }: Pick<FilesToolDeps, "artifacts">): ToolResult => {
    const terms = queryTerms(args.query);
    if (terms.length === 0) throw new HaloError("invalid-arguments", "the query has no words to search for.");
    const hits = artifacts.search(ctx.principal, terms, args.project);
    if (hits.length === 0) return { text: `No file you can read contains any of: ${terms.join(", ")}.` };
    return {
      text: hits.map((h) => `- ${h.record.project}/${h.record.name} (${h.record.kind}, score ${h.score})\n  ${h.snippet}`).join("\n"),
    };
  },
});

export const artifactSave = defineTool({
  name: "artifact.save",
  needs: ["artifacts"],
  effect: "destroy",
  description: "Persist a TEXT artifact (report, summary, document) into the durable store.",
  inputSchema: {
    type: "object",
    properties: {
      project: PROJECT_ARG,
      name: { ...NAME_ARG, description: "file name ending in .md, .txt, .csv or .json" },
      text: {
        type: "string",
        maxLength: ARTIFACT_TEXT_MAX_BYTES,
        description: `at most ${ARTIFACT_TEXT_MAX_BYTES} bytes per call; replaces your earlier file of that name`,
      },
    },
    required: ["project", "name", "text"],
    additionalProperties: false,
  },
  handler: (args, ctx, { artifacts }: Pick<FilesToolDeps, "artifacts">): ToolResult => {
    const { record: r, replaced } = artifacts.saveText(ctx.principal, args.project, args.name, args.text);
    return { text: `Saved ${r.project}/${r.name}: ${r.size} bytes${replaced ? " (replaced your earlier version)" : ""}.` };
  },
});

export const filesShare = defineTool({
  name: "files.share",
  needs: ["artifacts"],
  refuseScheduled: true,
  effect: "write",
  description: "Share one of your saved files read-only with everyone, or stop sharing it.",
  inputSchema: {
    type: "object",
    properties: {
      project: PROJECT_ARG,
      name: NAME_ARG,
      share: { type: "boolean", description: "true (the default) shares, false stops sharing" },
    },
    required: ["project", "name"],
    additionalProperties: false,
  },
  handler: (args, ctx, { artifacts }: Pick<FilesToolDeps, "artifacts">): ToolResult => {
    const share = args.share ?? true;
    const r = artifacts.share(ctx.principal, args.project, args.name, share);
    return { text: `${r.project}/${r.name} is ${r.shared ? "shared read-only with everyone" : "private to you"}.` };
  },
});

/** files.list, files.stat, files.read, files.search, files.share and artifact.save over the SD artifact store. */
export const FILES_TOOLS = [filesList, filesStat, filesRead, filesSearch, artifactSave, filesShare] as const;

function ownership(r: ArtifactRecord, p: Principal): string {
  if (r.owner !== p.ns) return "shared with you, read-only";
  return r.shared ? "yours, shared" : "yours";
}

export function describeJob(j: FetchJobView): string {
  const detail = j.detail ? `: ${j.detail}` : "";
  const size = j.bytes !== undefined ? ` (${j.bytes} bytes)` : "";
  return `- ${j.id} ${j.state} ${j.project}/${j.name}${size}${detail}`;
}
