import { toJson } from "../util/json";
import { MAX_TOKEN_CHARS } from "../limits";
import type { Digest, Log, Random, Settings } from "../ports";
import { isRole, type Role } from "../registry/principal";
import { constantTimeEqual, fromHex, toHex } from "../util/hash";
import { encodeUtf8 } from "../util/utf8";

/** How a client's tools/list spells tool names: the catalog's dotted names, or dots as underscores (`docs_search`). */
export type NameStyle = "dotted" | "plain";

/** One MCP client: a name, the role its token grants, the namespace it acts in. */
export interface McpClient {
  name: string;
  role: Role;
  ns: string;
  created: number;
  names: NameStyle;
  /** A non-admin client acting in the owner's namespace; the owner said so explicitly when creating it. */
  sharesOwnerNs: boolean;
}

/** Choices made when a client is created; both default to the safe side. */
export interface ClientOptions {
  names?: NameStyle;
  sharesOwnerNs?: boolean;
}

interface StoredClient extends McpClient {
  /** sha256 of the token, hex. The token itself is never stored. */
  hash: string;
}

export const MAX_CLIENTS = 32;
export const CLIENT_NAME_PATTERN: RegExp = /^[a-z0-9][a-z0-9._-]{0,31}$/;
const KEY_PREFIX = "client.";
const TOKEN_PREFIX = "halo_";

/**
 * MCP client tokens: each names a client and maps to a role and namespace.
 * Stored hashed in Settings; a presented token is compared in constant time
 * against every stored hash.
 */
export class ClientTokens {
  private readonly clients = new Map<string, StoredClient>();

  constructor(
    private readonly settings: Settings,
    private readonly digest: Digest,
    private readonly random: Random,
    log: Log,
    private readonly now: () => number,
  ) {
    for (const key of settings.keys(KEY_PREFIX)) {
      const client = parseStored(settings.get(key));
      if (client && KEY_PREFIX + client.name === key) this.clients.set(client.name, client);
      else log.warn(`ignoring unreadable client record ${key}`);
    }
  }

  list(): McpClient[] {
    return Array.from(this.clients.values(), publicView);
  }

  hasAdmin(): boolean {
    for (const c of this.clients.values()) if (c.role === "admin") return true;
    return false;
  }

  /** Creates a client and returns its token; the token is shown this once and never again. */
  create(name: string, role: Role, ns: string, options: ClientOptions = {}): string {
    if (!CLIENT_NAME_PATTERN.test(name)) throw new Error("client name must be 1-32 of a-z 0-9 . _ - starting with a letter or digit");
    if (role === "unknown") throw new Error("a client needs a role other than unknown");
    if (this.clients.has(name)) throw new Error("a client with that name exists");
    if (this.clients.size >= MAX_CLIENTS) throw new Error(`at most ${MAX_CLIENTS} clients`);
    const bytes = new Uint8Array(32);
    this.random.fill(bytes);
    const token = TOKEN_PREFIX + toHex(bytes);
    const client: StoredClient = {
      name,
      role,
      ns,
      created: this.now(),
      names: options.names ?? "dotted",
      sharesOwnerNs: role !== "admin" && options.sharesOwnerNs === true,
      hash: toHex(this.hash(token)),
    };
    this.settings.set(KEY_PREFIX + name, toJson(client));
    this.clients.set(name, client);
    return token;
  }

  /** Revokes at once; true when the client existed. */
  revoke(name: string): boolean {
    if (!this.clients.has(name)) return false;
    this.settings.remove(KEY_PREFIX + name);
    this.clients.delete(name);
    return true;
  }

  /** The client a presented token belongs to, or undefined. */
  verify(token: string): McpClient | undefined {
    if (token.length === 0 || token.length > MAX_TOKEN_CHARS) return undefined;
    const presented = this.hash(token);
    let match: StoredClient | undefined;
    // Every stored hash is compared, so timing says nothing about which one matched.
    for (const c of this.clients.values()) {
      if (constantTimeEqual(presented, fromHex(c.hash)) && !match) match = c;
    }
    if (!match) return undefined;
    return publicView(match);
  }

  private hash(token: string): Uint8Array {
    return this.digest.sha256(encodeUtf8(token));
  }
}

function parseStored(text: string | undefined): StoredClient | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text);
    if (
      typeof v === "object" &&
      v !== null &&
      typeof v.name === "string" &&
      CLIENT_NAME_PATTERN.test(v.name) &&
      isRole(v.role) &&
      typeof v.ns === "string" &&
      typeof v.hash === "string" &&
      /^[0-9a-f]{64}$/.test(v.hash) &&
      typeof v.created === "number"
    ) {
      // Records from before name styles and the owner-namespace flag read as dotted and not shared.
      const names: NameStyle = v.names === "plain" ? "plain" : "dotted";
      return { name: v.name, role: v.role, ns: v.ns, created: v.created, names, sharesOwnerNs: v.sharesOwnerNs === true, hash: v.hash };
    }
  } catch {
    // fall through: unreadable
  }
  return undefined;
}

function publicView(c: StoredClient): McpClient {
  return { name: c.name, role: c.role, ns: c.ns, created: c.created, names: c.names, sharesOwnerNs: c.sharesOwnerNs };
}
