// Every owner API endpoint: the core's own (secrets, clients, provider
// priority, chats, people, config, pending skills) here, each other group in
// its own owner-*.ts file. Handlers answer success only and throw refusals.
import type { ConfigStore } from "../device/config";
import { KNOBS, knobByName, type KnobSpec } from "../device/knobs";
import type { ProviderPriority } from "../device/provider-priority";
import { isSecretName, SECRET_NAMES, type SecretStore } from "../device/secrets";
import { HaloError } from "../errors";
import type { Log, Wifi } from "../ports";
import type { ChatAllowList } from "../people/chat-allowlist";
import { MAX_CLIENTS, type ClientTokens, type McpClient } from "../people/clients";
import { OWNER_PERSON_ID, type PeopleOutcome, type PeopleStore, type PersonView } from "../people/people";
import { BODIES, type BodyOf } from "./bodies";
import { badRequest, conflict, type HttpError, notFound } from "./http-error";
import { controlRoutes, type OwnerControlDeps } from "./owner-controls";
import { ok, withBody, type ApiReply, type OwnerRoute } from "./owner-route";
import { downloadRoutes, type DownloadApprovals } from "./owner-downloads";
import { nostrRoutes, type NostrOwnerSettings } from "./owner-nostr";
import { routineRoutes, type AlertReader, type RoutineApprovals } from "./owner-routines";
import { otaRoutes, type OtaOwner } from "./owner-ota";
import { blossomRoutes, type BlossomOwner } from "./owner-blossom";
import { walletRoutes, type WalletOwner } from "./owner-wallet";
import { wifiRoutes } from "./owner-wifi";

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
  /** The Cashu wallet's holdings, rails and approvals (lib/http/owner-wallet.ts). */
  wallet?: WalletOwner;
  /** The Blossom servers (lib/http/owner-blossom.ts). */
  blossom?: BlossomOwner;
  /** The Wi-Fi radio (lib/http/owner-wifi.ts); undefined on a host without one, which the endpoints then say. */
  wifi?: Wifi;
}

/** Every owner API endpoint; the skills endpoints only when a skills store exists. */
export function ownerRoutes(deps: OwnerApiDeps): OwnerRoute[] {
  const unknownSecret = (): HttpError => notFound(`the secrets are ${SECRET_NAMES.join(", ")}.`);
  const routes: OwnerRoute[] = [
    { method: "GET", pattern: "/api/secrets", handler: () => ok({ secrets: deps.secrets.status() }) },
    withBody({
      method: "PUT",
      pattern: "/api/secrets/:name",
      body: BODIES.secret,
      handler: ({ params, body }) => {
        if (!isSecretName(params.name)) throw unknownSecret();
        const problem = deps.secrets.set(params.name, body.value);
        if (problem) throw badRequest(problem);
        return ok({ name: params.name, set: true });
      },
    }),
    {
      method: "DELETE",
      pattern: "/api/secrets/:name",
      handler: ({ params }) => {
        if (!deps.secrets.clear(params.name)) throw unknownSecret();
        return ok({ name: params.name, set: false });
      },
    },
    { method: "GET", pattern: "/api/clients", handler: () => ok({ clients: deps.clients.list().map(clientJson) }) },
    withBody({ method: "POST", pattern: "/api/clients", body: BODIES.client, handler: ({ body }) => createClient(deps, body) }),
    { method: "DELETE", pattern: "/api/clients/:name", handler: ({ params }) => revokeClient(deps, params.name) },
    { method: "GET", pattern: "/api/providers/priority", handler: () => ok({ priority: deps.priority.get() }) },
    withBody({
      method: "PUT",
      pattern: "/api/providers/priority",
      body: BODIES.priority,
      handler: ({ body }) => {
        const problem = deps.priority.set(body.priority);
        if (problem) throw badRequest(problem);
        deps.log.info("owner api: provider priority changed");
        return ok({ priority: deps.priority.get() });
      },
    }),
    { method: "GET", pattern: "/api/chats", handler: () => ok({ chats: deps.chats.list() }) },
    withBody({
      method: "PUT",
      pattern: "/api/chats",
      body: BODIES.chats,
      handler: ({ body }) => {
        const problem = deps.chats.replace(body.chats);
        if (problem) throw badRequest(problem);
        deps.log.info(`owner api: chat allow-list set (${deps.chats.list().length} chats)`);
        return ok({ chats: deps.chats.list() });
      },
    }),
    { method: "GET", pattern: "/api/people", handler: () => ok({ people: deps.people.list().map(personJson) }) },
    withBody({
      method: "PUT",
      pattern: "/api/people/:id",
      body: BODIES.person,
      handler: ({ params, body }) => updatePerson(deps, params.id, body),
    }),
    {
      method: "GET",
      pattern: "/api/config",
      handler: () => ok({ knobs: deps.config.all().map((k) => ({ ...k, spec: knobSpecJson(k.key) })) }),
    },
    withBody({
      method: "PUT",
      pattern: "/api/config/:key",
      body: BODIES.knob,
      handler: ({ params, body }) => {
        const spec = knobByName(params.key);
        if (!spec) throw notFound(`the knobs are ${KNOBS.map((k) => k.key).join(", ")}.`);
        const problem = deps.config.apply([[spec.key, body.value]], "owner");
        if (problem) throw badRequest(problem);
        deps.log.info(`owner api: config ${spec.key} changed`);
        return ok({ key: spec.key, value: deps.config.get(spec.key) });
      },
    }),
  ];
  if (deps.skills) routes.push(...skillRoutes(deps.skills, deps.log));
  routes.push(...routineRoutes(deps.routines, deps.alerts, deps.log));
  routes.push(...downloadRoutes(deps.downloads, deps.log));
  routes.push(...controlRoutes(deps));
  routes.push(...otaRoutes(deps.ota, deps.log));
  routes.push(...nostrRoutes(deps.nostr, deps.log));
  routes.push(...wifiRoutes(deps.wifi, deps.log));
  routes.push(...walletRoutes(deps.wallet, deps.log));
  routes.push(...blossomRoutes(deps.blossom, deps.log));
  return routes;
}

