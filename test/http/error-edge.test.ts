// The one error edge: every tag has a status (one table), handlers only throw
// refusals and the pipeline writes them (a HaloError by its tag, a bug as a
// logged 500), a middleware's second next() is refused, and no route in
// lib/http turns a tag into a status or writes a refusal body itself.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { errorTags, HaloError, statusOf, type ErrorTag } from "../../lib/errors.ts";
import { HttpError, refusalOf } from "../../lib/http/http-error.ts";
import { HttpPipeline, type Middleware, type RouteSpec } from "../../lib/http/pipeline.ts";
import type { HttpResponse } from "../../lib/http/types.ts";

const text = (r: HttpResponse): string => (typeof r.body === "string" ? r.body : new TextDecoder().decode(r.body));

function route(handler: RouteSpec["handler"], use: Middleware[] = [], errors: RouteSpec["errors"] = "api"): RouteSpec {
  return { method: "GET", pattern: "/x", maxBody: 0, errors, use, handler };
}

/** Lines of lib/http that map a tag to a status or write a refusal body: the edge does both, once. */
function edgeViolations(source: string): string[] {
  return source
    .split("\n")
    .filter((line) => /\.tag\s*[!=]==|errorTag\(|statusOf\(|HALO_STATUS|\{\s*error:\s/.test(line) && !/^\s*(\/\/|\*)/.test(line));
}

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

  it("answers a thrown HaloError with its tag's status, a bug with a logged 500, each in the route's shape", async () => {
    const log = memoryLog();
    const pipeline = new HttpPipeline(
      [
        route(() => {
          throw new HaloError("busy", "an update check is already running.");
        }),
        { ...route(() => Promise.reject(new Error("boom"))), pattern: "/bug" },
        { ...route(() => Promise.reject(new Error("boom"))), pattern: "/rpc", method: "POST", errors: "jsonrpc" },
      ],
      [],
      { validators: {}, log },
    );
    const busy = await pipeline.handle({ method: "GET", path: "/x", headers: {} });
    assert.deepEqual([busy.status, JSON.parse(text(busy))], [409, { error: "Conflict: busy: an update check is already running." }]);
    const bug = await pipeline.handle({ method: "GET", path: "/bug", headers: {} });
    assert.deepEqual(
      [bug.status, JSON.parse(text(bug)), bug.headers["content-type"]],
      [500, { error: "Internal error." }, "application/json"],
    );
    const rpc = await pipeline.handle({ method: "POST", path: "/rpc", headers: {} });
    assert.deepEqual([rpc.status, JSON.parse(text(rpc)).error], [500, { code: -32603, message: "Internal error." }]);
    assert.deepEqual(log.lines, ["warning: request failed: GET /bug: boom", "warning: request failed: POST /rpc: boom"]);
  });

  it("refuses a middleware's second next() with a logged 500, the handler run once", async () => {
    const log = memoryLog();
    let runs = 0;
    const twice: Middleware = async (_ctx, next) => {
      await next();
      return next();
    };
    const pipeline = new HttpPipeline(
      [
        route(() => {
          runs++;
          return { status: 200, headers: {}, body: "" };
        }, [twice]),
      ],
      [],
      { validators: {}, log },
    );
    const r = await pipeline.handle({ method: "GET", path: "/x", headers: {} });
    assert.deepEqual([r.status, JSON.parse(text(r))], [500, { error: "Internal error." }]);
    assert.equal(runs, 1);
    assert.match(log.lines.join("\n"), /called next\(\) twice/);
    // A global middleware that does the same is refused too.
    const global = new HttpPipeline([route(() => ({ status: 200, headers: {}, body: "" }))], [twice], { validators: {}, log });
    assert.equal((await global.handle({ method: "GET", path: "/x", headers: {} })).status, 500);
  });

  it("will not start with a body schema that has no compiled validator", () => {
    const spec: RouteSpec = { ...route(() => ({ status: 200, headers: {}, body: "" })), method: "PUT", body: { type: "object" } };
    assert.throws(
      () => new HttpPipeline([spec], [], { validators: {}, log: memoryLog() }),
      /no compiled validator for the body of PUT \/x/,
    );
  });

  it("leaves the mapping and the writing of refusals to the edge: no route file does either", () => {
    const edge = ["pipeline.ts", "http-error.ts"];
    const offenders: string[] = [];
    for (const name of readdirSync("lib/http")) {
      if (!name.endsWith(".ts") || edge.includes(name)) continue;
      for (const line of edgeViolations(readFileSync(`lib/http/${name}`, "utf8"))) offenders.push(`${name}: ${line.trim()}`);
    }
    assert.deepEqual(offenders, []);
    // The check can fail: today's former idioms are caught.
    assert.equal(edgeViolations('if (e.tag === "not-found") return fail(404, "x");').length, 1);
    assert.equal(edgeViolations('return { status: 409, body: { error: "Conflict: " + why } };').length, 1);
    assert.equal(edgeViolations("const why = errorTag(e);").length, 1);
  });

  it("keeps an HttpError as it is", async () => {
    const pipeline = new HttpPipeline(
      [
        route(() => {
          throw new HttpError(418, "I'm a teapot: no coffee.", { headers: { "retry-after": "5" } });
        }),
      ],
      [],
      { validators: {}, log: memoryLog() },
    );
    const r = await pipeline.handle({ method: "GET", path: "/x", headers: {} });
    assert.deepEqual([r.status, r.headers["retry-after"], JSON.parse(text(r)).error], [418, "5", "I'm a teapot: no coffee."]);
  });
});
