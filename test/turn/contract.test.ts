// The turn contract's schema (strict-mode shape) and its parser: required strings, tolerant arrays, caps.
import assert from "node:assert/strict";
import { SUBAGENT_TASK_MAX_CHARS } from "../../lib/limits.ts";
import { MAX_DEVICE_ACTIONS } from "../../lib/device/actions.ts";
import { MEM_QUERY_MAX_ITEMS, MEM_WRITE_MAX_ITEMS, REPLY_MAX_BYTES, SESSION_OPS_MAX_ITEMS } from "../../lib/turn/bounds.ts";
import { parseTurnAnswer, TURN_ANSWER, TURN_ANSWER_SCHEMA, type TurnAnswer } from "../../lib/turn/contract.ts";
import { deviceElement } from "../../lib/turn/device-form.ts";
import { deviceRegistry } from "../support/registry.ts";
import { answer } from "./support.ts";

function parsed(value: unknown): { answer: TurnAnswer; problems: string[] } {
  const r = parseTurnAnswer(value);
  assert.equal(r.ok, true, r.ok ? "" : r.error);
  return r as { ok: true; answer: TurnAnswer; problems: string[] };
}

/** Every object schema in `schema`, with its path. */
function objectSchemas(schema: any, path = "$"): Array<[string, any]> {
  const out: Array<[string, any]> = [];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("object")) out.push([path, schema]);
  for (const [k, v] of Object.entries(schema.properties ?? {})) out.push(...objectSchemas(v, `${path}.${k}`));
  if (schema.items) out.push(...objectSchemas(schema.items, `${path}[]`));
  for (const alt of schema.anyOf ?? []) out.push(...objectSchemas(alt, `${path}|`));
  return out;
}

describe("turn contract: the schema given to providers", () => {
  it("is strict: every object lists every property as required and forbids others", () => {
    const objects = objectSchemas(TURN_ANSWER_SCHEMA);
    assert.ok(objects.length >= 10);
    for (const [path, o] of objects) {
      assert.equal(o.additionalProperties, false, path);
      assert.deepEqual([...o.required].sort(), Object.keys(o.properties).sort(), path);
    }
    assert.equal(TURN_ANSWER.strict, true);
    assert.match(TURN_ANSWER.name, /^[A-Za-z0-9_-]{1,64}$/);
  });

  it("makes optional fields nullable and uses no keyword strict mode rejects", () => {
    const props = (TURN_ANSWER_SCHEMA as any).properties;
    for (const k of ["mem_write", "mem_query", "session_ops", "device", "scratchpad"]) assert.ok(props[k].type.includes("null"), k);
    for (const k of ["reply", "memory", "ask"]) assert.equal(props[k].type, "string");
    const text = JSON.stringify(TURN_ANSWER_SCHEMA);
    for (const banned of [
      "maxLength",
      "minLength",
      "maxItems",
      "minItems",
      "maximum",
      "minimum",
      "pattern",
      "format",
      "default",
      "const",
    ]) {
      assert.ok(!text.includes(`"${banned}"`), banned);
    }
    // Enums that may be null list null among their values.
    assert.ok(props.mem_write.items.properties.ttl.enum.includes(null));
  });
});

