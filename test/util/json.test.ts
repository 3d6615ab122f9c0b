// toJson gives JSON.stringify's text for frozen (preloaded) objects as for any other.
import assert from "node:assert/strict";
import { toJson } from "../../lib/util/json.ts";

describe("toJson", () => {
  it("writes the same text as JSON.stringify, frozen objects and arrays included", () => {
    const schema = Object.freeze({ type: "object", properties: Object.freeze({ a: Object.freeze({ type: "string" }) }) });
    const value = { tools: Object.freeze([schema, 1, "x", null]), at: new Date(0), n: 2 };
    assert.equal(toJson(value), JSON.stringify(value));
    assert.equal(toJson(value, 2), JSON.stringify(value, null, 2));
    assert.equal(toJson("s"), '"s"');
  });
});
