// Owner API endpoints for models: the orchestrator's own provider and model
// (what the orch_model device action sets), the model each provider is asked
// for when it serves, and the models a provider lists for the owner's key.
import type { ConfigStore } from "../device/config";
import type { Log } from "../ports";
import { MODEL_NAME_PATTERN, type ProviderModels } from "../providers/models";
import { PROVIDER_IDS, type ProviderId } from "../providers/types";
import { BODIES } from "./bodies";
import { badRequest, HttpError, notFound } from "./http-error";
import { ok, withBody, type OwnerRoute } from "./owner-route";

/** A provider named in a URL, or 404. */
function providerOf(name: string): ProviderId {
  if (PROVIDER_IDS.indexOf(name as ProviderId) < 0) throw notFound(`the providers are ${PROVIDER_IDS.join(", ")}.`);
  return name as ProviderId;
}

export function modelRoutes(models: ProviderModels | undefined, config: ConfigStore, log: Log): OwnerRoute[] {
  if (!models) return [];
  const view = (): { [key: string]: unknown } => ({
    orchestrator: { provider: config.string("orchProvider"), model: config.string("orchModel") || null },
    providers: models.all().map((m) => ({ provider: m.provider, model: m.model, default_model: m.defaultModel, chosen: m.chosen })),
  });
  return [
    { method: "GET", pattern: "/api/models", handler: () => ok(view()) },
    withBody({
      method: "PUT",
      pattern: "/api/models/orchestrator",
      body: BODIES.orchestratorModel,
      handler: ({ body }) => {
        const model = body.model ?? "";
        if (model !== "" && !MODEL_NAME_PATTERN.test(model))
          throw badRequest("model is 1-64 of A-Z a-z 0-9 . _ : / -, or null for the provider's model.");
        const problem = config.apply(
          [
            ["orchProvider", body.provider],
            ["orchModel", model],
          ],
          "owner",
        );
        if (problem) throw badRequest(problem);
        log.info("owner api: orchestrator model changed");
        return ok(view());
      },
    }),
    withBody({
      method: "PUT",
      pattern: "/api/models/:provider",
      body: BODIES.providerModel,
      handler: ({ params, body }) => {
        const provider = providerOf(params.provider);
        const problem = models.set(provider, body.model ?? undefined);
        if (problem) throw badRequest(`${problem}.`);
        log.info(`owner api: ${provider} model changed`);
        return ok(view());
      },
    }),
    {
      method: "GET",
      pattern: "/api/models/:provider/available",
      handler: async ({ params }) => {
        const provider = providerOf(params.provider);
        try {
          return ok({ provider, models: await models.available(provider) });
        } catch (e) {
          // The provider's own failure (a ProviderError, or the network): whatever it is, the upstream failed.
          throw new HttpError(502, `Bad gateway: ${e instanceof Error ? e.message : "the provider did not answer"}.`);
        }
      },
    },
  ];
}
