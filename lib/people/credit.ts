// Who may spend provider credit through the paths anyone with a token can
// start: POST /api/chat turns and session.spawn. Admins always may; users and
// guests as the owner's knobs say (userCredit default on, guestCredit off),
// in line with web.search and image.generate refusing guests.
import type { Principal } from "../registry/principal";

export interface CreditKnobs {
  bool(key: string): boolean;
}

export const CREDIT_REFUSAL = "the owner has not allowed this role to spend provider credit (owner API knobs guestCredit, userCredit).";

export function mayUseCredit(config: CreditKnobs, principal: Principal): boolean {
  if (principal.role === "admin") return true;
  if (principal.role === "user") return config.bool("userCredit");
  if (principal.role === "guest") return config.bool("guestCredit");
  return false;
}
