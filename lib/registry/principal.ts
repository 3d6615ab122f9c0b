// Who is calling. A Principal travels with every dispatch and every store call.

export type Role = "admin" | "user" | "guest" | "unknown";
export type Via = "turn" | "mcp";

/** Storage limits of one person. */
export interface Quota {
  vectors: number;
  bytes: number;
  ttlHours: number;
  pins: number;
}

export interface Principal {
  /** The namespace the caller's data lives in (one per person). */
  ns: string;
  role: Role;
  quota: Quota;
  via: Via;
  /** True in a scheduled (unattended) turn. */
  scheduled: boolean;
  /** MCP clients only: "plain" lists tool names with underscores for dots (lib/mcp/tool-names.ts). */
  names?: "dotted" | "plain";
}

const ROLE_QUOTAS: Record<Role, Quota> = {
  admin: { vectors: 5000, bytes: 64 * 1024 * 1024, ttlHours: 0, pins: 200 },
  user: { vectors: 1000, bytes: 16 * 1024 * 1024, ttlHours: 2160, pins: 50 },
  guest: { vectors: 100, bytes: 1024 * 1024, ttlHours: 504, pins: 5 },
  unknown: { vectors: 0, bytes: 0, ttlHours: 0, pins: 0 },
};

/** The default quota of a role (ttlHours 0 means no maximum). */
export function roleQuota(role: Role): Quota {
  return { ...ROLE_QUOTAS[role] };
}

export function isRole(value: unknown): value is Role {
  return value === "admin" || value === "user" || value === "guest" || value === "unknown";
}

export function makePrincipal(ns: string, role: Role, via: Via, scheduled = false): Principal {
  return { ns, role, quota: roleQuota(role), via, scheduled };
}
