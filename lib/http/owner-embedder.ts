// Owner API endpoints for the memory embedder: which one is stored and in
// use, how many memories hold its vectors, and the switch (locked while
// memories exist unless it comes with the re-embed; lib/memory/embedders/change.ts).
import { HaloError } from "../errors";
import { changeEmbedder, embedderView } from "../memory/embedders/change";
import { describeEmbedderChange } from "../tools/memory-text";
import { EMBEDDER_SECRET_NAME, selectEmbedder } from "../memory/embedders/select";
import type { MemoryEngine } from "../memory/engine";
import type { HttpClient, Log } from "../ports";
import { onlyFields } from "./owner-fields";
import type { ApiHandler, ApiReply } from "./owner-routes";
import type { Route } from "./router";

export interface EmbedderDeps {
  memory?: MemoryEngine;
  http: HttpClient;
  getSecret(name: string): string | undefined;
  log: Log;
}

export function embedderRoutes(deps: EmbedderDeps): Array<Route<ApiHandler>> {
  const memory = deps.memory;
  if (!memory) return [];
  const view = (): { [key: string]: unknown } => {
    const v = embedderView(memory, deps.log);
    const setting: { [key: string]: unknown } = { provider: v.setting.provider, dims: v.setting.dims };
    if (v.setting.model) setting.model = v.setting.model;
    if (v.setting.baseUrl) setting.base_url = v.setting.baseUrl;
    return { setting, active: v.active, vectors: v.vectors, locked: v.vectors > 0 };
  };
  return [
    { method: "GET", pattern: "/api/embedder", handler: () => ({ status: 200, body: view() }) },
    {
      method: "PUT",
      pattern: "/api/embedder",
      handler: async ({ body }): Promise<ApiReply> => {
        const bad = onlyFields(body, ["provider", "dims", "model", "base_url", "reembed"], ["provider"]);
        if (bad) return bad;
        if (body.reembed !== undefined && typeof body.reembed !== "boolean")
          return { status: 400, body: { error: "Bad request: reembed is true or false." } };
        const { reembed, ...wanted } = body;
        try {
          const done = await changeEmbedder(
            memory,
            wanted,
            // Without the key selectEmbedder would fall back to the offline one: refused instead, nothing changes.
            (setting) =>
              setting.provider === "openai" && !deps.getSecret(EMBEDDER_SECRET_NAME)
                ? undefined
                : selectEmbedder(memory.settings, deps.getSecret, deps.http, deps.log),
            reembed === true,
          );
          deps.log.info("owner api: embedder changed");
          return { status: 200, body: { ...view(), result: describeEmbedderChange(done) } };
        } catch (e) {
          if (!(e instanceof HaloError)) throw e;
          const invalid = e.tag === "invalid";
          return { status: invalid ? 400 : 409, body: { error: `${invalid ? "Bad request" : "Conflict"}: ${e.message}` } };
        }
      },
    },
  ];
}
