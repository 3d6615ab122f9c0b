import type { ConfigStore } from "../device/config";
import { KNOBS, knobByName, type KnobSpec } from "../device/knobs";
import type { ProviderPriority } from "../device/provider-priority";
import { isSecretName, SECRET_NAMES, type SecretStore } from "../device/secrets";
import type { Log, Wifi } from "../ports";
import type { ChatAllowList } from "../people/chat-allowlist";
import { CLIENT_NAME_PATTERN, MAX_CLIENTS, type ClientTokens, type McpClient } from "../people/clients";
import { OWNER_PERSON_ID, PERSON_ID_PATTERN, QUOTA_MAXIMUM, type PeopleStore, type PersonView } from "../people/people";
import { isRole, type Quota } from "../registry/principal";
import { controlRoutes, type OwnerControlDeps } from "./owner-controls";
import { noFields, onlyFields } from "./owner-fields";
import { downloadRoutes, type DownloadApprovals } from "./owner-downloads";
import { nostrRoutes, type NostrOwnerSettings } from "./owner-nostr";
import { routineRoutes, type AlertReader, type RoutineApprovals } from "./owner-routines";
import { otaRoutes, type OtaOwner } from "./owner-ota";
import { wifiRoutes } from "./owner-wifi";
import type { Route } from "./router";

/** Pending skills, as the skills store offers them to the owner (approve or reject by id). */
export interface SkillApprovals {
  listPending(): Array<{ id: string }>;
  /** Throws or returns false when no pending skill has that id. */
  approve(id: string): unknown;
  reject(id: string): unknown;
  /** Deletes any stored capsule, the owner's included (built-ins cannot be deleted). */
  removeByOwner?(id: string): void;
}

export interface OwnerApiDeps extends OwnerControlDeps {
  secrets: SecretStore;
  clients: ClientTokens;
  people: PeopleStore;
  chats: ChatAllowList;
  priority: ProviderPriority;
  config: ConfigStore;
  log: Log;
  /** Present once the skills store exists; its endpoints are absent until then. */
  skills?: SkillApprovals;
  /** Routines awaiting approval and every routine and wakeup (lib/http/owner-routines.ts). */
  routines?: RoutineApprovals;
  /** Owner alerts from unattended turns. */
  alerts?: AlertReader;
  /** The update engine (lib/http/owner-ota.ts); absent on hosts without app slots. */
  ota?: OtaOwner;
  /** files.fetch jobs and the download trust policy (lib/http/owner-downloads.ts). */
  downloads?: DownloadApprovals;
  /** The device's Nostr owner key and relays (lib/http/owner-nostr.ts). */
  nostr?: NostrOwnerSettings;
  /** The Wi-Fi radio (lib/http/owner-wifi.ts); undefined on a host without one, which the endpoints then say. */
  wifi?: Wifi;
}

export interface ApiCall {
  params: { [name: string]: string };
  body: { [key: string]: unknown };
  caller: McpClient;
}

export interface ApiReply {
  status: number;
  body: { [key: string]: unknown };
}

export type ApiHandler = (call: ApiCall) => ApiReply | Promise<ApiReply>;

const ok = (body: { [key: string]: unknown }, status = 200): ApiReply => ({ status, body });
const fail = (status: number, error: string): ApiReply => ({ status, body: { error } });

