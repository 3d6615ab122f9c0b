// No === or !== (nor == or !=, nor a switch) on BigInts in lib/. On the device a preloaded BigInt constant
// lives in flash with its own slot kind, and XS's strict-equality instruction (Moddable SDK 8.2.3) compares
// BigInts only when both slots have the same kind: `x === ZERO` is false for a BigInt zero in RAM. It was
// found on the SDK's Linux target, where the Nostr key's first use threw; the XS test host preloads nothing
// and cannot show it. lib/nostr/curve/field.ts's equal() compares with <= and >=, which handle both kinds.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { cachedHost, libModules } from "../support/lib-sources.ts";

const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** "file:line: text" for each equality or switch on a BigInt in `files`. */
function bigintEqualities(files: string[]): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    allowJs: true,
    lib: ["lib.es2023.d.ts"],
  };
  const program = ts.createProgram(files, options, cachedHost(options));
  const checker = program.getTypeChecker();
  const isBigInt = (node: ts.Expression): boolean => (checker.getTypeAtLocation(node).flags & ts.TypeFlags.BigIntLike) !== 0;
  const found: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    const visit = (node: ts.Node): void => {
      const flagged =
        (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind) && (isBigInt(node.left) || isBigInt(node.right))) ||
        (ts.isSwitchStatement(node) && isBigInt(node.expression));
      if (flagged) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push(`${file}:${line}: ${node.getText().split("\n")[0]}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe("BigInts in lib/ are compared with equal(), never ===", () => {
  it("finds no equality or switch on a BigInt in lib/", () => {
    const files = libModules().filter((f) => f.endsWith(".ts") && !f.startsWith("lib/generated/"));
    assert.deepEqual(bigintEqualities(files), []);
  });

  it("the scan finds each form (the check can fail)", () => {
    const dir = mkdtempSync(join(tmpdir(), "bigint-eq-"));
    const file = join(dir, "sample.ts");
    writeFileSync(
      file,
      [
        "const ZERO = BigInt(0);",
        "export function a(x: bigint): boolean { return x === ZERO; }",
        "export function b(x: bigint): boolean { return ZERO != x; }",
        "export function c(x: bigint): number { switch (x) { default: return 1; } }",
        "export function d(x: number): boolean { return x === 0; }",
        "",
      ].join("\n"),
    );
    assert.deepEqual(
      bigintEqualities([file]).map((l) => l.slice(file.length + 1)),
      ["2: x === ZERO", "3: ZERO != x", "4: switch (x) { default: return 1; }"],
    );
  });
});
