// One outbound policy: lib/ reaches the HTTP client, the streaming audio client, the resolver and the
// WebSocket port only in the files listed here, each with the reason it may. Everything else that fetches
// (NIP-05, relay information, the release feed's images, mints, Blossom) takes the guarded client of
// lib/net/outbound.ts (`OutboundHttp` or its `GuardedHttp` shape). A file that names a raw port's type, or
// asks for the port by its key (a subsystem's `ports`, a tool's `needs`, `Pick<Ports, "http">`), fails here
// until it is listed with its reason; a listed file that no longer does fails too, so the list stays true.
import assert from "node:assert/strict";
import ts from "typescript";
import { libModules, parse } from "../support/lib-sources.ts";

const RAW_TYPES = new Set(["HttpClient", "WebSocketClient", "AudioHttp", "Resolver"]);
const RAW_KEYS = new Set(["http", "webSocket", "audioHttp", "resolver"]);

const PROVIDER = "owner-set provider base URLs (baseUrls and the owner's keys), never a caller's URL";
const OWNER_RELAYS = "the owner's relays: set only through PUT /api/nostr/relays, never by a caller";

/** The files that may reach a raw port, and why. */
const ALLOWED: { readonly [file: string]: string } = {
  "lib/net/outbound.ts": "the guarded client itself",
  "lib/app/subsystems/outbound.ts": "builds the guarded client from the ports",
  "lib/store/https-fetch.ts": "files.fetch: every hop pinned through lib/net/outbound.ts's pinPublicAddress",
  "lib/store/downloads.ts": "files.fetch's jobs: hand the port to https-fetch.ts",
  "lib/app/subsystems/files.ts": `files.fetch (https-fetch.ts) and image.generate (${PROVIDER})`,
  "lib/app/subsystems/channels.ts": `Telegram and Tavily: ${PROVIDER}`,
  "lib/app/subsystems/memory.ts": `the embedder: ${PROVIDER}`,
  "lib/app/subsystems/providers.ts": PROVIDER,
  "lib/app/subsystems/speech.ts": `speech: ${PROVIDER}`,
  "lib/app/subsystems/voice.ts": `realtime speech: ${PROVIDER}`,
  "lib/app/subsystems/nostr.ts": OWNER_RELAYS,
  "lib/chat/openai-voice.ts": PROVIDER,
  "lib/chat/telegram.ts": PROVIDER,
  "lib/http/owner-controls.ts": `the owner's key checks: ${PROVIDER}`,
  "lib/http/owner-embedder.ts": `the owner's embedder choice: ${PROVIDER}`,
  "lib/http/secret-check.ts": `the owner's key checks: ${PROVIDER}`,
  "lib/memory/embedders/openai.ts": PROVIDER,
  "lib/memory/embedders/select.ts": PROVIDER,
  "lib/nostr/pool.ts": OWNER_RELAYS,
  "lib/nostr/relay.ts": OWNER_RELAYS,
  "lib/nostr/subsystem.ts": OWNER_RELAYS,
  "lib/providers/exchange.ts": PROVIDER,
  "lib/providers/models.ts": PROVIDER,
  "lib/providers/router.ts": PROVIDER,
  "lib/store/image-client.ts": `image.generate: ${PROVIDER}; the image comes back inline, no URL is fetched`,
  "lib/store/image-vision.ts": `image.generate's describe: ${PROVIDER} (image-client.ts's client and base); the image goes up inline`,
  "lib/voice/audio-http.ts": PROVIDER,
  "lib/voice/mistral-speech.ts": `ttsProv mistral: ${PROVIDER}`,
  "lib/voice/realtime-socket.ts": PROVIDER,
  "lib/voice/realtime.ts": PROVIDER,
  "lib/voice/speech-service.ts": PROVIDER,
  "lib/voice/speech.ts": PROVIDER,
  "lib/voice/transcribe.ts": PROVIDER,
  "lib/voice/voice-loop.ts": `realtime speech: ${PROVIDER}`,
  "lib/web/tavily.ts": PROVIDER,
};

/** True when a literal type sits in `Pick<Ports, ...>`, `Omit<Ports, ...>` or `Ports[...]`. */
function namesPorts(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node.parent; n && ts.isTypeNode(n); n = n.parent) {
    if (ts.isIndexedAccessTypeNode(n) && n.objectType.getText() === "Ports") return true;
    if (ts.isTypeReferenceNode(n) && n.typeArguments?.[0]?.getText() === "Ports") return true;
  }
  return false;
}

/** How a file reaches a raw port: the type names and port keys it uses (comments and URL strings do not count). */
function rawUses(file: string): string[] {
  const hits = new Set<string>();
  const walk = (n: ts.Node): void => {
    if (ts.isIdentifier(n) && RAW_TYPES.has(n.text)) hits.add(n.text);
    if (ts.isStringLiteral(n) && RAW_KEYS.has(n.text)) {
      const p = n.parent;
      // `Pick<Ports, "http">`, `Ports["webSocket"]`: a port asked for by its key in a type.
      const inType = ts.isLiteralTypeNode(p) && namesPorts(p);
      // `ports: ["http"]` (a subsystem) or `needs: ["http"]` (a tool).
      const inList =
        ts.isArrayLiteralExpression(p) &&
        ts.isPropertyAssignment(p.parent) &&
        ts.isIdentifier(p.parent.name) &&
        (p.parent.name.text === "ports" || p.parent.name.text === "needs");
      if (inType || inList) hits.add(`"${n.text}"`);
    }
    ts.forEachChild(n, walk);
  };
  walk(parse(file));
  return [...hits].sort();
}

describe("one outbound policy (lib/net/outbound.ts)", () => {
  const files = libModules().filter((f) => f !== "lib/ports.ts" && !f.startsWith("lib/generated/"));
  const uses = new Map(files.map((f) => [f, rawUses(f)]));

  it("finds the raw ports where they are (the scan sees types, port lists and tool needs)", () => {
    assert.deepEqual(uses.get("lib/net/outbound.ts"), ["HttpClient", "Resolver"]);
    assert.ok(uses.get("lib/app/subsystems/nostr.ts")!.includes('"webSocket"'));
    assert.ok(uses.get("lib/app/subsystems/speech.ts")!.includes('"audioHttp"'));
  });

  it("no file outside the list reaches the HTTP client, the resolver or the WebSocket port", () => {
    const unlisted = [...uses].filter(([f, u]) => u.length > 0 && !(f in ALLOWED)).map(([f, u]) => `${f}: ${u.join(", ")}`);
    assert.deepEqual(unlisted, [], "fetch through lib/net/outbound.ts (OutboundHttp / GuardedHttp), or list the file with its reason");
  });

  it("every listed file still reaches a raw port (the list holds no stale entry)", () => {
    const stale = Object.keys(ALLOWED).filter((f) => (uses.get(f) ?? []).length === 0);
    assert.deepEqual(stale, []);
  });

  it("the fetches that come from callers or received data take the guarded client", () => {
    for (const file of [
      "lib/nostr/http-docs.ts",
      "lib/nostr/blossom.ts",
      "lib/ota/engine.ts",
      "lib/ota/download.ts",
      "lib/wallet/cashu/request.ts",
      "lib/wallet/service.ts",
    ]) {
      assert.deepEqual(uses.get(file), [], file);
      assert.match(parse(file).text, /\bGuardedHttp\b|\bOutboundHttp\b/, file);
    }
  });
});