/** Every owner API endpoint; the skills endpoints only when a skills store exists. */
export function ownerRoutes(deps: OwnerApiDeps): Array<Route<ApiHandler>> {
  const routes: Array<Route<ApiHandler>> = [
    { method: "GET", pattern: "/api/secrets", handler: () => ok({ secrets: deps.secrets.status() }) },
    {
      method: "PUT",
      pattern: "/api/secrets/:name",
      handler: ({ params, body }) => {
        if (!isSecretName(params.name)) return fail(404, `Not found: the secrets are ${SECRET_NAMES.join(", ")}.`);
        const bad = onlyFields(body, ["value"], ["value"]);
        if (bad) return bad;
        const problem = deps.secrets.set(params.name, body.value);
        return problem ? fail(400, `Bad request: ${problem}`) : ok({ name: params.name, set: true });
      },
    },
    {
      method: "DELETE",
      pattern: "/api/secrets/:name",
      handler: ({ params }) =>
        deps.secrets.clear(params.name)
          ? ok({ name: params.name, set: false })
          : fail(404, `Not found: the secrets are ${SECRET_NAMES.join(", ")}.`),
    },
    { method: "GET", pattern: "/api/clients", handler: () => ok({ clients: deps.clients.list().map(clientJson) }) },
    { method: "POST", pattern: "/api/clients", handler: ({ body }) => createClient(deps, body) },
    { method: "DELETE", pattern: "/api/clients/:name", handler: ({ params }) => revokeClient(deps, params.name) },
    { method: "GET", pattern: "/api/providers/priority", handler: () => ok({ priority: deps.priority.get() }) },
    {
      method: "PUT",
      pattern: "/api/providers/priority",
      handler: ({ body }) => {
        const bad = onlyFields(body, ["priority"], ["priority"]);
        if (bad) return bad;
        const problem = deps.priority.set(body.priority);
        if (problem) return fail(400, `Bad request: ${problem}`);
        deps.log.info("owner api: provider priority changed");
        return ok({ priority: deps.priority.get() });
      },
    },
    { method: "GET", pattern: "/api/chats", handler: () => ok({ chats: deps.chats.list() }) },
    {
      method: "PUT",
      pattern: "/api/chats",
      handler: ({ body }) => {
        const bad = onlyFields(body, ["chats"], ["chats"]);
        if (bad) return bad;
        const problem = deps.chats.replace(body.chats);
        if (problem) return fail(400, `Bad request: ${problem}`);
        deps.log.info(`owner api: chat allow-list set (${deps.chats.list().length} chats)`);
        return ok({ chats: deps.chats.list() });
      },
    },
    { method: "GET", pattern: "/api/people", handler: () => ok({ people: deps.people.list().map(personJson) }) },
    { method: "PUT", pattern: "/api/people/:id", handler: ({ params, body }) => updatePerson(deps, params.id, body) },
    {
      method: "GET",
      pattern: "/api/config",
      handler: () => ok({ knobs: deps.config.all().map((k) => ({ ...k, spec: knobSpecJson(k.key) })) }),
    },
    {
      method: "PUT",
      pattern: "/api/config/:key",
      handler: ({ params, body }) => {
        const spec = knobByName(params.key);
        if (!spec) return fail(404, `Not found: the knobs are ${KNOBS.map((k) => k.key).join(", ")}.`);
        const bad = onlyFields(body, ["value"], ["value"]);
        if (bad) return bad;
        const problem = deps.config.apply([[spec.key, body.value]], "owner");
        if (problem) return fail(400, `Bad request: ${problem}`);
        deps.log.info(`owner api: config ${spec.key} changed`);
        return ok({ key: spec.key, value: deps.config.get(spec.key) });
      },
    },
  ];
  if (deps.skills) routes.push(...skillRoutes(deps.skills, deps.log));
  routes.push(...routineRoutes(deps.routines, deps.alerts, deps.log));
  routes.push(...downloadRoutes(deps.downloads, deps.log));
  routes.push(...controlRoutes(deps));
  routes.push(...otaRoutes(deps.ota, deps.log));
  routes.push(...nostrRoutes(deps.nostr, deps.log));
  routes.push(...wifiRoutes(deps.wifi, deps.log));
  return routes;
}

function createClient(deps: OwnerApiDeps, body: { [key: string]: unknown }): ApiReply {
  const bad = onlyFields(body, ["name", "role", "ns", "names", "shares_owner_ns"], ["name", "role"]);
  if (bad) return bad;
  const { name, role, names } = body;
  const ns = body.ns === undefined ? name : body.ns;
  if (typeof name !== "string" || !CLIENT_NAME_PATTERN.test(name))
    return fail(400, "Bad request: name is 1-32 of a-z 0-9 . _ - starting with a letter or digit.");
  if (role !== "admin" && role !== "user" && role !== "guest") return fail(400, "Bad request: role is admin, user or guest.");
  if (typeof ns !== "string" || !PERSON_ID_PATTERN.test(ns))
    return fail(400, "Bad request: ns is 1-49 of a-z 0-9 . _ - (it may start with -).");
  if (names !== undefined && names !== "dotted" && names !== "plain") return fail(400, "Bad request: names is dotted or plain.");
  const shared = body.shares_owner_ns;
  if (shared !== undefined && typeof shared !== "boolean") return fail(400, "Bad request: shares_owner_ns is true or false.");
  // A non-admin token in the owner's namespace reads and writes the owner's memory: only on an explicit yes.
  const intoOwnerNs = role !== "admin" && ns === OWNER_PERSON_ID;
  if (intoOwnerNs && shared !== true)
    return fail(400, `Bad request: a ${role} client in the owner's namespace needs shares_owner_ns: true.`);
  if (!intoOwnerNs && shared === true)
    return fail(400, "Bad request: shares_owner_ns applies only to a user or guest client with ns owner.");
  const existing = deps.clients.list();
  if (existing.some((c) => c.name === name)) return fail(409, "Conflict: a client with that name exists.");
  if (existing.length >= MAX_CLIENTS) return fail(409, `Conflict: at most ${MAX_CLIENTS} clients; revoke one first.`);
  const token = deps.clients.create(name, role, ns, { names: names ?? "dotted", sharesOwnerNs: intoOwnerNs });
  deps.log.info(`owner api: client ${name} created (${role}${intoOwnerNs ? ", owner's namespace" : ""})`);
  const view = clientJson(deps.clients.list().find((c) => c.name === name)!);
  return ok({ ...view, token, note: "The token is shown this once; store it now." }, 201);
}

