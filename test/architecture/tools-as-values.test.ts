// Tools are values (docs/architecture.md, "Typed tools"): each is a top-level `defineTool` constant of
// its namespace's file, every one is on the one list (lib/tools/catalog.ts), only the composition root
// registers them, and a tool's `needs` names exactly the services its handler (and `available`) take,
// so the registry, which hands a tool only what it names, can never hand it too little.
import assert from "node:assert/strict";
import ts from "typescript";
import { libModules, parse } from "../support/lib-sources.ts";
import { memoryCore } from "../support/memory.ts";

/** The `defineTool(...)` calls of a file that are not the initializer of a top-level `export const`. */
function looseDefinitions(file: string, sf: ts.SourceFile): string[] {
  const out: string[] = [];
  const topLevel = new Set<ts.Node>();
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st) || !st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const d of st.declarationList.declarations) if (d.initializer) topLevel.add(d.initializer);
  }
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "defineTool" && !topLevel.has(n)) {
      out.push(`${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/**
 * Each defineTool call's `needs` against the members of its handler's and `available`'s services
 * parameter; `replaced` gives some files another text (the self-check's broken copy).
 */
function needsMismatches(files: string[], replaced: { [file: string]: string } = {}): string[] {
  const options = { strict: true, noEmit: true, allowImportingTsExtensions: true, target: ts.ScriptTarget.ES2022 };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (name) => replaced[name] ?? read(name);
  const program = ts.createProgram(files, options, host);
  const checker = program.getTypeChecker();
  const out: string[] = [];
  for (const file of files) {
    const sf = program.getSourceFile(file)!;
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "defineTool") {
        const spec = n.arguments[0];
        if (spec && ts.isObjectLiteralExpression(spec)) out.push(...checkSpec(spec, checker, file));
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

function checkSpec(spec: ts.ObjectLiteralExpression, checker: ts.TypeChecker, file: string): string[] {
  const prop = (name: string): ts.ObjectLiteralElementLike | undefined =>
    spec.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === name);
  const nameProp = prop("name");
  const tool = nameProp && ts.isPropertyAssignment(nameProp) && ts.isStringLiteral(nameProp.initializer) ? nameProp.initializer.text : file;
  const needsProp = prop("needs");
  const needs =
    needsProp && ts.isPropertyAssignment(needsProp) && ts.isArrayLiteralExpression(needsProp.initializer)
      ? needsProp.initializer.elements.map((e) => (ts.isStringLiteral(e) ? e.text : "?"))
      : [];
  const out: string[] = [];
  for (const key of ["handler", "available"]) {
    const p = prop(key);
    const fn = p && ts.isPropertyAssignment(p) ? p.initializer : p && ts.isMethodDeclaration(p) ? p : undefined;
    if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) || ts.isMethodDeclaration(fn))) continue;
    const param = fn.parameters[key === "handler" ? 2 : 0];
    if (!param) continue;
    const members = checker
      .getTypeAtLocation(param)
      .getProperties()
      .map((s) => s.name)
      .sort();
    const named = [...needs].sort();
    const missing = members.filter((m) => !named.includes(m));
    if (key === "handler" && members.join() !== named.join())
      out.push(`${tool}: needs [${named.join(", ")}] but its handler takes [${members.join(", ")}]`);
    else if (missing.length > 0) out.push(`${tool}: available() takes ${missing.join(", ")}, which needs does not name`);
  }
  return out;
}

describe("tools as values", () => {
  const toolFiles = libModules("lib/tools");

  it("defines every tool as a top-level constant of its namespace's file", () => {
    const loose: string[] = [];
    for (const file of libModules()) loose.push(...looseDefinitions(file, parse(file)));
    assert.deepEqual(loose, []);
  });

  it("registers tools only in the composition root, from the one list", () => {
    const registering = libModules().filter((f) => /\.register(All)?\(/.test(parse(f).text) && f !== "lib/registry/registry.ts");
    assert.deepEqual(registering, ["lib/app/core.ts"]);
    const { core } = memoryCore();
    assert.ok(core.registry.all().length >= 75, `${core.registry.all().length} tools`);
  });

  it("names in `needs` exactly the services each handler takes", function () {
    this.timeout(120_000);
    assert.deepEqual(needsMismatches(toolFiles), []);
  });

  it("the check catches a handler that takes a service its needs leave out", function () {
    this.timeout(120_000);
    const file = "lib/tools/results.ts";
    const text = parse(file).text;
    const broken = text.replace('needs: ["ring"],\n  description: "List', 'needs: [],\n  description: "List');
    assert.notEqual(broken, text, "the fixture found its spot");
    assert.deepEqual(needsMismatches([file], { [file]: broken }), ["results.list: needs [] but its handler takes [ring]"]);
  });
});
