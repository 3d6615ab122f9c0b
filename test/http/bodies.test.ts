// Request bodies are checked by compiled schemas, like tool arguments: every
// schema of lib/http/bodies.ts refuses unknown fields at every level and is
// used by a route; every PUT and POST under /api/ declares one (the webhook
// and the voice upload aside); and on every such route of the simulator an
// unknown field or a wrong type is refused 400 naming the field, never the value.
import assert from "node:assert/strict";
import type { HttpResponse } from "../../lib/app/halo.ts";
import { BODIES } from "../../lib/http/bodies.ts";
import type { RouteSpec } from "../../lib/http/pipeline.ts";
import type { JsonSchema } from "../../lib/registry/types.ts";
import { encodeUtf8 } from "../../lib/util/utf8.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";

/** Routes whose body is not a JSON object of known fields: what fired a skill (any JSON), and WAV uploads. */
const NO_SCHEMA = ["POST /api/nostr/skills/:id/webhook", "POST /api/voice", "POST /api/wake/examples"];

/** Every object level of a schema says additionalProperties: false. */
function closedEverywhere(schema: JsonSchema, where: string): string[] {
  const open: string[] = [];
  const types = ([] as unknown[]).concat(schema.type);
  if (types.includes("object") && schema.additionalProperties !== false) open.push(where);
  for (const [name, sub] of Object.entries((schema.properties ?? {}) as { [name: string]: JsonSchema })) {
    open.push(...closedEverywhere(sub, `${where}.${name}`));
  }
  if (schema.items) open.push(...closedEverywhere(schema.items as JsonSchema, `${where}[]`));
  return open;
}

/** A value the property takes (ajv checks required fields before unknown ones). */
function validFor(property: JsonSchema): unknown {
  if (Array.isArray(property.enum)) return property.enum[0];
  const types = ([] as unknown[]).concat(property.type);
  if (types.includes("null")) return null;
  if (types.includes("string")) return "a";
  if (types.includes("integer") || types.includes("number")) return property.minimum ?? 1;
  if (types.includes("boolean")) return true;
  return types.includes("array") ? [] : {};
}

/** The required fields of a schema, each with a value it takes. */
function requiredOf(schema: JsonSchema): { [name: string]: unknown } {
  const properties = (schema.properties ?? {}) as { [name: string]: JsonSchema };
  return Object.fromEntries(((schema.required ?? []) as string[]).map((name) => [name, validFor(properties[name])]));
}

/** A value of a type the property does not take (the value itself is a canary no answer may echo). */
function wrongFor(property: JsonSchema): unknown {
  return ([] as unknown[]).concat(property.type).includes("array") ? "VALUE-HOSTILE" : ["VALUE-HOSTILE"];
}

describe("request bodies checked by compiled schemas", function () {
  this.timeout(30_000);
  let sim: TestSim;
  let routes: RouteSpec[];
  before(async () => {
    sim = await startTestSim();
    routes = sim.halo.http.routes();
  });
  after(async () => sim.stop());

  const send = async (route: RouteSpec, body: unknown): Promise<HttpResponse & { json: { error: string } }> => {
    const res = await sim.halo.handleHttp({
      method: route.method,
      path: route.pattern.replace(/:[a-z]+/g, "x1"),
      headers: { authorization: `Bearer ${sim.token}`, "content-type": "application/json" },
      body: encodeUtf8(JSON.stringify(body)),
    });
    return { ...res, json: JSON.parse(String(res.body)) };
  };

  it("closes every schema at every level, and a route uses each one", () => {
    for (const [name, schema] of Object.entries(BODIES)) {
      assert.deepEqual(closedEverywhere(schema, name), [], name);
      assert.ok(
        routes.some((r) => r.body === schema),
        `no route takes BODIES.${name}`,
      );
    }
  });

  it("gives every PUT and POST under /api/ a body schema", () => {
    const writes = routes.filter((r) => (r.method === "PUT" || r.method === "POST") && r.pattern.startsWith("/api/"));
    assert.ok(writes.length >= 30, `${writes.length} routes`);
    const without = writes.filter((r) => !r.body).map((r) => `${r.method} ${r.pattern}`);
    assert.deepEqual(without, NO_SCHEMA);
  });

  it("refuses an unknown field on every route with a body, approve and reject included, naming no value", async () => {
    for (const route of routes.filter((r) => r.body)) {
      const r = await send(route, { ...requiredOf(route.body!), "zzz-HOSTILE": "VALUE-HOSTILE" });
      const label = `${route.method} ${route.pattern}: ${r.json.error}`;
      assert.equal(r.status, 400, label);
      assert.match(r.json.error, /^Bad request: (unknown field; the fields are [a-z_, ]+\.|this endpoint takes no body fields\.)$/, label);
      assert.doesNotMatch(String(r.body), /HOSTILE/, label);
    }
  });

  it("refuses a field of the wrong type naming the field, never the value", async () => {
    for (const route of routes.filter((r) => r.body && Object.keys(r.body.properties as object).length > 0)) {
      const properties = route.body!.properties as { [name: string]: JsonSchema };
      const body = Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, wrongFor(p)]));
      const r = await send(route, body);
      const label = `${route.method} ${route.pattern}`;
      assert.equal(r.status, 400, label);
      assert.match(r.json.error, /^Bad request: '[a-z_.0-9A-Z]+' must /, label);
      assert.doesNotMatch(String(r.body), /HOSTILE/, label);
    }
  });
});
