// The contract suite of the int8 kernels (Kernels.topK, unscaled and scaled per
// row, and Kernels.rerank), run against every implementation: the TypeScript
// kernels on Node and on XS, the C kernels on XS (each of its scan paths). It
// imports nothing of Node, so the XS host runs it.
//
// Each case turns into one canonical outcome line: "ok <indices>|<scores>" or
// "<ErrorName>:<message>". A case passes when its outcome equals the expected
// one: a literal for hand-worked cases and errors, a naive full sort for the
// seeded random ones. The digest of all outcomes lets engines be compared.
import { KERNEL_MAX_DIMS, MAX_TOP_K } from "../../lib/memory/store/kernel-ts.ts";
import type { Kernels } from "../../lib/ports.ts";
import { djb2Hex } from "../../lib/util/hash.ts";
import { mulberry32, randomInt8, type Prng } from "../support/prng.ts";

export interface CaseResult {
  name: string;
  outcome: string;
  expected: string;
  ok: boolean;
  digest: string;
}

export interface ContractReport {
  results: CaseResult[];
  /** "<case>: got ... expected ..." for each failed case. */
  failures: string[];
  /** djb2 of every outcome, in case order. */
  digest: string;
}

/** topK: store, dims, count, query, k, mask, scales; rerank: store, dims, residuals, rows, query. Deliberately loose, for the bad-argument cases. */
type Args = unknown[];

interface Case {
  name: string;
  /** Which kernel the case calls (topK when absent). */
  fn?: "rerank";
  args: Args;
  /** The literal outcome, or undefined to compute it with the naive oracle. */
  expected?: string;
}

function outcomeOf(kernels: Kernels, c: Case): string {
  try {
    if (c.fn === "rerank") {
      const d = (kernels.rerank as (...a: unknown[]) => unknown)(...c.args);
      if (!(d instanceof Float64Array)) return "bad result type";
      return `ok ${Array.from(d).join(",")}`;
    }
    const r = (kernels.topK as (...a: unknown[]) => { indices: unknown; scores: unknown })(...c.args);
    if (!(r.indices instanceof Int32Array) || !(r.scores instanceof Float64Array)) return "bad result types";
    if (r.indices.length !== r.scores.length) return "bad result lengths";
    return `ok ${Array.from(r.indices).join(",")}|${Array.from(r.scores).join(",")}`;
  } catch (error) {
    if (!(error instanceof Error)) return `thrown ${String(error)}`;
    // The XS host's debug build prefixes native errors with the function's name.
    return `${error.name}:${error.message.replace(/^[\w$]+: /, "")}`;
  }
}

/** The reference: every score, sorted by score (high first) then index (low first). */
function naiveTopK(
  store: Int8Array,
  dims: number,
  count: number,
  query: Int8Array,
  k: number,
  mask?: Uint8Array,
  scales?: Float32Array,
): string {
  const rows: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) {
    if (mask && mask[i] === 0) continue;
    let sum = 0;
    for (let j = 0; j < dims; j++) sum += store[i * dims + j] * query[j];
    if (scales) sum *= scales[i];
    if (Number.isNaN(sum)) continue;
    rows.push([sum, i]);
  }
  rows.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const best = rows.slice(0, k);
  return `ok ${best.map((r) => r[1]).join(",")}|${best.map((r) => r[0]).join(",")}`;
}

function maskOf(prng: Prng, count: number, keepPercent: number): Uint8Array {
  const mask = new Uint8Array(count);
  for (let i = 0; i < count; i++) mask[i] = prng.int(0, 99) < keepPercent ? prng.int(1, 255) : 0;
  return mask;
}

function filled(length: number, value: number): Int8Array {
  return new Int8Array(length).fill(value);
}

