// Owner API endpoints for the memory embedder: which one is stored and in
// use, how many memories hold its vectors, and the switch (locked while
// memories exist unless it comes with the re-embed; lib/memory/embedders/change.ts).
// The switch's refusals are HaloErrors (invalid, conflict, not-configured, failed).
import { changeEmbedder, embedderView } from "../memory/embedders/change";
import { describeEmbedderChange } from "../tools/memory-text";
import { EMBEDDER_SECRET_NAME, selectEmbedder } from "../memory/embedders/select";
import type { MemoryEngine } from "../memory/engine";
import type { HttpClient, Log } from "../ports";
import { BODIES } from "./bodies";
import { ok, withBody, type OwnerRoute } from "./owner-route";

export interface EmbedderDeps {
  memory?: MemoryEngine;
  http: HttpClient;
  getSecret(name: string): string | undefined;
  log: Log;
}

export function embedderRoutes(deps: EmbedderDeps): OwnerRoute[] {
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
    { method: "GET", pattern: "/api/embedder", handler: () => ok(view()) },
    withBody({
      method: "PUT",
      pattern: "/api/embedder",
      body: BODIES.embedder,
      handler: async ({ body }) => {
        const { reembed, ...wanted } = body;
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
        return ok({ ...view(), result: describeEmbedderChange(done) });
      },
    }),
  ];
}
