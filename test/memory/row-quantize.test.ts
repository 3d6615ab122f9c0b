// Every row gets its own scale and the whole int8 range (quantizeInt8), a
// stored row its 4-bit residuals, and candidates are re-ranked against the
// query's float vector and each row refined by its residuals: the similarities
// memory reports and the near-duplicate threshold must be at least as right as
// with wave 1's round(v x 127) rows and int8 queries, or better, and closer
// still than with the int8 rows alone.
import { describeUpdate, describeWrite } from "../../lib/tools/memory-text.ts";
import assert from "node:assert/strict";
import { NEAR_DUPLICATE_DISTANCE } from "../../lib/memory/bounds.ts";
import { hashText } from "../../lib/memory/embedders/hashing.ts";
import { cosineFromDot, int8Norm, normalizeL2, quantizeInt8, quantizeRow, residualBytes } from "../../lib/memory/store/quantize.ts";
import { searchMemory } from "../../lib/memory/recall/search.ts";
import { updateMemory, writeMemory } from "../../lib/memory/writes.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { mulberry32 } from "../support/prng.ts";
import { memoryRig, storedContents } from "../support/memory.ts";

const DIMS = 256;
const NEAR = 1 - NEAR_DUPLICATE_DISTANCE;
const owner = makePrincipal("owner", "admin", "mcp");

function unit(text: string): Float32Array {
  const v = hashText(text, DIMS);
  assert.ok(normalizeL2(v));
  return v;
}

function exactCosine(a: string, b: string): number {
  const x = unit(a);
  const y = unit(b);
  let sum = 0;
  for (let i = 0; i < DIMS; i++) sum += x[i] * y[i];
  return sum;
}

type Quantizer = (v: Float32Array, out: Int8Array) => void;

/** Wave 1's stored rows: round(v x 127). */
function quantizeFixed127(v: Float32Array, out: Int8Array): void {
  for (let i = 0; i < v.length; i++) out[i] = Math.max(-127, Math.min(127, Math.round(v[i] * 127)));
}

/** Wave 1's similarity: rows round(v x 127), the query stretched to +-127, cosine from the int8 dot and both norms. */
function wave1Cosine(stored: string, q: string): number {
  const row = new Int8Array(DIMS);
  const query = new Int8Array(DIMS);
  quantizeFixed127(unit(stored), row);
  quantizeInt8(unit(q), query);
  let dot = 0;
  for (let i = 0; i < DIMS; i++) dot += row[i] * query[i];
  return cosineFromDot(dot, int8Norm(query, 0, DIMS), int8Norm(row, 0, DIMS));
}

/** The similarity memory reports for query `q` against stored text `stored`: the float query against the row quantized by `quantizeRow`. */
function int8Cosine(stored: string, q: string, quantizeRow: Quantizer = quantizeInt8): number {
  const row = new Int8Array(DIMS);
  quantizeRow(unit(stored), row);
  const query = unit(q);
  let dot = 0;
  for (let i = 0; i < DIMS; i++) dot += row[i] * query[i];
  return Math.max(-1, Math.min(1, dot * Math.fround(1 / int8Norm(row, 0, DIMS))));
}

/** The residual of component `j`, decoded on its own: the signed nibble, low for even components. */
function residualOf(plane: Uint8Array, j: number): number {
  const nibble = j % 2 === 0 ? plane[j >> 1] & 15 : plane[j >> 1] >> 4;
  return nibble < 8 ? nibble : nibble - 16;
}

/** What memory reports now: the float query against the stored row refined by its residuals (row + residual / 16). */
function refinedCosine(stored: string, q: string): number {
  const { row, residual } = quantizeRow(unit(stored));
  const query = unit(q);
  let dot = 0;
  let norm = 0;
  for (let j = 0; j < DIMS; j++) {
    const refined = row[j] + residualOf(residual, j) / 16;
    dot += refined * query[j];
    norm += refined * refined;
  }
  return Math.max(-1, Math.min(1, dot / Math.sqrt(norm)));
}

