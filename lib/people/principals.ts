import { makePrincipal, type Principal, type Quota } from "../registry/principal";
import type { ChatAllowList } from "./chat-allowlist";
import type { ClientTokens } from "./clients";
import { effectiveQuota, type PeopleStore, type PersonView } from "./people";

/** Where a conversation or call comes from. */
export type PrincipalSource = "web" | "chat" | "mcp";

export interface PrincipalDeps {
  people: PeopleStore;
  clients: ClientTokens;
  chats: ChatAllowList;
}

/**
 * The one place a Principal is made from where a call comes from:
 * - web: `identity` is the person the owner's web session acts as;
 * - chat: `identity` is the chat id; a chat off the allow-list is unknown, an
 *   allow-listed chat without a person record is a guest;
 * - mcp: `identity` is the client's name: the client's role and namespace,
 *   with the quota overrides of the person whose id is that namespace.
 * Web and chat run turns; mcp calls arrive over /mcp.
 */
export function derivePrincipal(deps: PrincipalDeps, source: PrincipalSource, identity: string, scheduled = false): Principal {
  if (source === "mcp") {
    const client = deps.clients.list().find((c) => c.name === identity);
    if (!client) return makePrincipal(identity, "unknown", "mcp", scheduled);
    const p = makePrincipal(client.ns, client.role, "mcp", scheduled);
    p.quota = effectiveQuota(client.role, overridesOf(deps.people.get(client.ns)));
    if (client.names === "plain") p.names = "plain";
    return p;
  }
  if (source === "chat" && !deps.chats.has(identity)) return makePrincipal(identity, "unknown", "turn", scheduled);
  const person = deps.people.get(identity);
  if (!person) return makePrincipal(identity, source === "chat" ? "guest" : "unknown", "turn", scheduled);
  const p = makePrincipal(person.id, person.role, "turn", scheduled);
  p.quota = person.quota;
  return p;
}

function overridesOf(person: PersonView | undefined): Partial<Quota> {
  const out: Partial<Quota> = {};
  if (person) for (const field of person.overridden) out[field] = person.quota[field];
  return out;
}