function handCases(): Case[] {
  const tiny = new Int8Array([1, 2, 3, -1, 0, 1, 3, 2, 1, 0, 0, 0]);
  const ones = new Int8Array([1, 1, 1]);
  // Rows of -128, 127 and 0 at the widest dims: the extreme sums.
  const wide = new Int8Array(3 * KERNEL_MAX_DIMS);
  wide.fill(-128, 0, KERNEL_MAX_DIMS);
  wide.fill(127, KERNEL_MAX_DIMS, 2 * KERNEL_MAX_DIMS);
  const top = 128 * 128 * KERNEL_MAX_DIMS;
  return [
    { name: "hand: tiny, ties keep the lower index", args: [tiny, 3, 4, ones, 4], expected: "ok 0,2,1,3|6,6,0,0" },
    { name: "hand: k above count returns count rows", args: [tiny, 3, 4, ones, 10], expected: "ok 0,2,1,3|6,6,0,0" },
    { name: "hand: k=1", args: [tiny, 3, 4, new Int8Array([0, 0, 1]), 1], expected: "ok 0|3" },
    { name: "hand: mask skips rows", args: [tiny, 3, 4, ones, 4, new Uint8Array([0, 1, 1, 0])], expected: "ok 2,1|6,0" },
    { name: "hand: all masked", args: [tiny, 3, 4, ones, 2, new Uint8Array(4)], expected: "ok |" },
    { name: "hand: count 0", args: [tiny, 3, 0, ones, 5], expected: "ok |" },
    { name: "hand: count below the store's rows", args: [tiny, 3, 2, ones, 5], expected: "ok 0,1|6,0" },
    { name: "hand: explicit undefined mask", args: [tiny, 3, 4, ones, 1, undefined], expected: "ok 0|6" },
    {
      name: "hand: extremes at max dims (-128 query)",
      args: [wide, KERNEL_MAX_DIMS, 3, filled(KERNEL_MAX_DIMS, -128), 3],
      expected: `ok 0,2,1|${top},0,${-127 * 128 * KERNEL_MAX_DIMS}`,
    },
    {
      name: "hand: extremes at max dims (127 query)",
      args: [wide, KERNEL_MAX_DIMS, 3, filled(KERNEL_MAX_DIMS, 127), 3],
      expected: `ok 1,2,0|${127 * 127 * KERNEL_MAX_DIMS},0,${-128 * 127 * KERNEL_MAX_DIMS}`,
    },
    { name: "hand: dims 1", args: [new Int8Array([-5, 7, 7, -128]), 1, 4, new Int8Array([-1]), 4], expected: "ok 3,0,1,2|128,5,-7,-7" },
  ];
}

/** Per-row scales as the store keeps them (1 / int8 norm), from `prng` with some rows far off the rest. */
function scalesOf(prng: Prng, count: number): Float32Array {
  const scales = new Float32Array(count);
  for (let i = 0; i < count; i++) scales[i] = (prng.int(1, 1000) / 997) * (prng.int(0, 9) === 0 ? 50 : 0.01);
  return scales;
}

function randomCase(
  name: string,
  seed: number,
  dims: number,
  count: number,
  k: number,
  keepPercent?: number,
  view = false,
  scaled = false,
): Case {
  const prng = mulberry32(seed);
  // A view at an odd byte offset: implementations must honour byteOffset.
  const store = view ? randomInt8(prng, count * dims + 5).subarray(5) : randomInt8(prng, count * dims);
  const query = randomInt8(prng, dims);
  const mask = keepPercent === undefined ? undefined : maskOf(prng, count, keepPercent);
  const args: Args = [store, dims, count, query, k, mask];
  if (scaled) args.push(scalesOf(prng, count));
  else if (!mask) args.pop();
  return { name: `random: ${name}`, args };
}

function randomCases(): Case[] {
  const cases: Case[] = [];
  let seed = 1;
  for (const dims of [1, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 256, 384, 1000]) {
    cases.push(randomCase(`dims ${dims}, k 10`, seed++, dims, 40, 10));
  }
  cases.push(randomCase("k=count", seed++, 256, 50, 50));
  cases.push(randomCase("k=MAX_TOP_K", seed++, 64, 300, MAX_TOP_K));
  cases.push(randomCase("k=1 over many rows", seed++, 256, 1000, 1));
  cases.push(randomCase("half masked", seed++, 96, 400, 20, 50));
  cases.push(randomCase("mostly masked, fewer rows than k", seed++, 40, 200, 30, 5));
  cases.push(randomCase("odd-offset views", seed++, 33, 120, 12, undefined, true));
  cases.push(randomCase("max dims", seed++, KERNEL_MAX_DIMS, 12, 5));
  for (const dims of [1, 17, 33, 256, 1000]) cases.push(randomCase(`scaled, dims ${dims}`, seed++, dims, 60, 10, undefined, false, true));
  cases.push(randomCase("scaled, half masked", seed++, 96, 400, 20, 50, false, true));
  cases.push(randomCase("scaled, odd-offset views, k=MAX_TOP_K", seed++, 65, 300, MAX_TOP_K, undefined, true, true));
  return cases;
}

