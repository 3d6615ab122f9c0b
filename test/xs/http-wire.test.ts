// The device's HTTP/1.1 reader and writer on the XS engine: the same transcript as on Node, line for line.
import assert from "node:assert/strict";
import { runHttpWireScenario } from "../scenarios/http-wire.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("HTTP on the wire on XS", () => {
  const cmp = compareOnXs("test/xs/http-wire.xs.ts", runHttpWireScenario, 25);

  it("the transcript shows the behaviour, not just agreement", () => {
    const text = cmp.node().join("\n");
    assert.match(text, /^utf-8 path => GET \/files\/grüße /m);
    assert.match(text, /^chunked body => 501 /m);
    assert.match(text, /^head too large => 431 /m);
  });
});