/** Seeded sentences and a copy with one word changed: cosines from about 0.5 to 1, most near the 0.95 threshold. */
function sentencePairs(count: number): Array<[string, string]> {
  const words = (
    "garage code spare key flowerpot dentist tuesday morning blue green kitchen drawer passport office " +
    "sister berlin birthday march train station platform coffee meeting"
  ).split(" ");
  const prng = mulberry32(11);
  const pick = (): string => words[prng.int(0, words.length - 1)];
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < count; i++) {
    const a = Array.from({ length: prng.int(4, 24) }, pick);
    const b = [...a];
    b[prng.int(0, a.length - 1)] = pick() + (prng.int(0, 1) ? "s" : String(prng.int(0, 9)));
    pairs.push([a.join(" "), b.join(" ")]);
  }
  return pairs;
}

describe("row quantization", () => {
  it("stretches the largest component to +-127 and keeps the proportions", () => {
    const out = new Int8Array(4);
    quantizeInt8(Float32Array.from([0.6, -0.8, 0, 0]), out);
    assert.deepEqual(Array.from(out), [95, -127, 0, 0]); // round(0.6 x 127 / 0.8) = 95
    const offset = new Int8Array(5).fill(9);
    quantizeInt8(Float32Array.from([0, 0.05, -0.01]), offset, 2);
    assert.deepEqual(Array.from(offset), [9, 9, 0, 127, -25]);
    const zeros = new Int8Array(3).fill(5);
    quantizeInt8(new Float32Array(3), zeros);
    assert.deepEqual(Array.from(zeros), [0, 0, 0], "an all-zero vector gives zeros, not NaN");
  });

  it("gives a real row a component of +-127: its norm grows by 1 / max|v| over round(v x 127)", () => {
    const v = unit("where did I leave the passport");
    const row = new Int8Array(DIMS);
    quantizeInt8(v, row);
    assert.equal(Math.max(...Array.from(row, Math.abs)), 127);
    const stretch = 1 / Math.max(...Array.from(v, Math.abs));
    assert.ok(stretch > 1.5, `precondition: a spread-out vector (${stretch})`);
    const old = new Int8Array(DIMS);
    quantizeFixed127(v, old);
    const ratio = int8Norm(row, 0, DIMS) / int8Norm(old, 0, DIMS);
    assert.ok(Math.abs(ratio - stretch) < 0.02 * stretch, `norm ratio ${ratio}, stretch ${stretch}`);
    assert.ok(int8Cosine("where did I leave the passport", "where did I leave the passport") > 0.999);
  });

  it("reports similarities closer to the exact cosine than wave 1's rows and queries did", () => {
    let errorOld = 0;
    let errorNew = 0;
    let worstOld = 0;
    let worstNew = 0;
    let percentOld = 0;
    let percentNew = 0;
    let decisionsOld = 0;
    let decisionsNew = 0;
    let errorInt8 = 0;
    let worstInt8 = 0;
    const pairs = sentencePairs(2000);
    for (const [a, b] of pairs) {
      const exact = exactCosine(a, b);
      const old = wave1Cosine(a, b);
      const int8 = int8Cosine(a, b);
      errorInt8 += Math.abs(int8 - exact);
      worstInt8 = Math.max(worstInt8, Math.abs(int8 - exact));
      const now = refinedCosine(a, b);
      errorOld += Math.abs(old - exact);
      errorNew += Math.abs(now - exact);
      worstOld = Math.max(worstOld, Math.abs(old - exact));
      worstNew = Math.max(worstNew, Math.abs(now - exact));
      if (Math.round(old * 100) === Math.round(exact * 100)) percentOld++;
      if (Math.round(now * 100) === Math.round(exact * 100)) percentNew++;
      if (old >= NEAR === exact >= NEAR) decisionsOld++;
      if (now >= NEAR === exact >= NEAR) decisionsNew++;
      // Away from the threshold by more than the rounding error, the duplicate test never errs.
      if (Math.abs(exact - NEAR) > 0.01) assert.equal(now >= NEAR, exact >= NEAR, `${a} / ${b}: exact ${exact}, int8 ${now}`);
    }
    assert.ok(errorNew < 0.5 * errorOld, `mean error ${errorNew / pairs.length} vs ${errorOld / pairs.length}`);
    assert.ok(worstNew <= worstOld && worstNew < 0.01, `worst error ${worstNew} vs ${worstOld}`);
    // The residuals take most of the stored row's rounding off: the int8 rows alone err several times more.
    assert.ok(
      errorNew < 0.25 * errorInt8,
      `mean error with residuals ${errorNew / pairs.length}, int8 rows alone ${errorInt8 / pairs.length}`,
    );
    assert.ok(worstNew < 0.5 * worstInt8, `worst error with residuals ${worstNew}, int8 rows alone ${worstInt8}`);
    assert.ok(percentNew >= percentOld, `reported percentages right: ${percentNew} vs ${percentOld}`);
    assert.ok(decisionsNew >= decisionsOld, `near-duplicate decisions right: ${decisionsNew} vs ${decisionsOld}`);
  });
});