/** Scaled scans: hand-worked scores, NaN and infinite scales, ties after scaling. */
function scaledCases(): Case[] {
  const tiny = new Int8Array([1, 2, 3, -1, 0, 1, 3, 2, 1, 0, 0, 0]);
  const ones = new Int8Array([1, 1, 1]);
  const f32 = (...v: number[]): Float32Array => Float32Array.from(v);
  return [
    { name: "scaled: the scale reorders", args: [tiny, 3, 4, ones, 4, undefined, f32(0.5, 1, 2, 1)], expected: "ok 2,0,1,3|12,3,0,0" },
    { name: "scaled: a NaN scale skips the row", args: [tiny, 3, 4, ones, 4, undefined, f32(NaN, 1, 1, 1)], expected: "ok 2,1,3|6,0,0" },
    {
      name: "scaled: an infinite scale times 0 is NaN",
      args: [tiny, 3, 4, ones, 4, undefined, f32(1, Infinity, 1, 1)],
      expected: "ok 0,2,3|6,6,0",
    },
    { name: "scaled: infinity ranks first", args: [tiny, 3, 4, ones, 2, undefined, f32(1, 1, Infinity, 1)], expected: "ok 2,0|Infinity,6" },
    { name: "scaled: negative scales flip", args: [tiny, 3, 4, ones, 4, undefined, f32(-1, 1, -0.5, 1)], expected: "ok 1,3,2,0|0,0,-3,-6" },
    {
      name: "scaled: with a mask",
      args: [tiny, 3, 4, ones, 4, new Uint8Array([1, 0, 1, 0]), f32(0.25, 9, 0.25, 9)],
      expected: "ok 0,2|1.5,1.5",
    },
    { name: "scaled: a longer scales array", args: [tiny, 3, 2, ones, 4, undefined, f32(1, 1, 99, 99, 99)], expected: "ok 0,1|6,0" },
  ];
}

/** A residual plane: one signed 4-bit value per component (-8..7), two a byte, component 2i in the low nibble. */
function packResiduals(values: number[]): Uint8Array {
  const plane = new Uint8Array((values.length + 1) >> 1);
  values.forEach((v, j) => {
    plane[j >> 1] |= (v & 15) << ((j & 1) * 4);
  });
  return plane;
}

