// MCP protocol revisions this server speaks: the initialize era and the per-request era.

/** The initialize-era revisions, newest first. */
export const HANDSHAKE_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
export const LATEST_HANDSHAKE_VERSION = "2025-11-25";
/** The stateless revision: no initialize, a protocol version in every request's _meta. */
export const MODERN_VERSION = "2026-07-28";
/** What a request without an MCP-Protocol-Version header is taken to speak (the spec's rule). */
export const DEFAULT_HEADER_VERSION = "2025-03-26";

export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, ...HANDSHAKE_VERSIONS];

/** _meta keys of the per-request era. */
export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

export type Era = "legacy" | "modern";

export function isHandshakeVersion(v: string): boolean {
  return HANDSHAKE_VERSIONS.indexOf(v) >= 0;
}

export function isSupportedVersion(v: string): boolean {
  return SUPPORTED_VERSIONS.indexOf(v) >= 0;
}