describe("row residuals", () => {
  it("writes round((x - q) x 16), clamped to -8..7, two to a byte, low nibble first", () => {
    // x = v x 127 / 0.8: 95.25, -127, 15.875, 2.06, 10.49, -10.49, 0.49999
    const v = Float32Array.from([0.6, -0.8, 0.1, 0.013, (10.49 / 127) * 0.8, (-10.49 / 127) * 0.8, (0.5 / 127) * 0.8]);
    const row = new Int8Array(7);
    const residual = new Uint8Array(4).fill(0xff);
    quantizeInt8(v, row, 0, residual);
    assert.deepEqual(Array.from(row), [95, -127, 16, 2, 10, -10, 0]);
    // residuals 4, 0 | -2, 1 | 7 (8 clamped), -8 | 7 (8 clamped), and the odd row's unused high nibble 0
    assert.deepEqual(Array.from(residual), [0x04, 0x1e, 0x87, 0x07]);
    assert.deepEqual(
      Array.from({ length: 7 }, (_, j) => residualOf(residual, j)),
      [4, 0, -2, 1, 7, -8, 7],
    );
  });

  it("writes the row and its plane at their offsets and nothing else; the query's row is the stored row", () => {
    const v = unit("the spare key is under the blue flowerpot");
    const rows = new Int8Array(3 * DIMS).fill(5);
    const planes = new Uint8Array(3 * residualBytes(DIMS)).fill(0xaa);
    quantizeInt8(v, rows, DIMS, planes, residualBytes(DIMS));
    const alone = quantizeRow(v);
    const query = new Int8Array(DIMS);
    quantizeInt8(v, query);
    assert.deepEqual(Array.from(rows.subarray(DIMS, 2 * DIMS)), Array.from(alone.row));
    assert.deepEqual(Array.from(query), Array.from(alone.row));
    assert.deepEqual(Array.from(planes.subarray(128, 256)), Array.from(alone.residual));
    assert.ok(rows.subarray(0, DIMS).every((x) => x === 5) && rows.subarray(2 * DIMS).every((x) => x === 5));
    assert.ok(planes.subarray(0, 128).every((x) => x === 0xaa) && planes.subarray(256).every((x) => x === 0xaa));
    assert.equal(residualBytes(DIMS), 128);
    assert.equal(residualBytes(7), 4);
    assert.equal(residualBytes(1), 1);
  });

  it("leaves at most 1/32 of a step on each component (1/16 where clamped): a sixteenth of the int8 row's error", () => {
    const prng = mulberry32(3);
    let int8Error = 0;
    let refinedError = 0;
    let worst = 0;
    let n = 0;
    for (let t = 0; t < 200; t++) {
      const v = Float32Array.from({ length: DIMS }, () => prng.gaussian());
      assert.ok(normalizeL2(v));
      const { row, residual } = quantizeRow(v);
      let maxAbs = 0;
      for (const x of v) maxAbs = Math.max(maxAbs, Math.abs(x));
      for (let j = 0; j < DIMS; j++) {
        const x = (v[j] * 127) / maxAbs;
        const r = residualOf(residual, j);
        const e = Math.abs(x - (row[j] + r / 16));
        assert.ok(e <= (r === 7 ? 1 / 16 : 1 / 32) + 1e-9, `component ${j}: ${x} left ${e}`);
        worst = Math.max(worst, e);
        int8Error += Math.abs(x - row[j]);
        refinedError += e;
        n++;
      }
    }
    assert.ok(worst > 1 / 32, "precondition: some components were clamped");
    assert.ok(Math.abs(int8Error / n - 0.25) < 0.01, `int8 mean error ${int8Error / n} (uniform in half a step)`);
    assert.ok(refinedError / n < 0.02, `refined mean error ${refinedError / n}`);
  });
});