/** Kernels.rerank: the float query against listed rows refined by their residuals, over the refined norm. */
function rerankCases(): Case[] {
  const prng = mulberry32(4242);
  const dims = 67;
  const half = 34;
  const store = randomInt8(prng, 50 * dims + 3).subarray(3);
  const residuals = new Uint8Array(randomInt8(prng, 50 * half + 1).buffer, 1, 50 * half);
  const query = new Float32Array(dims);
  for (let j = 0; j < dims; j++) query[j] = prng.gaussian() / 8;
  const rows = Int32Array.from({ length: MAX_TOP_K }, () => prng.int(0, 49));
  const wide = randomInt8(prng, 3 * KERNEL_MAX_DIMS);
  const wideResiduals = new Uint8Array(randomInt8(prng, 3 * (KERNEL_MAX_DIMS / 2)).buffer);
  const wideQuery = new Float32Array(KERNEL_MAX_DIMS);
  for (let j = 0; j < KERNEL_MAX_DIMS; j++) wideQuery[j] = prng.gaussian();
  const rerank = (name: string, args: Args, expected?: string): Case => ({ name: `rerank: ${name}`, fn: "rerank", args, expected });
  // Row 0 refined: 1 + 1/16, 2 - 8/16, 3 + 7/16 (x 16: 17, 24, 55); row 1: -1, 0, 1 with no residual (x 16: -16, 0, 16).
  const tiny = new Int8Array([1, 2, 3, -1, 0, 1]);
  const tinyResiduals = Uint8Array.from([0x81, 0x07, 0x00, 0x00]);
  const q3 = Float32Array.from([0.5, -0.25, 2]);
  const row0 = (17 * 0.5 - 24 * 0.25 + 55 * 2) / Math.sqrt(17 * 17 + 24 * 24 + 55 * 55);
  const row1 = (-16 * 0.5 + 16 * 2) / Math.sqrt(16 * 16 + 16 * 16);
  // Every nibble 0..15 once: residuals 0..7 then -8..-1 on a zero row.
  const nibbles = [0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1];
  const ones16 = new Float32Array(16).fill(1);
  // Extremes: -128 with residual -8 and 127 with residual 7, at the widest dims.
  const extreme = new Int8Array(2 * KERNEL_MAX_DIMS);
  extreme.fill(-128, 0, KERNEL_MAX_DIMS);
  extreme.fill(127, KERNEL_MAX_DIMS);
  const extremeResiduals = new Uint8Array(KERNEL_MAX_DIMS);
  extremeResiduals.fill(0x88, 0, KERNEL_MAX_DIMS / 2);
  extremeResiduals.fill(0x77, KERNEL_MAX_DIMS / 2);
  const minusOnes = new Float32Array(KERNEL_MAX_DIMS).fill(-1);
  return [
    rerank("hand", [tiny, 3, tinyResiduals, Int32Array.from([1, 0, 1]), q3], `ok ${row1},${row0},${row1}`),
    rerank("no rows", [tiny, 3, tinyResiduals, new Int32Array(0), q3], "ok "),
    rerank("every nibble", [new Int8Array(16), 16, packResiduals(nibbles), Int32Array.from([0]), ones16], `ok ${-8 / Math.sqrt(344)}`),
    rerank(
      "a zero row and zero residuals give 0",
      [new Int8Array(4), 4, new Uint8Array(2), Int32Array.from([0]), new Float32Array(4).fill(1)],
      "ok 0",
    ),
    rerank(
      "a zero row refined by its residual",
      [new Int8Array(1), 1, Uint8Array.from([0x0f]), Int32Array.from([0]), Float32Array.from([2])],
      "ok -2",
    ),
    rerank(
      "the odd row's padding nibble is ignored",
      [tiny, 3, Uint8Array.from([0x81, 0xf7, 0x00, 0xa0]), Int32Array.from([0, 1]), q3],
      `ok ${row0},${row1}`,
    ),
    // |query| = 64: the rows are parallel and anti-parallel to it.
    rerank("extremes at max dims", [extreme, KERNEL_MAX_DIMS, extremeResiduals, Int32Array.from([0, 1]), minusOnes], "ok 64,-64"),
    rerank("random rows of odd-offset views", [store, dims, residuals, rows, query]),
    rerank("random rows at max dims", [wide, KERNEL_MAX_DIMS, wideResiduals, Int32Array.from([2, 0, 1, 2]), wideQuery]),
    rerank("a residual plane longer than the store needs", [tiny, 3, new Uint8Array(9).fill(0x11), Int32Array.from([1]), q3]),
    rerank("store not Int8Array", [new Uint8Array(6), 3, tinyResiduals, Int32Array.from([0]), q3], "TypeError:bad store"),
    rerank("dims 0", [tiny, 0, tinyResiduals, Int32Array.from([0]), q3], "RangeError:bad dims"),
    rerank("dims a string", [tiny, "3", tinyResiduals, Int32Array.from([0]), q3], "RangeError:bad dims"),
    rerank("residuals an Int8Array", [tiny, 3, new Int8Array(4), Int32Array.from([0]), q3], "TypeError:bad residuals"),
    rerank("residuals missing", [tiny, 3, undefined, Int32Array.from([0]), q3], "TypeError:bad residuals"),
    rerank("residuals short of the store's last row", [tiny, 3, new Uint8Array(3), Int32Array.from([0]), q3], "RangeError:bad residuals"),
    rerank(
      "residuals short of the store's rows at another width",
      [tiny, 2, new Uint8Array(2), Int32Array.from([0]), q3],
      "RangeError:bad residuals",
    ),
    rerank("rows not Int32Array", [tiny, 3, tinyResiduals, [0], q3], "TypeError:bad rows"),
    rerank("too many rows", [tiny, 3, tinyResiduals, new Int32Array(MAX_TOP_K + 1), q3], "RangeError:bad rows"),
    rerank("row past the store", [tiny, 3, tinyResiduals, Int32Array.from([0, 2]), q3], "RangeError:bad rows"),
    rerank("negative row", [tiny, 3, tinyResiduals, Int32Array.from([-1]), q3], "RangeError:bad rows"),
    rerank("query not Float32Array", [tiny, 3, tinyResiduals, Int32Array.from([0]), new Float64Array(3)], "TypeError:bad query"),
    rerank("query too short", [tiny, 3, tinyResiduals, Int32Array.from([0]), new Float32Array(2)], "RangeError:bad query"),
    rerank("query missing", [tiny, 3, tinyResiduals, Int32Array.from([0])], "TypeError:bad query"),
    rerank("the first bad argument wins", [tiny, 0, new Int8Array(1), [0], null], "RangeError:bad dims"),
    rerank("bad residuals before bad rows", [tiny, 3, new Uint8Array(1), [0], q3], "RangeError:bad residuals"),
  ];
}