describe("turn contract: the parser", () => {
  it("accepts a full answer and reads every array", () => {
    const { answer: a, problems } = parsed(
      answer({
        reply: "hi",
        memory: "note",
        ask: "which one?",
        mem_write: [{ content: "fact", importance: 0.7, permanent: true, ttl: "weeks" }],
        mem_query: [{ query: "tea", n_results: 3 }],
        session_ops: [
          {
            op: "spawn",
            task: "research",
            provider: "mistral",
            model: null,
            skill: "deep-research",
            name: "r1",
            project: "trip",
            attach: ["trip/a.md"],
            id: null,
          },
          { op: "terminate", task: null, provider: null, model: null, skill: null, name: null, project: null, attach: null, id: "s1" },
        ],
        device: [{ led: null, lights: { value: "full" }, config: null, orch_model: null, reboot: null, tts: null }],
        scratchpad: { active: "task", short: ["a"], mid: null, long: [] },
      }),
    );
    assert.deepEqual(problems, []);
    assert.equal(a.ask, "which one?");
    assert.deepEqual(a.memWrite, [{ content: "fact", importance: 0.7, permanent: true, ttl: "weeks" }]);
    assert.deepEqual(a.memQuery, [{ query: "tea", n_results: 3 }]);
    assert.deepEqual(a.sessionOps, [
      { op: "spawn", task: "research", provider: "mistral", skill: "deep-research", name: "r1", project: "trip", attach: ["trip/a.md"] },
      { op: "terminate", id: "s1" },
    ]);
    assert.deepEqual(a.device, [{ lights: { value: "full" } }]);
    assert.deepEqual(a.scratchpad, { active: "task", short: ["a"], long: [] });
  });

  it("treats absent and null arrays as empty", () => {
    const { answer: a, problems } = parsed({ reply: "r", memory: "", ask: "" });
    assert.deepEqual([a.memWrite, a.memQuery, a.sessionOps, a.device, a.scratchpad], [[], [], [], [], undefined]);
    assert.deepEqual(problems, []);
  });

  it("refuses a missing or mistyped required field with a clear error", () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ memory: "", ask: "" }, /no 'reply' field/],
      [{ reply: "x", ask: "" }, /no 'memory' field/],
      [{ reply: "x", memory: "" }, /no 'ask' field/],
      [{ reply: 42, memory: "", ask: "" }, /'reply' must be a string, not a number/],
      [{ reply: "x", memory: null, ask: "" }, /'memory' must be a string, not null/],
      [{ reply: "x", memory: "", ask: ["q"] }, /'ask' must be a string, not a list/],
      ["just text", /one JSON object, not a string/],
      [[answer()], /one JSON object, not a list/],
      [null, /not null/],
    ];
    for (const [value, pattern] of cases) {
      const r = parseTurnAnswer(value);
      assert.equal(r.ok, false);
      assert.match((r as { error: string }).error, pattern);
    }
  });

  it("drops bad items and reports each by index, never by value", () => {
    const { answer: a, problems } = parsed(
      answer({
        mem_write: [
          { content: "" },
          { content: "ok" },
          "text",
          { content: "x", importance: 7 },
          { content: "y", ttl: "forever" },
          { content: "z", extra: 1 },
        ],
        mem_query: [{ query: 5 }, { query: "q", n_results: 0 }, { query: "fine" }],
        session_ops: [{ op: "dance" }, { op: "spawn", task: "" }, { op: "terminate" }, { op: "spawn", task: "t", attach: ["no-slash"] }],
        scratchpad: { active: 5, short: "x", mid: ["ok"], secret: "s3cr3t-value" },
      }),
    );
    assert.deepEqual(a.memWrite, [{ content: "ok" }]);
    assert.deepEqual(a.memQuery, [{ query: "fine" }]);
    assert.deepEqual(a.sessionOps, []);
    assert.deepEqual(a.scratchpad, { mid: ["ok"] });
    assert.ok(problems.includes("mem_write[0]: dropped (content must be a non-empty string)."));
    assert.ok(problems.includes("mem_write[2]: dropped (it is not an object)."));
    assert.ok(problems.includes("mem_write[3]: dropped (importance must be a number from 0 to 1)."));
    assert.ok(problems.includes("mem_write[5]: dropped (it has an unknown field)."));
    assert.ok(problems.includes("session_ops[0]: dropped (op must be spawn or terminate)."));
    assert.ok(problems.some((p) => p.startsWith("session_ops[3]: dropped (every attach entry")));
    assert.ok(problems.includes("scratchpad: unknown fields ignored."));
    assert.doesNotMatch(problems.join(" "), /s3cr3t|forever|dance|no-slash/);
  });

  it("caps every array and says how many were dropped", () => {
    const many = (n: number, item: unknown): unknown[] => Array.from({ length: n }, () => item);
    const { answer: a, problems } = parsed(
      answer({
        mem_write: many(MEM_WRITE_MAX_ITEMS + 3, { content: "c" }),
        mem_query: many(MEM_QUERY_MAX_ITEMS + 1, { query: "q" }),
        session_ops: many(SESSION_OPS_MAX_ITEMS + 2, { op: "terminate", id: "s" }),
        device: many(MAX_DEVICE_ACTIONS + 4, { lights: { value: "off" } }),
      }),
    );
    assert.equal(a.memWrite.length, MEM_WRITE_MAX_ITEMS);
    assert.equal(a.memQuery.length, MEM_QUERY_MAX_ITEMS);
    assert.equal(a.sessionOps.length, SESSION_OPS_MAX_ITEMS);
    assert.equal(a.device.length, MAX_DEVICE_ACTIONS);
    assert.ok(problems.includes(`mem_write: 3 items past the limit of ${MEM_WRITE_MAX_ITEMS} were dropped.`));
    assert.ok(problems.some((p) => p.startsWith("device: limit: at most 8 device actions per turn; 4 more")));
  });

  it("reports extra top-level fields and wrong array types, and cuts an overlong reply", () => {
    const { answer: a, problems } = parsed({
      ...answer({ reply: "é".repeat(REPLY_MAX_BYTES), mem_write: "write this", device: { led: {} } }),
      tools: [],
      injected: "x",
    });
    assert.equal(new TextEncoder().encode(a.reply).length, REPLY_MAX_BYTES);
    assert.deepEqual(a.memWrite, []);
    assert.deepEqual(a.device, []);
    assert.ok(problems.includes("ignored 2 unknown fields."));
    assert.ok(problems.includes(`reply: cut to ${REPLY_MAX_BYTES} bytes.`));
    assert.ok(problems.includes("mem_write: not a list; ignored."));
    assert.ok(problems.includes("device: not a list; ignored."));
  });
});