describe("row quantization in the engine", () => {
  const base = "The spare key for the garden shed is under the blue flowerpot next to the back door";
  const nearCopy = "The spare key for the garden shed is under the blue flowerpot next to the old back door";
  const justApart = "The spare key for the garden shed is hidden under the blue flowerpot next to the back door";

  it("a write collapses into a stored fact exactly when the exact cosine is at least 0.95", async () => {
    const nearCosine = exactCosine(base, nearCopy);
    const apartCosine = exactCosine(base, justApart);
    assert.ok(nearCosine >= NEAR && nearCosine < NEAR + 0.01, `precondition: ${nearCosine}`);
    assert.ok(apartCosine < NEAR && apartCosine > NEAR - 0.01, `precondition: ${apartCosine}`);
    const { engine } = memoryRig();
    await writeMemory(engine, owner, { content: base });
    assert.match(describeWrite(await writeMemory(engine, owner, { content: nearCopy })), /^A near-identical memory exists/);
    assert.match(describeWrite(await writeMemory(engine, owner, { content: justApart })), /^Remembered/);
    assert.equal(engine.store.count, 2);
  });

  it("catches a near-duplicate at the threshold that wave 1's round(v x 127) rows missed", async () => {
    const a = "station spare tuesday station birthday meeting key flowerpot station dentist platform blue morning";
    const b = "station spare tuesday berlins birthday meeting key flowerpot station dentist platform blue morning";
    const exact = exactCosine(a, b);
    assert.ok(exact >= NEAR && exact < NEAR + 0.002, `precondition: ${exact}`);
    assert.ok(wave1Cosine(a, b) < NEAR, "precondition: wave 1 says not a duplicate");
    const { engine } = memoryRig();
    await writeMemory(engine, owner, { content: a });
    assert.match(describeWrite(await writeMemory(engine, owner, { content: b })), /^A near-identical memory exists/);
    assert.equal(engine.store.count, 1);
  });

  it("search similarities match the exact cosine, best first", async () => {
    const { engine } = memoryRig();
    const facts = [
      base,
      "My sister lives in Berlin near the train station",
      "The dentist appointment is on Tuesday morning",
      "The passport is in the kitchen drawer",
    ];
    for (const content of facts) await writeMemory(engine, owner, { content });
    const query = "where is the spare key for the shed";
    const { hits, text } = await searchMemory(engine, owner, query, 4);
    assert.equal(hits[0].content, base);
    let differsFromOld = 0;
    for (const hit of hits) {
      const exact = exactCosine(hit.content, query);
      assert.ok(Math.abs(hit.similarity - exact) < 0.002, `${hit.content}: ${hit.similarity} vs exact ${exact}`);
      // The engine's similarity is the float query against the per-row scaled row refined by its residuals.
      assert.ok(Math.abs(hit.similarity - refinedCosine(hit.content, query)) < 1e-12);
      assert.ok(Math.abs(hit.similarity - exact) <= Math.abs(int8Cosine(hit.content, query) - exact) + 1e-4);
      if (Math.abs(hit.similarity - wave1Cosine(hit.content, query)) > 1e-6) differsFromOld++;
    }
    assert.ok(differsFromOld > 0, "not wave 1's similarity");
    // The answer shows the relevance: the cosine lifted by the words the query shares with the fact.
    assert.ok(hits[0].relevance > hits[0].similarity);
    assert.match(text, new RegExp(`^- \\[${Math.round(hits[0].relevance * 100)}%\\] The spare key`));
  });

  it("update by closest match finds the stale fact through a query row", async () => {
    const { engine } = memoryRig();
    await writeMemory(engine, owner, { content: base });
    await writeMemory(engine, owner, { content: "The passport is in the kitchen drawer" });
    const answer = await updateMemory(engine, owner, {
      old: "spare key shed flowerpot",
      content: "The spare key for the garden shed is with the neighbour",
    });
    assert.match(describeUpdate(answer), /^Updated: replaced id/);
    assert.deepEqual(storedContents(engine.store).sort(), [
      "The passport is in the kitchen drawer",
      "The spare key for the garden shed is with the neighbour",
    ]);
  });
});
