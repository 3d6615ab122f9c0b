// Host addresses, plain tool names, the per-namespace results ring and the rate-limited log on the
// XS engine: the same transcript as on Node, line for line.
import assert from "node:assert/strict";
import { runInteropScenario } from "../scenarios/interop.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("interop parts on XS", () => {
  const cmp = compareOnXs("test/xs/interop.xs.ts", runInteropScenario, 40);

  it("the transcript shows the behaviour, not just agreement", () => {
    const text = cmp.node().join("\n");
    assert.match(text, /^host 0177\.0\.0\.1 -> ipv4 127\.0\.0\.1 local$/m);
    assert.match(text, /^host \[0::ffff:127\.0\.0\.1\] -> ipv6 0:0:0:0:0:ffff:7f00:1 local$/m);
    assert.match(text, /^host 0x8\.0x8\.0x8\.0x8 -> ipv4 8\.8\.8\.8 public$/m);
    assert.match(text, /^host files\.123 -> invalid$/m);
    assert.match(text, /^fetch https:\/\/0x7f\.0\.0\.1:8443\/x -> addresses on the local network or the device itself are not allowed$/m);
    assert.match(text, /^tool docs_search -> docs\.search \(plain docs_search\)$/m);
    assert.match(text, /^tool docs_searchx -> unknown/m);
    assert.match(text, /^ring alice alice's mallory \d+ entries$/m);
    assert.match(
      text,
      /^log 5 lines, 47 withheld: warn request failed: aborted 0 \| .* \| warn log: 47 more like "request failed: aborted 0" withheld \| next window$/m,
    );
  });
});
