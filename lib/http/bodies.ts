// Every JSON body the HTTP API takes, as a JSON Schema. A route names its
// schema (RouteSpec.body); `npm run gen` compiles every schema here into
// lib/generated/validators.js (keyed by schemaKey, like tool arguments) and
// the pipeline checks each body with it before the handler runs: 400 and one
// sentence naming the field, never its value. Unknown fields are refused
// everywhere. A schema says the shape (types, lengths, ranges, enums); the
// store behind the route still checks what only it knows (duplicates, a
// knob's range, a key's characters). A new body goes here, or the pipeline
// refuses to start ("no compiled validator").
import { FILES_FETCH_MAX_BYTES_LIMIT } from "../limits";
import { BLOSSOM_SERVER_URL_MAX_CHARS, BLOSSOM_SERVERS_MAX } from "../nostr/blossom";
import { NOSTR_RELAY_URL_MAX_CHARS, NOSTR_RELAYS_MAX } from "../nostr/limits";
import { NOSTR_STRANGER_REPLY_MAX_CHARS } from "../nostr/subsystem";
import { MAX_ALLOWED_CHATS } from "../people/chat-allowlist";
import { CLIENT_NAME_PATTERN } from "../people/clients";
import { PERSON_ID_PATTERN, QUOTA_MAXIMUM } from "../people/people";
import { BUDGET_MAX_RESET_DAY, BUDGET_MAX_TOKEN_CEILING, BUDGET_MAX_USD_CEILING, BUDGET_MAX_USD_PER_MTOK } from "../providers/budget";
import { PROVIDER_IDS } from "../providers/types";
import type { FromSchema, ObjectSchema } from "../registry/schema-types";
import { FETCH_POLICIES } from "../store/downloads";
import { WALLET_AMOUNT_MAX_SATS, WALLET_MINT_URL_MAX_CHARS, WALLET_MINTS_MAX } from "../wallet/limits";
import { WALLET_SPENDERS_MAX } from "../wallet/rails";
import { MAX_EXTRA_HOSTS } from "./host-policy";

/** What the simulator's owner route may press (the very long press, a reboot, is not offered). */
export const SIM_BUTTON_GESTURES = ["press", "double-press", "long-press"] as const;

/** A body that carries nothing: the URL says everything (approve, reject, check now). */
const NOTHING = { type: "object", properties: {}, additionalProperties: false } as const satisfies ObjectSchema;

const nullableNumber = (maximum: number) => ({ type: ["number", "null"], minimum: 0, maximum }) as const;

