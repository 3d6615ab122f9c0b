// Preloadable core: a lib/ module's top level holds only constants, functions and classes (docs/architecture.md,
// "Preloadable core"). Fails on a top-level `let`/`var`, a mutable class static field, or a top-level const
// container (array, object, Map, Set, typed array) that a function mutates at run time. Filling a table while
// the module loads is fine: on the device that happens once, at build time, and the result lives in flash. A
// top-level regex with the g or y flag counts as state too (its lastIndex), and so does an instance made while
// loading (`new TextEncoder()`: on the device the host's classes cannot run at build time).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import ts from "typescript";
import { cachedHost, libModules } from "../support/lib-sources.ts";

/** "file: name" for top-level constants that may be mutated at run time, each with the reason. Keep it empty. */
const ALLOWED: Record<string, string> = {};

/**
 * The npm modules lib/ imports are preloaded with it. Their `let`s and plain objects may change at run time
 * (XS keeps the change in RAM), but the linker freezes maps, sets, weak collections and buffers: writing to
 * a module-level one throws on the device (@noble/hashes' sha2 keeps its message schedule in one, which is
 * why lib/util/sha256.ts exists). The scan below names such a container by its constructor.
 */
const UNALIASABLE = /mutates top-level \w+ at run time$/;
/** "file:line" prefixes of writes that never run on Halo's paths, each with the reason. Keep it short. */
const NPM_ALLOWED = [
  // GHASH and POLYVAL, for AES-GCM and GCM-SIV; Halo uses only AES-CBC (NIP-04).
  "node_modules/@noble/ciphers/_polyval.js:186",
  "node_modules/@noble/ciphers/_polyval.js:273",
];

const MUTATING_METHODS = new Set([
  "push",
  "pop",
  "shift",
  "unshift",
  "splice",
  "sort",
  "reverse",
  "fill",
  "copyWithin",
  "set",
  "add",
  "delete",
  "clear",
]);
const CONTAINERS = /^(Map|Set|WeakMap|WeakSet|Array|ArrayBuffer|DataView|(Big)?(Int|Uint|Float)(8|16|32|64)(Clamped)?Array|Object)$/;

function isContainer(init: ts.Expression | undefined): boolean {
  if (!init) return false;
  while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
  if (ts.isArrayLiteralExpression(init) || ts.isObjectLiteralExpression(init)) return true;
  if (ts.isNewExpression(init) && ts.isIdentifier(init.expression)) return CONTAINERS.test(init.expression.text);
  return false;
}

/** A `new X()` other than a container or a RegExp: an object (often the host's) made while the module loads. */
function isInstance(init: ts.Expression | undefined): boolean {
  while (init && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init))) init = init.expression;
  if (!init || !ts.isNewExpression(init)) return false;
  return !ts.isIdentifier(init.expression) || !(CONTAINERS.test(init.expression.text) || init.expression.text === "RegExp");
}

/** A regex with the g or y flag keeps `lastIndex` state that every exec/test/replace writes. */
function isStatefulRegExp(init: ts.Expression | undefined): boolean {
  if (!init) return false;
  if (ts.isRegularExpressionLiteral(init)) return /[gy]/.test(init.text.slice(init.text.lastIndexOf("/") + 1));
  if (!ts.isNewExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text !== "RegExp") return false;
  const flags = init.arguments?.[1];
  return !!flags && ts.isStringLiteralLike(flags) && /[gy]/.test(flags.text);
}

function isRunTime(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isFunctionLike(at)) return true;
    if (ts.isPropertyDeclaration(at) && !at.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) return true;
  }
  return false;
}

/** The identifier an expression like `a`, `a.b`, `a[i].c` starts from. */
function root(expr: ts.Expression): ts.Identifier | undefined {
  while (
    ts.isPropertyAccessExpression(expr) ||
    ts.isElementAccessExpression(expr) ||
    ts.isParenthesizedExpression(expr) ||
    ts.isNonNullExpression(expr) ||
    ts.isAsExpression(expr)
  ) {
    expr = expr.expression;
  }
  return ts.isIdentifier(expr) ? expr : undefined;
}

