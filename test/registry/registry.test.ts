import { nodeTimers } from "../../hosts/sim/ports/timers.ts";
import assert from "node:assert/strict";
import Ajv, { type ValidateFunction } from "ajv";
import { memoryLog, systemClock } from "../../hosts/sim/ports/node-basics.ts";
import { RESULT_CLAMP_BYTES } from "../../lib/limits.ts";
import { HaloError } from "../../lib/errors.ts";
import { UnknownToolError } from "../../lib/registry/errors.ts";
import { ToolRegistry } from "../../lib/registry/registry.ts";
import type { CompiledValidator, JsonSchema, ToolDefinition } from "../../lib/registry/types.ts";
import { ResultsRing } from "../../lib/registry/results-ring";
import { utf8Length } from "../../lib/util/utf8.ts";
import { principal } from "../support/registry.ts";

const ajv = new Ajv();
const ECHO: JsonSchema = {
  type: "object",
  properties: { text: { type: "string", maxLength: 100000 }, n: { type: "integer", minimum: 0, maximum: 9 } },
  required: ["text"],
  additionalProperties: false,
};

/** An ajv function compiled at run time, reporting as the generated validators do. */
function reporting(compiled: ValidateFunction): CompiledValidator {
  return (data, report) => {
    const ok = compiled(data);
    report.errors = compiled.errors;
    return ok;
  };
}

function tool(over: Partial<ToolDefinition> = {}): ToolDefinition {
  const schema = over.inputSchema ?? ECHO;
  return {
    name: "test.echo",
    description: "Echo the text.",
    inputSchema: schema,
    needs: [],
    handler: (args) => ({ text: String(args.text) }),
    validate: reporting(ajv.compile(schema)),
    ...over,
  };
}

function fresh(): { registry: ToolRegistry; ring: ResultsRing; log: ReturnType<typeof memoryLog> } {
  const ring = new ResultsRing();
  const log = memoryLog();
  return { registry: new ToolRegistry({ validators: {}, ring, log, clock: systemClock, timers: nodeTimers }), ring, log };
}