/** Every body schema, by name: the generators compile each one. */
export const BODIES = {
  nothing: NOTHING,
  /** PUT /api/wake: either or both. */
  wake: {
    type: "object",
    properties: { enabled: { type: "boolean" }, sensitivity: { type: "number", minimum: 0, maximum: 1 } },
    additionalProperties: false,
  },
  /** PUT /api/secrets/:name (the store checks the characters). */
  secret: {
    type: "object",
    properties: { value: { type: "string", minLength: 1, maxLength: 512 } },
    required: ["value"],
    additionalProperties: false,
  },
  /** POST /api/clients; ns defaults to the name. */
  client: {
    type: "object",
    properties: {
      name: { type: "string", pattern: CLIENT_NAME_PATTERN.source },
      role: { type: "string", enum: ["admin", "user", "guest"] },
      ns: { type: "string", pattern: PERSON_ID_PATTERN.source },
      names: { type: "string", enum: ["dotted", "plain"] },
      shares_owner_ns: { type: "boolean" },
    },
    required: ["name", "role"],
    additionalProperties: false,
  },
  /** PUT /api/providers/priority (the store refuses duplicates). */
  priority: {
    type: "object",
    properties: { priority: { type: "array", items: { type: "string", enum: PROVIDER_IDS }, maxItems: 8 } },
    required: ["priority"],
    additionalProperties: false,
  },
  /** PUT /api/chats (the store checks each id). */
  chats: {
    type: "object",
    properties: { chats: { type: "array", items: { type: "string" }, maxItems: MAX_ALLOWED_CHATS } },
    required: ["chats"],
    additionalProperties: false,
  },
  /** PUT /api/people/:id: a role, a quota, or both. */
  person: {
    type: "object",
    properties: {
      role: { type: "string", enum: ["admin", "user", "guest", "unknown"] },
      quota: {
        type: "object",
        properties: {
          vectors: { type: "integer", minimum: 0, maximum: QUOTA_MAXIMUM.vectors },
          bytes: { type: "integer", minimum: 0, maximum: QUOTA_MAXIMUM.bytes },
          ttlHours: { type: "integer", minimum: 0, maximum: QUOTA_MAXIMUM.ttlHours },
          pins: { type: "integer", minimum: 0, maximum: QUOTA_MAXIMUM.pins },
        },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  /** PUT /api/config/:key (the knob checks its own type and range). */
  knob: {
    type: "object",
    properties: { value: { type: ["string", "number", "boolean"] } },
    required: ["value"],
    additionalProperties: false,
  },
  /** PUT /api/hosts. */
  hosts: {
    type: "object",
    properties: { hosts: { type: "array", items: { type: "string", maxLength: 253 }, maxItems: MAX_EXTRA_HOSTS } },
    required: ["hosts"],
    additionalProperties: false,
  },
  /** POST /api/sim/button: the simulator's button (simulator only). */
  simButton: {
    type: "object",
    properties: { gesture: { type: "string", enum: SIM_BUTTON_GESTURES } },
    required: ["gesture"],
    additionalProperties: false,
  },
  /** PUT /api/downloads/policy. */
  downloadPolicy: {
    type: "object",
    properties: {
      policy: { type: "string", enum: FETCH_POLICIES },
      max_bytes: { type: "integer", minimum: 1, maximum: FILES_FETCH_MAX_BYTES_LIMIT },
    },
    required: ["policy"],
    additionalProperties: false,
  },
  /** POST /api/downloads/:id/verdict. */
  verdict: {
    type: "object",
    properties: { verdict: { type: "string", enum: ["safe", "unsafe"] } },
    required: ["verdict"],
    additionalProperties: false,
  },
  /** PUT /api/budget. */
  budgetResetDay: {
    type: "object",
    properties: { reset_day: { type: "integer", minimum: 1, maximum: BUDGET_MAX_RESET_DAY } },
    required: ["reset_day"],
    additionalProperties: false,
  },
  /** PUT /api/budget/:provider: null clears a limit. */
  budgetLimits: {
    type: "object",
    properties: {
      usd_ceiling: nullableNumber(BUDGET_MAX_USD_CEILING),
      token_ceiling: { type: ["integer", "null"], minimum: 0, maximum: BUDGET_MAX_TOKEN_CEILING },
      usd_per_mtok_in: nullableNumber(BUDGET_MAX_USD_PER_MTOK),
      usd_per_mtok_out: nullableNumber(BUDGET_MAX_USD_PER_MTOK),
    },
    additionalProperties: false,
  },
  /** PUT /api/models/orchestrator: model null or "" is the provider's own. */
  orchestratorModel: {
    type: "object",
    properties: {
      provider: { type: "string", enum: PROVIDER_IDS },
      model: { type: ["string", "null"], maxLength: 64 },
    },
    required: ["provider"],
    additionalProperties: false,
  },
  /** PUT /api/models/:provider: null is the default (the store checks the name). */
  providerModel: {
    type: "object",
    properties: { model: { type: ["string", "null"], maxLength: 64 } },
    required: ["model"],
    additionalProperties: false,
  },
  /** PUT /api/embedder (the memory engine checks the combination). */
  embedder: {
    type: "object",
    properties: {
      provider: { type: "string", maxLength: 32 },
      dims: { type: "integer" },
      model: { type: "string", maxLength: 128 },
      base_url: { type: "string", maxLength: 512 },
      reembed: { type: "boolean" },
    },
    required: ["provider"],
    additionalProperties: false,
  },
  /** PUT /api/ota/feed: null is the build's own feed. */
  otaFeed: {
    type: "object",
    properties: { url: { type: ["string", "null"], maxLength: 2048 } },
    required: ["url"],
    additionalProperties: false,
  },
  /** POST /api/ota/install. */
  otaInstall: {
    type: "object",
    properties: { version: { type: "string", maxLength: 40 }, restart: { type: "boolean" } },
    required: ["version"],
    additionalProperties: false,
  },
  /** PUT /api/nostr/owner: an npub, nprofile, hex key or NIP-05 name. */
  nostrOwner: {
    type: "object",
    properties: { pubkey: { type: "string", maxLength: 1024 } },
    required: ["pubkey"],
    additionalProperties: false,
  },
  /** PUT /api/nostr/relays (the subsystem checks each URL). */
  nostrRelays: {
    type: "object",
    properties: { relays: { type: "array", items: { type: "string", maxLength: NOSTR_RELAY_URL_MAX_CHARS }, maxItems: NOSTR_RELAYS_MAX } },
    required: ["relays"],
    additionalProperties: false,
  },
  /** PUT /api/wallet/limits: a payment above per_payment_sats, or past daily_sats in a day, waits for the owner. */
  walletLimits: {
    type: "object",
    properties: {
      per_payment_sats: { type: "integer", minimum: 0, maximum: WALLET_AMOUNT_MAX_SATS * 10 },
      daily_sats: { type: "integer", minimum: 0, maximum: WALLET_AMOUNT_MAX_SATS * 10 },
    },
    required: ["per_payment_sats", "daily_sats"],
    additionalProperties: false,
  },
  /** PUT /api/wallet/spenders: the namespaces besides the owner's that may use the wallet. */
  walletSpenders: {
    type: "object",
    properties: {
      spenders: { type: "array", items: { type: "string", pattern: PERSON_ID_PATTERN.source }, maxItems: WALLET_SPENDERS_MAX },
    },
    required: ["spenders"],
    additionalProperties: false,
  },
  /** PUT /api/wallet/mints: the owner's allow-list of mints. */
  walletMints: {
    type: "object",
    properties: {
      allowed: { type: "array", items: { type: "string", minLength: 8, maxLength: WALLET_MINT_URL_MAX_CHARS }, maxItems: WALLET_MINTS_MAX },
    },
    required: ["allowed"],
    additionalProperties: false,
  },
  /** PUT /api/blossom/servers: the Blossom servers the device uses (empty: the owner's kind 10063 list). */
  blossomServers: {
    type: "object",
    properties: {
      servers: {
        type: "array",
        items: { type: "string", minLength: 8, maxLength: BLOSSOM_SERVER_URL_MAX_CHARS },
        maxItems: BLOSSOM_SERVERS_MAX,
      },
    },
    required: ["servers"],
    additionalProperties: false,
  },
  /** PUT /api/nostr/stranger-reply: empty sends nothing. */
  nostrStrangerReply: {
    type: "object",
    properties: { reply: { type: "string", maxLength: NOSTR_STRANGER_REPLY_MAX_CHARS } },
    required: ["reply"],
    additionalProperties: false,
  },
  /** PUT /api/wifi: the password is write-only (checkWifiJoin checks both lengths in bytes). */
  wifi: {
    type: "object",
    properties: { ssid: { type: "string" }, password: { type: "string" } },
    required: ["ssid"],
    additionalProperties: false,
  },
  /** POST /api/chat (the route refuses a blank text; the turn, one past its byte limit). */
  chat: {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
    additionalProperties: false,
  },
} as const satisfies { readonly [name: string]: ObjectSchema };

/** The value a body schema accepts (what the handler of its route reads). */
export type BodyOf<K extends keyof typeof BODIES> = FromSchema<(typeof BODIES)[K]>;
