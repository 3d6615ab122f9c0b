// Owner API endpoints for models: the orchestrator's own provider and model
// (what the orch_model device action sets), the model each provider is asked
// for when it serves, and the models a provider lists for the owner's key.
import type { ConfigStore } from "../device/config";
import type { Log } from "../ports";
import { MODEL_NAME_PATTERN, type ProviderModels } from "../providers/models";
import { PROVIDER_IDS, type ProviderId } from "../providers/types";
import { onlyFields } from "./owner-fields";
import type { ApiHandler, ApiReply } from "./owner-routes";
import type { Route } from "./router";

const ok = (body: { [key: string]: unknown }): ApiReply => ({ status: 200, body });
const fail = (status: number, error: string): ApiReply => ({ status, body: { error } });
const unknownProvider = (): ApiReply => fail(404, `Not found: the providers are ${PROVIDER_IDS.join(", ")}.`);
const isProvider = (p: string): p is ProviderId => PROVIDER_IDS.indexOf(p as ProviderId) >= 0;

export function modelRoutes(models: ProviderModels | undefined, config: ConfigStore, log: Log): Array<Route<ApiHandler>> {
  if (!models) return [];
  const view = (): { [key: string]: unknown } => ({
    orchestrator: { provider: config.string("orchProvider"), model: config.string("orchModel") || null },
    providers: models.all().map((m) => ({ provider: m.provider, model: m.model, default_model: m.defaultModel, chosen: m.chosen })),
  });
  return [
    { method: "GET", pattern: "/api/models", handler: () => ok(view()) },
    {
      method: "PUT",
      pattern: "/api/models/orchestrator",
      handler: ({ body }) => {
        const bad = onlyFields(body, ["provider", "model"], ["provider"]);
        if (bad) return bad;
        const model = body.model ?? "";
        if (typeof body.provider !== "string" || !isProvider(body.provider))
          return fail(400, `Bad request: provider is ${PROVIDER_IDS.join(", ")}.`);
        if (typeof model !== "string" || (model !== "" && !MODEL_NAME_PATTERN.test(model)))
          return fail(400, "Bad request: model is 1-64 of A-Z a-z 0-9 . _ : / -, or null for the provider's model.");
        const problem = config.apply(
          [
            ["orchProvider", body.provider],
            ["orchModel", model],
          ],
          "owner",
        );
        if (problem) return fail(400, `Bad request: ${problem}`);
        log.info("owner api: orchestrator model changed");
        return ok(view());
      },
    },
    {
      method: "PUT",
      pattern: "/api/models/:provider",
      handler: ({ params, body }) => {
        if (!isProvider(params.provider)) return unknownProvider();
        const bad = onlyFields(body, ["model"], ["model"]);
        if (bad) return bad;
        if (body.model !== null && typeof body.model !== "string")
          return fail(400, "Bad request: model is a name, or null for the default.");
        const problem = models.set(params.provider, body.model === null ? undefined : (body.model as string));
        if (problem) return fail(400, `Bad request: ${problem}.`);
        log.info(`owner api: ${params.provider} model changed`);
        return ok(view());
      },
    },
    {
      method: "GET",
      pattern: "/api/models/:provider/available",
      handler: async ({ params }) => {
        if (!isProvider(params.provider)) return unknownProvider();
        try {
          return ok({ provider: params.provider, models: await models.available(params.provider) });
        } catch (e) {
          return fail(502, `Bad gateway: ${e instanceof Error ? e.message : "the provider did not answer"}.`);
        }
      },
    },
  ];
}
