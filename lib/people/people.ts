import { toJson } from "../util/json";
import type { Log, Settings } from "../ports";
import { isRole, roleQuota, type Quota, type Role } from "../registry/principal";

/** Most people the device knows (records in Settings). */
export const MAX_PEOPLE = 32;
/** A chat id (Telegram ids may be negative) or an identity string; also the person's namespace. */
export const PERSON_ID_PATTERN: RegExp = /^-?[a-z0-9][a-z0-9._-]{0,47}$/;
/** The owner's web session acts as this person. */
export const OWNER_PERSON_ID = "owner";
/** Largest value an admin may set for each quota field. */
export const QUOTA_MAXIMUM: Readonly<Quota> = { vectors: 100000, bytes: 8 * 1024 * 1024 * 1024, ttlHours: 87600, pins: 10000 };

const KEY_PREFIX = "person.";
const QUOTA_FIELDS: Array<keyof Quota> = ["vectors", "bytes", "ttlHours", "pins"];

/** A person as the rest of the core sees them: role, effective quota, and which fields the admin overrode. */
export interface PersonView {
  id: string;
  role: Role;
  quota: Quota;
  overridden: Array<keyof Quota>;
  added: number;
}

export type PeopleOutcome =
  { ok: true; person?: PersonView } | { ok: false; tag: "not-found" | "last-admin" | "limit" | "invalid"; message: string };

interface StoredPerson {
  id: string;
  role: Exclude<Role, "unknown">;
  quota: Partial<Quota>;
  added: number;
}

/**
 * The people who may talk to the device, keyed by chat id or identity string,
 * with a role and per-person quota overrides. Persisted in Settings
 * (`person.<id>`). Setting a role to unknown removes the record. The last
 * admin can never be demoted or removed.
 */
export class PeopleStore {
  private readonly people = new Map<string, StoredPerson>();

  constructor(
    private readonly settings: Settings,
    private readonly log: Log,
    private readonly now: () => number,
  ) {
    for (const key of settings.keys(KEY_PREFIX)) {
      const person = parseStored(settings.get(key));
      if (!person || KEY_PREFIX + person.id !== key) log.warn(`people: ignoring unreadable record ${key}`);
      else if (this.people.size >= MAX_PEOPLE) log.warn(`people: ignoring ${key}: more than ${MAX_PEOPLE} people stored`);
      else this.people.set(person.id, person);
    }
  }

  /** Makes the owner an admin when no admin exists (first boot, or records lost). */
  ensureAdmin(): void {
    if (this.adminCount() > 0) return;
    const owner = this.people.get(OWNER_PERSON_ID);
    if (!owner && this.people.size >= MAX_PEOPLE) {
      this.log.warn("people: no admin and no room for the owner record");
      return;
    }
    this.write({ id: OWNER_PERSON_ID, role: "admin", quota: owner ? owner.quota : {}, added: owner ? owner.added : this.now() });
    this.log.info(`people: '${OWNER_PERSON_ID}' is the admin`);
  }

  get(id: string): PersonView | undefined {
    const p = this.people.get(id);
    return p ? view(p) : undefined;
  }

  /** Every person, admins first, then by id. */
  list(): PersonView[] {
    const rank: Record<string, number> = { admin: 0, user: 1, guest: 2 };
    return Array.from(this.people.values(), view).sort((a, b) => rank[a.role] - rank[b.role] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Approves a person or changes their role; `unknown` revokes access and removes the record. */
  setRole(id: string, role: Role): PeopleOutcome {
    if (!PERSON_ID_PATTERN.test(id))
      return { ok: false, tag: "invalid", message: "a person id is 1-49 of a-z 0-9 . _ - (a chat id may start with -)." };
    const current = this.people.get(id);
    if (current && current.role === "admin" && role !== "admin" && this.adminCount() === 1) {
      return { ok: false, tag: "last-admin", message: "the last admin cannot be demoted; make someone else admin first." };
    }
    if (role === "unknown") {
      if (!current) return { ok: false, tag: "not-found", message: "no such person." };
      this.settings.remove(KEY_PREFIX + id);
      this.people.delete(id);
      return { ok: true };
    }
    if (!current && this.people.size >= MAX_PEOPLE) {
      return { ok: false, tag: "limit", message: `at most ${MAX_PEOPLE} people; remove someone first (role unknown).` };
    }
    const next: StoredPerson = { id, role, quota: current ? current.quota : {}, added: current ? current.added : this.now() };
    this.write(next);
    return { ok: true, person: view(next) };
  }

  /** Overrides quota fields; 0 restores the role default. Fields left out keep their value. */
  setQuota(id: string, changes: Partial<Quota>): PeopleOutcome {
    const current = this.people.get(id);
    if (!current) return { ok: false, tag: "not-found", message: "no such person." };
    const quota: Partial<Quota> = { ...current.quota };
    for (const field of QUOTA_FIELDS) {
      const value = changes[field];
      if (value === undefined) continue;
      if (!Number.isInteger(value) || value < 0 || value > QUOTA_MAXIMUM[field]) {
        return { ok: false, tag: "invalid", message: `${field} must be an integer from 0 to ${QUOTA_MAXIMUM[field]}.` };
      }
      if (value === 0) delete quota[field];
      else quota[field] = value;
    }
    const next = { ...current, quota };
    this.write(next);
    return { ok: true, person: view(next) };
  }

  private adminCount(): number {
    let n = 0;
    for (const p of this.people.values()) if (p.role === "admin") n++;
    return n;
  }

  private write(person: StoredPerson): void {
    this.settings.set(KEY_PREFIX + person.id, toJson(person));
    this.people.set(person.id, person);
  }
}

/** A role's default quota with the person's overrides applied. */
export function effectiveQuota(role: Role, overrides: Partial<Quota>): Quota {
  const quota = roleQuota(role);
  if (role === "unknown") return quota;
  for (const field of QUOTA_FIELDS) {
    const value = overrides[field];
    if (value !== undefined) quota[field] = value;
  }
  return quota;
}

function view(p: StoredPerson): PersonView {
  return {
    id: p.id,
    role: p.role,
    quota: effectiveQuota(p.role, p.quota),
    overridden: QUOTA_FIELDS.filter((f) => p.quota[f] !== undefined),
    added: p.added,
  };
}

function parseStored(text: string | undefined): StoredPerson | undefined {
  if (!text) return undefined;
  let v: { [key: string]: unknown };
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null) return undefined;
  if (typeof v.id !== "string" || !PERSON_ID_PATTERN.test(v.id) || !isRole(v.role) || v.role === "unknown") return undefined;
  if (typeof v.added !== "number" || typeof v.quota !== "object" || v.quota === null) return undefined;
  const stored = v.quota as { [key: string]: unknown };
  const quota: Partial<Quota> = {};
  for (const field of QUOTA_FIELDS) {
    const value = stored[field];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > QUOTA_MAXIMUM[field]) return undefined;
    quota[field] = value;
  }
  return { id: v.id, role: v.role, quota, added: v.added };
}