/**
 * The reference for rerank, in the row's own units: refined component row + residual / 16, the dot with
 * the query over the refined norm (the same bits as the kernels' sixteenths: scaling by 16 is exact).
 */
function naiveRerank(store: Int8Array, dims: number, residuals: Uint8Array, rows: Int32Array, query: Float32Array): string {
  const half = Math.ceil(dims / 2);
  const out: number[] = [];
  for (const r of rows) {
    let dot = 0;
    let norm = 0;
    for (let j = 0; j < dims; j++) {
      const byte = residuals[r * half + Math.floor(j / 2)];
      const nibble = j % 2 === 0 ? byte % 16 : Math.floor(byte / 16);
      const refined = store[r * dims + j] + (nibble < 8 ? nibble : nibble - 16) / 16;
      dot += refined * query[j];
      norm += refined * refined;
    }
    out.push(norm > 0 ? dot / Math.sqrt(norm) : 0);
  }
  return `ok ${out.join(",")}`;
}

/** Few distinct rows repeated, so most scores tie: the lower index must come first. */
function tieCases(): Case[] {
  const prng = mulberry32(777);
  const dims = 48;
  const distinct = randomInt8(prng, 3 * dims);
  const store = new Int8Array(90 * dims);
  for (let i = 0; i < 90; i++) store.set(distinct.subarray((i % 3) * dims, ((i % 3) + 1) * dims), i * dims);
  const query = randomInt8(prng, dims);
  const mask = maskOf(prng, 90, 70);
  return [
    { name: "ties: repeated rows", args: [store, dims, 90, query, MAX_TOP_K] },
    { name: "ties: repeated rows, masked", args: [store, dims, 90, query, 25, mask] },
    { name: "ties: zero query", args: [store, dims, 90, new Int8Array(dims), 7], expected: "ok 0,1,2,3,4,5,6|0,0,0,0,0,0,0" },
  ];
}

