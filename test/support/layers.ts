// The folder layers of lib/ (docs/architecture.md, "Layers"), for the import test and anyone who
// wants to see where a folder stands.
import type { ImportEdge } from "./lib-sources.ts";

/**
 * The layers, lowest first: a folder may import its own files and any folder of a lower layer, never one
 * of its own layer or above. Type-only imports count: a layer must not even name what is above it.
 */
export const LAYERS: ReadonlyArray<{ name: string; folders: readonly string[] }> = [
  { name: "base", folders: ["(root)"] },
  { name: "utilities", folders: ["util", "generated"] },
  { name: "registry", folders: ["registry"] },
  { name: "protocols and people", folders: ["mcp", "net", "people"] },
  { name: "device and stores", folders: ["device", "store", "wake"] },
  { name: "memory and updates", folders: ["memory", "ota"] },
  { name: "providers", folders: ["providers"] },
  { name: "speech and search", folders: ["voice", "web"] },
  { name: "messaging and money", folders: ["chat", "nostr", "wallet"] },
  { name: "turns and agents", folders: ["turn", "agents"] },
  { name: "status", folders: ["status"] },
  { name: "tools", folders: ["tools"] },
  { name: "http", folders: ["http"] },
  { name: "app", folders: ["app"] },
];

/** Generated files belong to the folder that reads them (they hold its data, built by `npm run gen`). */
const GENERATED_OWNER: { readonly [file: string]: string } = {
  "lib/generated/docs-pack.ts": "store",
  "lib/generated/web-assets.ts": "http",
};

/** The folder a lib/ file belongs to for layering: its first folder under lib/, "(root)" for lib/*.ts. */
export function folderOf(file: string): string | undefined {
  if (!file.startsWith("lib/")) return undefined;
  if (GENERATED_OWNER[file]) return GENERATED_OWNER[file];
  const parts = file.split("/");
  return parts.length > 2 ? parts[1] : "(root)";
}

export function layerOf(folder: string): number {
  return LAYERS.findIndex((l) => l.folders.includes(folder));
}

/** Every import that breaks the layers, as a sentence; the portable core never reaches hosts/ or test/. */
export function layerViolations(edges: ImportEdge[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    if (/^(\.\.\/)*(hosts|test)\/|^(hosts|test)\//.test(e.to)) {
      out.push(`${e.from} imports ${e.to}: lib/ never imports hosts/ or test/`);
      continue;
    }
    const from = folderOf(e.from);
    const to = folderOf(e.to);
    if (from === undefined || to === undefined || from === to) continue;
    const a = layerOf(from);
    const b = layerOf(to);
    if (a < 0) out.push(`${e.from}: lib/${from}/ has no layer in LAYERS`);
    else if (b < 0) out.push(`${e.to}: lib/${to}/ has no layer in LAYERS`);
    else if (b >= a) {
      const where = b === a ? `the same layer (${LAYERS[a].name})` : `a higher layer (${LAYERS[b].name} above ${LAYERS[a].name})`;
      out.push(`${e.from} imports ${e.to}${e.typeOnly ? " (type)" : ""}: ${to}/ is in ${where}`);
    }
  }
  return out;
}
