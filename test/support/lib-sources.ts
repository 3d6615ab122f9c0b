// The source files of lib/ (the portable core) and their import graph, for the architecture tests.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import ts from "typescript";

/** Every .ts/.js module under `root` (lib/ by default; no .d.ts), as repository-relative paths with "/" separators, sorted. */
export function libModules(root = "lib"): string[] {
  const out: string[] = [];
  for (const name of readdirSync(root).sort()) {
    const path = `${root}/${name}`;
    if (statSync(path).isDirectory()) out.push(...libModules(path));
    else if (/\.(ts|js)$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

// The architecture scans run in one mocha process (tools/test-plan.mjs) and parse each file once between them.
const parsed = new Map<string, ts.SourceFile>();

/** `path` parsed as TypeScript (ES2022), from a cache shared by every scan in this process. */
export function parse(path: string): ts.SourceFile {
  let source = parsed.get(path);
  if (!source) {
    source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
    parsed.set(path, source);
  }
  return source;
}

/** A compiler host for `ts.createProgram` that takes lib/'s files from the shared cache. */
export function cachedHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (file, version, onError, create) =>
    file.startsWith("lib/") && file.endsWith(".ts") && !file.endsWith(".d.ts") ? parse(file) : read(file, version, onError, create);
  return host;
}

export interface ImportEdge {
  from: string;
  /** The imported file (resolved when relative and found), else the specifier as written. */
  to: string;
  /** True when the import is erased at compile time (`import type`, or only `type` specifiers). */
  typeOnly: boolean;
}

const EXTENSIONS = ["", ".ts", ".js", "/index.ts", "/index.js"];

function resolveSpecifier(from: string, specifier: string, exists: (path: string) => boolean): string {
  if (!specifier.startsWith(".")) return specifier;
  const base = normalize(join(dirname(from), specifier)).replace(/\\/g, "/");
  return EXTENSIONS.map((e) => base + e).find(exists) ?? base;
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return false; // `import "x"` runs x
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/** The static imports and re-exports of `files` (dynamic import() is banned in lib/ by the portability test). */
export function importEdges(files: string[], exists: (path: string) => boolean): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const from of files) {
    for (const node of parse(from).statements) {
      if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) continue;
      const spec = node.moduleSpecifier;
      if (!spec || !ts.isStringLiteral(spec)) continue;
      edges.push({ from, to: resolveSpecifier(from, spec.text, exists), typeOnly: isTypeOnly(node) });
    }
  }
  return edges;
}

/** Cycles among the runtime (non-type-only) edges: each strongly connected component, as one cycle path. */
export function runtimeCycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) if (!e.typeOnly) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    const self = next.get(v)?.includes(v);
    if (component.length > 1 || self) cycles.push(cyclePath(component, next));
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

/** One closed path through a strongly connected component, starting and ending at its first member. */
function cyclePath(component: string[], next: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0];
  // Breadth-first search for the shortest way back to `start` inside the component.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of next.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at = v; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