describe("turn contract: device[] elements into the validator's form", () => {
  it("keeps the one non-null action and turns config pairs into an object", () => {
    const nulls = { led: null, lights: null, config: null, orch_model: null, reboot: null, tts: null };
    assert.deepEqual(deviceElement({ ...nulls, led: { mode: "solid", r: 1, g: null, b: 3, brightness: null } }), {
      led: { mode: "solid", r: 1, b: 3 },
    });
    assert.deepEqual(deviceElement({ ...nulls, reboot: true }), { reboot: true });
    assert.deepEqual(deviceElement({ ...nulls, reboot: false }), {});
    const config = deviceElement({
      ...nulls,
      config: [
        { key: "theme", value: "ocean" },
        { key: "sfxVol", value: 20 },
      ],
    }) as any;
    assert.deepEqual({ ...config.config }, { theme: "ocean", sfxVol: 20 });
    assert.equal((deviceElement({ ...nulls, config: [{ key: "theme" }] }) as any).config, "malformed");
    assert.deepEqual(Object.keys(deviceElement({ ...nulls, led: { mode: "solid" }, tts: { text: "hi" } }) as object), ["led", "tts"]);
  });

  it("cannot be tricked by a __proto__ key", () => {
    const el = deviceElement({ config: [{ key: "__proto__", value: { polluted: true } }] }) as any;
    assert.deepEqual(Object.keys(el.config), ["__proto__"]);
    assert.equal(({} as any).polluted, undefined);
  });

  it("passes non-objects and the validator's own form through", () => {
    assert.equal(deviceElement("reboot"), "reboot");
    assert.deepEqual(deviceElement({ config: { ledBrightness: 5 } }), { config: { ledBrightness: 5 } });
  });

  it("caps a sub-agent task exactly as session.spawn does, whichever starts it", () => {
    const spawnSchema = deviceRegistry()
      .registry.all()
      .find((t) => t.name === "session.spawn")!.inputSchema as any;
    assert.equal(spawnSchema.properties.task.maxLength, SUBAGENT_TASK_MAX_CHARS);
    const longest = "t".repeat(SUBAGENT_TASK_MAX_CHARS);
    const ok = parsed(answer({ session_ops: [{ op: "spawn", task: longest }] }));
    assert.equal(ok.answer.sessionOps.length, 1);
    const over = parsed(answer({ session_ops: [{ op: "spawn", task: longest + "t" }] }));
    assert.equal(over.answer.sessionOps.length, 0);
    assert.ok(over.problems.some((p) => p.includes(`1-${SUBAGENT_TASK_MAX_CHARS} characters`)));
  });
});