describe("ToolRegistry", () => {
  it("refuses malformed and duplicate names at registration", () => {
    const { registry } = fresh();
    for (const name of ["", "has space", "slash/name", "x".repeat(129), "ünïcode"]) {
      assert.throws(() => registry.register(tool({ name }), {}), /bad tool name/);
    }
    registry.register(tool({ name: "a.b-c_D9" }), {});
    assert.throws(() => registry.register(tool({ name: "a.b-c_D9" }), {}), /duplicate tool/);
    registry.register(tool({ name: "x".repeat(128) }), {});
  });

  it("refuses a tool whose schema has no build-time validator", () => {
    const { registry } = fresh();
    assert.throws(() => registry.register(tool({ validate: undefined }), {}), /no compiled validator for test.echo/);
    assert.throws(() => registry.register(tool({ inputSchema: { type: "string" } }), {}), /object inputSchema/);
  });

  it("advertises to each principal exactly what it may call", () => {
    const { registry } = fresh();
    registry.register(tool({ name: "open.tool" }), {});
    registry.register(tool({ name: "admin.tool", adminOnly: true }), {});
    registry.register(tool({ name: "turn.tool", turnOnly: true }), {});
    registry.register(tool({ name: "unattended.no", refuseScheduled: true }), {});
    const names = (p: ReturnType<typeof principal>) => registry.toolSpecsFor(p).map((s) => s.name);
    assert.deepEqual(names(principal("admin", "turn")), ["open.tool", "admin.tool", "turn.tool", "unattended.no"]);
    assert.deepEqual(names(principal("admin", "mcp")), ["open.tool", "admin.tool", "unattended.no"]);
    assert.deepEqual(names(principal("user", "turn")), ["open.tool", "turn.tool", "unattended.no"]);
    assert.deepEqual(names(principal("admin", "turn", "admin", true)), ["open.tool", "turn.tool"]);
    assert.deepEqual(names(principal("unknown", "turn")), []);
    assert.match(registry.manifest(principal("user", "turn")), /^- open.tool\(text, n\?\): Echo the text\.$/m);
    assert.doesNotMatch(registry.manifest(principal("user", "turn")), /admin.tool/);
  });

  it("refuses a hidden tool in the handler path with a policy tag", async () => {
    const { registry } = fresh();
    let ran = 0;
    const handler = () => (ran++, { text: "ran" });
    registry.register(tool({ name: "admin.tool", adminOnly: true, handler }), {});
    registry.register(tool({ name: "turn.tool", turnOnly: true, handler }), {});
    const args = { text: "x" };
    assert.match((await registry.dispatch("admin.tool", args, principal("user"))).text, /^admin-only:/);
    assert.match((await registry.dispatch("admin.tool", args, principal("guest"))).text, /^admin-only:/);
    assert.match((await registry.dispatch("admin.tool", args, principal("admin", "turn", "o", true))).text, /^scheduled-refused:/);
    assert.match((await registry.dispatch("turn.tool", args, principal("admin", "mcp"))).text, /^turn-only:/);
    assert.match((await registry.dispatch("turn.tool", args, principal("unknown", "turn"))).text, /^not-approved:/);
    assert.equal(ran, 0);
    assert.equal((await registry.dispatch("admin.tool", args, principal("admin"))).text, "ran");
  });

  it("throws UnknownToolError for a name it does not hold", async () => {
    const { registry } = fresh();
    await assert.rejects(registry.dispatch("nope", {}, principal()), UnknownToolError);
  });

  it("validates arguments and never runs the handler on bad input", async () => {
    const { registry } = fresh();
    let ran = 0;
    registry.register(tool({ handler: (a) => (ran++, { text: String(a.text) }) }), {});
    const cases: Array<[unknown, RegExp]> = [
      [[], /must be an object/],
      ["text", /must be an object/],
      [null, /must be an object/],
      [{}, /'text' is required/],
      [{ text: 5 }, /'text' must be string/],
      [{ text: "a", extra: 1 }, /unknown argument 'extra'/],
      [{ text: "a", n: 10 }, /'n' must be <= 9/],
      [{ text: "a", n: 1.5 }, /'n' must be integer/],
      [{ text: "a", ["k".repeat(500)]: 1 }, /unknown argument 'k{40}…'/],
    ];
    for (const [args, expected] of cases) {
      const r = await registry.dispatch("test.echo", args, principal());
      assert.equal(r.isError, true, String(args));
      assert.match(r.text, expected);
    }
    assert.equal(ran, 0);
  });

  it("turns handler failures into short isError results", async () => {
    const { registry, log } = fresh();
    registry.register(
      tool({
        name: "t.toolerror",
        handler: () => {
          throw new HaloError("no-card", "the card is out.");
        },
      }),
      {},
    );
    registry.register(
      tool({
        name: "t.crash",
        handler: () => {
          throw new TypeError("secret-value-xyz");
        },
      }),
      {},
    );
    registry.register(
      tool({
        name: "t.async",
        handler: async () => {
          throw new Error("boom");
        },
      }),
      {},
    );
    assert.deepEqual(await registry.dispatch("t.toolerror", { text: "" }, principal()), {
      text: "no-card: the card is out.",
      isError: true,
      error: { tag: "no-card", sentence: "the card is out." },
    });
    const crash = await registry.dispatch("t.crash", { text: "" }, principal());
    assert.deepEqual(crash, {
      text: "internal error: t.crash failed.",
      isError: true,
      error: { tag: "failed", sentence: "t.crash failed." },
    });
    assert.equal((await registry.dispatch("t.async", { text: "" }, principal())).isError, true);
    assert.ok(
      log.lines.every((l) => !l.includes("secret-value-xyz")),
      "exception messages stay out of the log",
    );
  });

  it("clamps a large result, keeps it whole in the ring for its namespace only", async () => {
    const { registry } = fresh();
    registry.register(tool(), {});
    const big = "é".repeat(10000); // 20,000 bytes
    const r = await registry.dispatch("test.echo", { text: big }, principal("user", "mcp", "alice"));
    assert.equal(r.truncated, true);
    assert.ok(r.tag);
    assert.ok(utf8Length(r.text) <= RESULT_CLAMP_BYTES, `clamped to ${utf8Length(r.text)}`);
    assert.match(r.text, new RegExp(`results.get tag ${r.tag}\\]$`));
    const whole = await registry.dispatch("results.get", { tag: r.tag }, principal("user", "mcp", "alice")).catch((e) => e);
    assert.ok(whole instanceof UnknownToolError, "results tools are registered by registerResultTools, not here");
    const small = await registry.dispatch("test.echo", { text: "hi" }, principal());
    assert.deepEqual(small, { text: "hi" });
  });
});
