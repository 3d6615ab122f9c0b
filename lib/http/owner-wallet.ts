// Owner API endpoints of the Cashu wallet: what it holds, the rails (per-payment and daily limits, the
// namespaces besides the owner's that may spend, the allow-list of mints) and the approvals (payments over the
// limits, tokens from people who may not use the wallet). No tool reaches any of it (docs/wallet.md, "Rails").
// Refusals are HaloErrors (invalid-arguments, not-allowed, not-found, not-configured...): the pipeline answers
// each with its tag's status.
import type { Log } from "../ports";
import type { WalletService } from "../wallet/service";
import { BODIES } from "./bodies";
import { notFound } from "./http-error";
import { ok, withBody, type OwnerRoute } from "./owner-route";

/** What the wallet offers the owner (WalletService implements it). */
export type WalletOwner = Pick<WalletService, "ownerView" | "setAllowedMints" | "approve" | "rails">;

const APPROVAL_ID = /^w[0-9a-f]{8}$/;

export function walletRoutes(wallet: WalletOwner | undefined, log: Log): OwnerRoute[] {
  if (!wallet) return [];
  const approvalId = (id: string): string => {
    if (!APPROVAL_ID.test(id)) throw notFound("nothing of the wallet awaits approval under that id.");
    return id;
  };
  return [
    { method: "GET", pattern: "/api/wallet", handler: async () => ok(await wallet.ownerView()) },
    withBody({
      method: "PUT",
      pattern: "/api/wallet/limits",
      body: BODIES.walletLimits,
      handler: ({ body }) => {
        const l = wallet.rails.setLimits(body.per_payment_sats, body.daily_sats);
        log.info("owner api: wallet limits set");
        return ok({ limits: { per_payment_sats: l.perPaymentSats, daily_sats: l.dailySats } });
      },
    }),
    withBody({
      method: "PUT",
      pattern: "/api/wallet/spenders",
      body: BODIES.walletSpenders,
      handler: ({ body }) => {
        const spenders = wallet.rails.setSpenders([...body.spenders]);
        log.info(`owner api: wallet spenders set (${spenders.length})`);
        return ok({ spenders });
      },
    }),
    withBody({
      method: "PUT",
      pattern: "/api/wallet/mints",
      body: BODIES.walletMints,
      handler: async ({ body }) => {
        const allowed = await wallet.setAllowedMints([...body.allowed]);
        log.info(`owner api: wallet mint allow-list set (${allowed.length})`);
        return ok({ allowed_mints: allowed });
      },
    }),
    { method: "GET", pattern: "/api/wallet/approvals", handler: () => ok({ approvals: wallet.rails.list() }) },
    withBody({
      method: "POST",
      pattern: "/api/wallet/approvals/:id/approve",
      body: BODIES.nothing,
      handler: async ({ params }) => {
        const { approval, received } = await wallet.approve(approvalId(params.id));
        log.info(`owner api: wallet ${approval.kind} ${approval.id} approved`);
        return ok(
          received ? { id: approval.id, decision: "approved", approval, received } : { id: approval.id, decision: "approved", approval },
        );
      },
    }),
    withBody({
      method: "POST",
      pattern: "/api/wallet/approvals/:id/reject",
      body: BODIES.nothing,
      handler: ({ params }) => {
        const approval = wallet.rails.reject(approvalId(params.id));
        log.info(`owner api: wallet ${approval.kind} ${approval.id} rejected`);
        return ok({ id: approval.id, decision: "rejected", approval });
      },
    }),
  ];
}
