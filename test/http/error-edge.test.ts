// Every error tag has an HTTP status, from one table (statusOf), and a
// HaloError becomes a refusal with that status and its tagged text.
import assert from "node:assert/strict";
import { errorTags, HaloError, statusOf, type ErrorTag } from "../../lib/errors.ts";
import { refusalOf } from "../../lib/http/http-error.ts";

describe("the HTTP error edge", () => {
  it("gives every error tag an HTTP status from one table", () => {
    const tags = errorTags();
    assert.ok(tags.length >= 36, `${tags.length} tags`);
    assert.equal(new Set(tags).size, tags.length);
    for (const tag of tags) {
      const status = statusOf(tag);
      assert.ok(Number.isInteger(status) && status >= 400 && status <= 599, `${tag}: ${status}`);
      const refusal = refusalOf(new HaloError(tag, "one short sentence."));
      assert.equal(refusal.status, status, tag);
      assert.match(
        refusal.message,
        new RegExp(`^[A-Z][a-z ]+: ${tag.replace("invalid-arguments", "invalid arguments")}: one short sentence\\.$`),
      );
    }
    // The union is the table's keys: a tag outside it does not compile.
    // @ts-expect-error: "no-such-tag" is not an ErrorTag
    const stray: ErrorTag = "no-such-tag";
    assert.equal(tags.indexOf(stray), -1);
  });

  it("maps the tags the owner API meets the way docs/owner-api.md says", () => {
    const expected: Array<[ErrorTag, number]> = [
      ["invalid", 400],
      ["invalid-arguments", 400],
      ["admin-only", 403],
      ["protected-BLOCKED", 403],
      ["not-found", 404],
      ["conflict", 409],
      ["reserved", 409],
      ["last-admin", 409],
      ["busy", 409],
      ["limit", 409],
      ["quota", 409],
      ["not-configured", 409],
      ["no-card", 409],
      ["too-large", 413],
      ["rate-limited", 429],
      ["provider-error", 502],
      ["unavailable", 503],
      ["timeout", 504],
    ];
    for (const [tag, status] of expected) assert.equal(statusOf(tag), status, tag);
  });
});