function createClient(deps: OwnerApiDeps, body: BodyOf<"client">): ApiReply {
  const { name, role, names } = body;
  const ns = body.ns ?? name;
  const shared = body.shares_owner_ns;
  // A non-admin token in the owner's namespace reads and writes the owner's memory: only on an explicit yes.
  const intoOwnerNs = role !== "admin" && ns === OWNER_PERSON_ID;
  if (intoOwnerNs && shared !== true) throw badRequest(`a ${role} client in the owner's namespace needs shares_owner_ns: true.`);
  if (!intoOwnerNs && shared === true) throw badRequest("shares_owner_ns applies only to a user or guest client with ns owner.");
  const existing = deps.clients.list();
  if (existing.some((c) => c.name === name)) throw conflict("a client with that name exists.");
  if (existing.length >= MAX_CLIENTS) throw conflict(`at most ${MAX_CLIENTS} clients; revoke one first.`);
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
  if (!target) throw notFound("no client with that name.");
  if (target.role === "admin" && clients.filter((c) => c.role === "admin").length === 1) {
    throw conflict("this is the last admin client; create another admin client first.");
  }
  deps.clients.revoke(name);
  deps.log.info(`owner api: client ${name} revoked`);
  return ok({ revoked: name });
}

function updatePerson(deps: OwnerApiDeps, id: string, body: BodyOf<"person">): ApiReply {
  const { role, quota } = body;
  if (role === undefined && quota === undefined) throw badRequest("give role, quota or both.");
  // Checked before anything is written, so a refused quota never leaves a half-applied change.
  if (quota !== undefined && role === "unknown") throw badRequest("a removed person has no quota.");
  let person: PersonView | undefined;
  if (role !== undefined) person = settled(deps.people.setRole(id, role));
  if (quota !== undefined) person = settled(deps.people.setQuota(id, quota));
  deps.log.info(`owner api: person ${id} updated`);
  return ok(person ? { person: personJson(person) } : { removed: id });
}

/** The person a people-store change left, or its refusal thrown with its tag. */
function settled(outcome: PeopleOutcome): PersonView | undefined {
  if (!outcome.ok) throw new HaloError(outcome.tag, outcome.message);
  return outcome.person;
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

function skillRoutes(skills: SkillApprovals, log: Log): OwnerRoute[] {
  const decide = (verb: "approve" | "reject"): OwnerRoute =>
    withBody({
      method: "POST",
      pattern: `/api/skills/:id/${verb}`,
      body: BODIES.nothing,
      handler: ({ params }) => {
        const done = verb === "approve" ? "approved" : "rejected";
        if (!skills.listPending().some((s) => s.id === params.id)) throw notFound("no pending skill with that id.");
        if (skills[verb](params.id) === false) throw conflict(`the skill could not be ${done}.`);
        log.info(`owner api: skill ${params.id} ${done}`);
        return ok({ id: params.id, decision: done });
      },
    });
  return [
    { method: "GET", pattern: "/api/skills/pending", handler: () => ok({ pending: skills.listPending() }) },
    decide("approve"),
    decide("reject"),
  ];
}