function clientJson(c: McpClient): { [key: string]: unknown } {
  return { name: c.name, role: c.role, ns: c.ns, created: c.created, names: c.names, shares_owner_ns: c.sharesOwnerNs };
}

function revokeClient(deps: OwnerApiDeps, name: string): ApiReply {
  const clients = deps.clients.list();
  const target = clients.find((c) => c.name === name);
  if (!target) return fail(404, "Not found: no client with that name.");
  if (target.role === "admin" && clients.filter((c) => c.role === "admin").length === 1) {
    return fail(409, "Conflict: this is the last admin client; create another admin client first.");
  }
  deps.clients.revoke(name);
  deps.log.info(`owner api: client ${name} revoked`);
  return ok({ revoked: name });
}

function updatePerson(deps: OwnerApiDeps, id: string, body: { [key: string]: unknown }): ApiReply {
  const bad = onlyFields(body, ["role", "quota"], []);
  if (bad) return bad;
  if (body.role === undefined && body.quota === undefined) return fail(400, "Bad request: give role, quota or both.");
  if (body.role !== undefined && !isRole(body.role)) return fail(400, "Bad request: role is admin, user, guest or unknown.");
  let quota: Partial<Quota> | undefined;
  if (body.quota !== undefined) {
    if (body.role === "unknown") return fail(400, "Bad request: a removed person has no quota.");
    const q = body.quota;
    if (typeof q !== "object" || q === null || Array.isArray(q)) return fail(400, "Bad request: quota is an object.");
    const fields = Object.keys(QUOTA_MAXIMUM) as Array<keyof Quota>;
    const badQuota = onlyFields(q as { [key: string]: unknown }, fields, []);
    if (badQuota) return badQuota;
    // Checked before anything is written, so a bad quota never leaves a half-applied change.
    for (const f of fields) {
      const v = (q as { [key: string]: unknown })[f];
      if (v !== undefined && (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > QUOTA_MAXIMUM[f])) {
        return fail(400, `Bad request: quota ${f} must be an integer from 0 to ${QUOTA_MAXIMUM[f]}.`);
      }
    }
    quota = q as Partial<Quota>;
  }
  let person: PersonView | undefined;
  if (body.role !== undefined) {
    const outcome = deps.people.setRole(id, body.role);
    if (!outcome.ok) return outcomeFailure(outcome);
    person = outcome.person;
  }
  if (quota) {
    const outcome = deps.people.setQuota(id, quota);
    if (!outcome.ok) return outcomeFailure(outcome);
    person = outcome.person;
  }
  deps.log.info(`owner api: person ${id} updated`);
  return ok(person ? { person: personJson(person) } : { removed: id });
}

function outcomeFailure(outcome: { tag: string; message: string }): ApiReply {
  const status = outcome.tag === "not-found" ? 404 : outcome.tag === "invalid" ? 400 : 409;
  return fail(status, `${status === 404 ? "Not found" : status === 400 ? "Bad request" : "Conflict"}: ${outcome.message}`);
}

function personJson(p: PersonView): { [key: string]: unknown } {
  return { id: p.id, role: p.role, quota: p.quota, overridden: p.overridden, added: p.added };
}

function knobSpecJson(key: string): { [key: string]: unknown } {
  const s: KnobSpec = knobByName(key)!;
  return {
    type: s.type,
    min: s.min,
    max: s.max,
    values: s.values,
    pattern: s.pattern ? s.pattern.source : undefined,
    default: s.default,
    description: s.description,
  };
}

function skillRoutes(skills: SkillApprovals, log: Log): Array<Route<ApiHandler>> {
  const decide =
    (verb: "approve" | "reject") =>
    ({ params, body }: ApiCall): ApiReply => {
      const extra = noFields(body);
      if (extra) return extra;
      if (!skills.listPending().some((s) => s.id === params.id)) return fail(404, "Not found: no pending skill with that id.");
      let result: unknown;
      let why = `the skill could not be ${verb === "approve" ? "approved" : "rejected"}.`;
      try {
        result = skills[verb](params.id);
      } catch (e) {
        // The skills store's refusals are one sentence naming no secret (e.g. the card was pulled).
        if (e instanceof Error && e.message.length <= 200) why = e.message;
        result = false;
      }
      if (result === false) return fail(409, `Conflict: ${why}`);
      log.info(`owner api: skill ${params.id} ${verb === "approve" ? "approved" : "rejected"}`);
      return ok({ id: params.id, decision: verb === "approve" ? "approved" : "rejected" });
    };
  return [
    { method: "GET", pattern: "/api/skills/pending", handler: () => ok({ pending: skills.listPending() }) },
    { method: "POST", pattern: "/api/skills/:id/approve", handler: decide("approve") },
    { method: "POST", pattern: "/api/skills/:id/reject", handler: decide("reject") },
  ];
}