function errorCases(): Case[] {
  const store = new Int8Array(32);
  const q8 = new Int8Array(8);
  const bad = (name: string, args: Args, expected: string): Case => ({ name: `bad: ${name}`, args, expected });
  return [
    bad("store is a Uint8Array", [new Uint8Array(32), 8, 4, q8, 1], "TypeError:bad store"),
    bad("store is an array", [[1, 2, 3], 1, 3, new Int8Array(1), 1], "TypeError:bad store"),
    bad("store is undefined", [undefined, 8, 4, q8, 1], "TypeError:bad store"),
    bad("store is an Int16Array", [new Int16Array(32), 8, 4, q8, 1], "TypeError:bad store"),
    bad("dims 0", [store, 0, 4, q8, 1], "RangeError:bad dims"),
    bad(
      "dims above max",
      [new Int8Array(KERNEL_MAX_DIMS + 1), KERNEL_MAX_DIMS + 1, 1, new Int8Array(KERNEL_MAX_DIMS + 1), 1],
      "RangeError:bad dims",
    ),
    bad("dims fractional", [store, 7.5, 4, q8, 1], "RangeError:bad dims"),
    bad("dims NaN", [store, NaN, 4, q8, 1], "RangeError:bad dims"),
    bad("dims a string", [store, "8", 4, q8, 1], "RangeError:bad dims"),
    bad("dims negative", [store, -8, 4, q8, 1], "RangeError:bad dims"),
    bad("count negative", [store, 8, -1, q8, 1], "RangeError:bad count"),
    bad("count fractional", [store, 8, 1.5, q8, 1], "RangeError:bad count"),
    bad("count past the store", [store, 8, 5, q8, 1], "RangeError:bad count"),
    bad("count past a short last row", [new Int8Array(31), 8, 4, q8, 1], "RangeError:bad count"),
    bad("count a string", [store, 8, "2", q8, 1], "RangeError:bad count"),
    bad("count Infinity", [store, 8, Infinity, q8, 1], "RangeError:bad count"),
    bad("query is a Uint8Array", [store, 8, 4, new Uint8Array(8), 1], "TypeError:bad query"),
    bad("query missing", [store, 8, 4, undefined, 1], "TypeError:bad query"),
    bad("query too short", [store, 8, 4, new Int8Array(7), 1], "RangeError:bad query"),
    bad("query too long", [store, 8, 4, new Int8Array(9), 1], "RangeError:bad query"),
    bad("k 0", [store, 8, 4, q8, 0], "RangeError:bad k"),
    bad("k above MAX_TOP_K", [new Int8Array(8 * 100), 8, 100, q8, MAX_TOP_K + 1], "RangeError:bad k"),
    bad("k fractional", [store, 8, 4, q8, 2.5], "RangeError:bad k"),
    bad("k NaN", [store, 8, 4, q8, NaN], "RangeError:bad k"),
    bad("k a string", [store, 8, 4, q8, "3"], "RangeError:bad k"),
    bad("k missing", [store, 8, 4, q8], "RangeError:bad k"),
    bad("mask null", [store, 8, 4, q8, 1, null], "TypeError:bad mask"),
    bad("mask an Int8Array", [store, 8, 4, q8, 1, new Int8Array(4)], "TypeError:bad mask"),
    bad("mask an array", [store, 8, 4, q8, 1, [1, 1, 1, 1]], "TypeError:bad mask"),
    bad("mask too short", [store, 8, 4, q8, 1, new Uint8Array(3)], "RangeError:bad mask"),
    bad("the first bad argument wins", [store, 0, -1, new Uint8Array(1), 0, null], "RangeError:bad dims"),
    bad("bad k before bad mask", [store, 8, 4, q8, 0, null], "RangeError:bad k"),
    bad("scales a Float64Array", [store, 8, 4, q8, 1, undefined, new Float64Array(4)], "TypeError:bad scales"),
    bad("scales null", [store, 8, 4, q8, 1, undefined, null], "TypeError:bad scales"),
    bad("scales too short", [store, 8, 4, q8, 1, undefined, new Float32Array(3)], "RangeError:bad scales"),
    bad("bad mask before bad scales", [store, 8, 4, q8, 1, new Uint8Array(3), null], "RangeError:bad mask"),
  ];
}

/** Runs every case against `kernels`; never throws for a failing case. */
export function runKernelContract(kernels: Kernels): ContractReport {
  const cases = [...handCases(), ...randomCases(), ...tieCases(), ...scaledCases(), ...rerankCases(), ...errorCases()];
  const results: CaseResult[] = [];
  const failures: string[] = [];
  for (const c of cases) {
    const outcome = outcomeOf(kernels, c);
    const expected =
      c.expected ??
      (c.fn === "rerank"
        ? naiveRerank(...(c.args as [Int8Array, number, Uint8Array, Int32Array, Float32Array]))
        : naiveTopK(...(c.args as [Int8Array, number, number, Int8Array, number, Uint8Array?, Float32Array?])));
    const ok = outcome === expected;
    results.push({ name: c.name, outcome, expected, ok, digest: djb2Hex(outcome) });
    if (!ok) failures.push(`${c.name}: got ${outcome.slice(0, 200)} expected ${expected.slice(0, 200)}`);
  }
  return { results, failures, digest: djb2Hex(results.map((r) => r.outcome).join("\n")) };
}
