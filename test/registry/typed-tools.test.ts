// Typed tools: arguments typed from the schema (checked by tsc over this file),
// MCP annotations derived from each tool's effect, and tagged errors.
import { TEST_HOST } from "../support/halo.ts";
import assert from "node:assert/strict";
import { HaloError, errorTag, taggedText } from "../../lib/errors.ts";
import { annotationsOf } from "../../lib/registry/annotations.ts";
import { defineTool } from "../../lib/registry/define.ts";
import { buildCore } from "../../lib/app/core.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";

describe("typed tools", () => {
  it("types a handler's arguments from its schema (a wrong type does not compile)", () => {
    const tool = defineTool({
      name: "t.typed",
      description: "d",
      effect: "read",
      inputSchema: {
        type: "object",
        properties: {
          a: { type: "string" },
          n: { type: "integer" },
          e: { enum: ["p", "q"] },
          l: { type: "array", items: { type: "string" } },
        },
        required: ["a"],
        additionalProperties: false,
      },
      handler: (args) => {
        const a: string = args.a;
        // @ts-expect-error n is optional: number | undefined, not number
        const n: number = args.n;
        // @ts-expect-error e is "p" | "q", not any string
        const e: "p" = args.e;
        // @ts-expect-error l holds strings
        const l: number[] | undefined = args.l;
        return { text: [a, n, e, l].join(",") };
      },
    });
    assert.equal(tool.name, "t.typed");
  });

  it("derives MCP annotations from the effect", () => {
    assert.deepEqual(annotationsOf({ effect: "read" }), {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    assert.deepEqual(annotationsOf({ effect: "destroy" }), {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
    assert.equal(annotationsOf({ effect: "act", openWorld: true })?.openWorldHint, true);
  });

  it("advertises the annotations in a listing", () => {
    const core = buildCore(memoryPorts(), TEST_HOST);
    const specs = core.registry.toolSpecsFor(makePrincipal("owner", "admin", "mcp"));
    const by = new Map(specs.map((s) => [s.name, s]));
    assert.equal(by.get("docs.search")?.annotations?.readOnlyHint, true);
    assert.equal(by.get("loop.cancel")?.annotations?.destructiveHint, true);
    assert.equal(by.get("files.fetch")?.annotations?.openWorldHint, true);
    assert.equal(by.get("files.fetch")?.annotations?.readOnlyHint, false);
  });

  it("carries a tag from the closed set, and writes it before the sentence", () => {
    const e = new HaloError("not-found", "no such file.");
    assert.equal(e.message, "not-found: no such file.");
    assert.equal(errorTag(e), "not-found");
    assert.equal(errorTag(new Error("not-found: x")), undefined, "a tag is never parsed back out of text");
    assert.equal(taggedText("invalid-arguments", "x is required."), "invalid arguments: x is required.");
  });
});
