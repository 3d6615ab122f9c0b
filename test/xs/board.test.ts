// The board's pure logic on the XS engine: ring frames, button, captive DNS, Improv and Wi-Fi setup, the same transcript as on Node.
import assert from "node:assert/strict";
import { runBoardScenario } from "../scenarios/board.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("ring, button, DNS, Improv and Wi-Fi setup on XS", () => {
  const run = compareOnXs("test/xs/board.xs.ts", runBoardScenario, 60);

  it("covers what it claims (Node transcript)", () => {
    const lines = run.node();
    assert.ok(lines.includes("ring setup -> setup / setup"));
    assert.ok(lines.includes("button 10000 very-long-press") || lines.some((l) => /very-long-press/.test(l)));
    assert.ok(lines.some((l) => /^dns abcd01000001 -> abcd8500000100010000000007/.test(l)));
    assert.ok(
      lines.some((l) => /^improv .* -> .*0407/.test(l)),
      "an RPC 0x07 result",
    );
    assert.ok(lines.some((l) => /^portal POST \/setup 200 {2}{"ssid":"home","password":"12345678"}/.test(l)));
  });
});
