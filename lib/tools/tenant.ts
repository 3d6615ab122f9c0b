import { HaloError } from "../errors";
import type { ChatAllowList } from "../people/chat-allowlist";
import { MAX_PEOPLE, OWNER_PERSON_ID, PERSON_ID_PATTERN, QUOTA_MAXIMUM, type PeopleStore, type PersonView } from "../people/people";
import type { Quota } from "../registry/principal";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { formatBytes } from "../util/format";

const CHAT = {
  type: "string",
  minLength: 1,
  maxLength: 49,
  pattern: PERSON_ID_PATTERN.source,
  description: "the person's chat id or identity",
} as const;
const quotaField = (max: number, what: string): { type: "integer"; minimum: number; maximum: number; description: string } => ({
  type: "integer",
  minimum: 0,
  maximum: max,
  description: `${what}; 0 restores the role default`,
});

/** What the tenant tools change: people and their roles; the chat allow-list is only read. */
export interface TenantToolDeps {
  people: PeopleStore;
  chats: ChatAllowList;
}

export const tenantList = defineTool({
  name: "tenant.list",
  needs: ["people"],
  effect: "read",
  description: "List the people who can talk to this device: chat id, role, quotas.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  adminOnly: true,
  handler: (_args, _ctx, { people }: Pick<TenantToolDeps, "people">): ToolResult => {
    const list = people.list();
    return { text: `People (${list.length} of ${MAX_PEOPLE}):\n${list.map(describe).join("\n")}` };
  },
});

export const tenantSetRole = defineTool({
  name: "tenant.set_role",
  needs: ["people", "chats"],
  effect: "write",
  description: "Approve someone or change their role: admin | user | guest | unknown (revokes access).",
  inputSchema: {
    type: "object",
    properties: { chat: CHAT, role: { type: "string", enum: ["admin", "user", "guest", "unknown"] } },
    required: ["chat", "role"],
    additionalProperties: false,
  },
  adminOnly: true,
  handler: (args, _ctx, { people, chats }: TenantToolDeps): ToolResult => {
    const chat = args.chat;
    const outcome = people.setRole(chat, args.role);
    if (!outcome.ok) throw new HaloError(outcome.tag, outcome.message);
    if (!outcome.person) return { text: `${chat} is removed: access revoked.` };
    const gate =
      chat !== OWNER_PERSON_ID && !chats.has(chat)
        ? " It is not on the chat allow-list: only the owner can add it through the owner API."
        : "";
    return { text: `${chat} is now ${outcome.person.role}.${gate}` };
  },
});

export const tenantSetQuota = defineTool({
  name: "tenant.set_quota",
  needs: ["people"],
  effect: "write",
  description: "Set one person's storage limits.",
  inputSchema: {
    type: "object",
    properties: {
      chat: CHAT,
      vectors: quotaField(QUOTA_MAXIMUM.vectors, "memories stored"),
      bytes: quotaField(QUOTA_MAXIMUM.bytes, "file-store bytes"),
      ttl_hours: quotaField(QUOTA_MAXIMUM.ttlHours, "longest memory lifetime in hours"),
      pins: quotaField(QUOTA_MAXIMUM.pins, "pinned memories"),
    },
    required: ["chat"],
    additionalProperties: false,
  },
  adminOnly: true,
  handler: (args, _ctx, { people }: Pick<TenantToolDeps, "people">): ToolResult => {
    const changes: Partial<Quota> = {};
    if (args.vectors !== undefined) changes.vectors = args.vectors;
    if (args.bytes !== undefined) changes.bytes = args.bytes;
    if (args.ttl_hours !== undefined) changes.ttlHours = args.ttl_hours;
    if (args.pins !== undefined) changes.pins = args.pins;
    if (Object.keys(changes).length === 0)
      throw new HaloError("invalid-arguments", "give at least one of vectors, bytes, ttl_hours, pins.");
    const outcome = people.setQuota(args.chat, changes);
    if (!outcome.ok) throw new HaloError(outcome.tag, outcome.message);
    return { text: `Quota set.\n${describe(outcome.person!)}` };
  },
});

/** tenant.list, tenant.set_role, tenant.set_quota: the model-callable half of the people surface. Admin-only. */
export const TENANT_TOOLS = [tenantList, tenantSetRole, tenantSetQuota] as const;

function describe(p: PersonView): string {
  const mark = (field: keyof Quota): string => (p.overridden.indexOf(field) >= 0 ? " (set)" : "");
  const ttl = p.quota.ttlHours === 0 ? "no maximum" : `${p.quota.ttlHours} h`;
  return (
    `- ${p.id}: ${p.role}; vectors ${p.quota.vectors}${mark("vectors")}, bytes ${formatBytes(p.quota.bytes)}${mark("bytes")}, ` +
    `ttl ${ttl}${mark("ttlHours")}, pins ${p.quota.pins}${mark("pins")}`
  );
}