const ASSIGNMENTS = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.AsteriskEqualsToken,
  ts.SyntaxKind.SlashEqualsToken,
  ts.SyntaxKind.BarEqualsToken,
  ts.SyntaxKind.AmpersandEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
]);

/** The identifier a node mutates through a member (`x.a = 1`, `x[i]++`, `delete x.a`, `x.push(1)`), if any. */
function mutatedThrough(node: ts.Node): ts.Identifier | undefined {
  const member = (e: ts.Expression): ts.Identifier | undefined =>
    ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) ? root(e) : undefined;
  if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)) return member(node.left);
  if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && ts.isLeftHandSideExpression(node.operand)) {
    const op = node.operator;
    if (op === ts.SyntaxKind.PlusPlusToken || op === ts.SyntaxKind.MinusMinusToken) return member(node.operand);
  }
  if (ts.isDeleteExpression(node)) return member(node.expression);
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && MUTATING_METHODS.has(node.expression.name.text)) {
    return root(node.expression.expression);
  }
  return undefined;
}

/** Every top-level mutable state in one module, as "file:line what". */
function topLevelState(file: string, source: ts.SourceFile, checker?: ts.TypeChecker): string[] {
  const problems: string[] = [];
  const at = (node: ts.Node): string => `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const containers = new Map<string, ts.Identifier>();
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      const flags = statement.declarationList.flags;
      const isConst = (flags & ts.NodeFlags.Const) !== 0;
      for (const d of statement.declarationList.declarations) {
        const names = ts.isIdentifier(d.name) ? [d.name.text] : [d.name.getText(source)];
        if (!isConst) problems.push(`${at(d)} top-level ${flags & ts.NodeFlags.Let ? "let" : "var"} ${names[0]}`);
        else if (isInstance(d.initializer)) problems.push(`${at(d)} top-level instance ${names[0]} made while loading`);
        else if (isStatefulRegExp(d.initializer))
          problems.push(`${at(d)} top-level regex ${names[0]} with the g or y flag (lastIndex state)`);
        else if (ts.isIdentifier(d.name) && isContainer(d.initializer)) containers.set(d.name.text, d.name);
      }
    }
    const classes: ts.ClassLikeDeclaration[] = [];
    const collect = (n: ts.Node): void => {
      if (ts.isClassDeclaration(n) || ts.isClassExpression(n)) classes.push(n);
      ts.forEachChild(n, collect);
    };
    collect(statement);
    for (const c of classes) {
      for (const m of c.members) {
        const mods = ts.canHaveModifiers(m) ? (ts.getModifiers(m) ?? []) : [];
        const isStatic = mods.some((x) => x.kind === ts.SyntaxKind.StaticKeyword);
        const isReadonly = mods.some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword);
        if (ts.isPropertyDeclaration(m) && isStatic && !isReadonly) {
          problems.push(`${at(m)} mutable static field ${c.name?.text ?? "(class)"}.${m.name.getText(source)}`);
        }
      }
    }
  }
  const declarationOf = (id: ts.Identifier): ts.Node | undefined => checker?.getSymbolAtLocation(id)?.valueDeclaration;
  const visit = (node: ts.Node): void => {
    const target = mutatedThrough(node);
    if (target && containers.has(target.text) && isRunTime(node)) {
      const declared = containers.get(target.text)!;
      const same = checker ? declarationOf(target) === declared.parent : true;
      if (same && !ALLOWED[`${file}: ${target.text}`]) problems.push(`${at(node)} mutates top-level ${target.text} at run time`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

/** Scans `files` with a type checker, so a local name that shadows a top-level one is told apart. */
function scan(files: string[]): string[] {
  const options: ts.CompilerOptions = {
    allowJs: true,
    noEmit: true,
    noResolve: true,
    noLib: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
  };
  const program = ts.createProgram(files, options, cachedHost(options));
  const checker = program.getTypeChecker();
  return files.flatMap((f) => topLevelState(f, program.getSourceFile(f)!, checker));
}

describe("preloadable core: no mutable state at the top level of lib/", () => {
  it("no top-level let/var, mutable static field, or top-level container mutated at run time", () => {
    assert.deepEqual(scan(libModules()), []);
  });

  it("no npm module lib/ imports writes a top-level map, set or buffer at run time (preloading freezes those)", () => {
    const npm = JSON.parse(readFileSync("hosts/device/npm-modules.json", "utf8")) as {
      modules: Record<string, string>;
      loadedAtRunTime: string[];
    };
    // Modules only lib/wallet/cashu/ reaches are loaded at run time, never preloaded (tools/gen/preload.ts RUN_TIME_ONLY).
    const files = Object.entries(npm.modules)
      .filter(([name]) => !npm.loadedAtRunTime.includes(name))
      .map(([, path]) => resolve("hosts/device", `${path}.js`));
    assert.ok(files.length > 5);
    const found = scan(files)
      .map((p) => p.slice(resolve(".").length + 1))
      .filter((p) => UNALIASABLE.test(p) && !NPM_ALLOWED.some((allowed) => p.startsWith(allowed)));
    assert.deepEqual(found, []);
  });

  it("the npm modules only lib/wallet/cashu/ reaches keep the state docs/wallet.md names (why they load at run time)", () => {
    const npm = JSON.parse(readFileSync("hosts/device/npm-modules.json", "utf8")) as {
      modules: Record<string, string>;
      loadedAtRunTime: string[];
    };
    const files = npm.loadedAtRunTime.map((name) => resolve("hosts/device", `${npm.modules[name]}.js`));
    const found = scan(files)
      .map((p) => p.slice(resolve(".").length + 1))
      .filter((p) => UNALIASABLE.test(p))
      .map((p) => p.replace(/:\d+ /, " "));
    assert.deepEqual([...new Set(found)].sort(), [
      "node_modules/@noble/curves/abstract/curve.js mutates top-level pointWindowSizes at run time",
      "node_modules/@noble/curves/abstract/modular.js mutates top-level FIELD_SQRT at run time",
      "node_modules/@noble/hashes/legacy.js mutates top-level BUF_160 at run time",
      "node_modules/@noble/hashes/legacy.js mutates top-level MD5_W at run time",
      "node_modules/@noble/hashes/legacy.js mutates top-level SHA1_W at run time",
      "node_modules/@noble/hashes/sha2.js mutates top-level SHA256_W at run time",
      "node_modules/@noble/hashes/sha2.js mutates top-level SHA512_W_H at run time",
      "node_modules/@noble/hashes/sha2.js mutates top-level SHA512_W_L at run time",
    ]);
  });

  it("the scan finds each kind of state, and not a parameter that shadows a top-level name", () => {
    const file = join(mkdtempSync(join(tmpdir(), "halo-state-")), "x.ts");
    const lines = [
      "let count = 0;",
      "const table = new Uint8Array(4);",
      "table[0] = 1;", // filled while loading: fine
      "const cache = new Map();",
      "const names = [] as string[];",
      "const limits = { max: 1 } as const;",
      "export class A { static shared = 1; static readonly ok = 2; }",
      "export function f(names: string[]) { cache.set(1, 2); names.push('shadowed'); return limits.max + table[0]; }",
      "export const g = () => { delete (cache as any).x; };",
      "export function h() { names.push(String(count)); }",
      "const ONCE = /a/i;",
      "const EVERY = /a/g;",
      'const STICKY = new RegExp("a", "y");',
      "const encoder = new TextEncoder();",
    ];
    writeFileSync(file, lines.join("\n"));
    assert.deepEqual(
      scan([file]).map((p) => p.slice(file.length)),
      [
        ":1 top-level let count",
        ":7 mutable static field A.shared",
        ":12 top-level regex EVERY with the g or y flag (lastIndex state)",
        ":13 top-level regex STICKY with the g or y flag (lastIndex state)",
        ":14 top-level instance encoder made while loading",
        ":8 mutates top-level cache at run time",
        ":9 mutates top-level cache at run time",
        ":10 mutates top-level names at run time",
      ],
    );
  });
});
