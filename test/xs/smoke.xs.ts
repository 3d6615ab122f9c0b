// Smoke scenario for the XS host (hosts/xs): run with
//   node hosts/xs/run.mjs test/xs/smoke.xs.ts
// It checks the host globals, the job/timer loop, the text codecs, the
// native() binding of modules/hostcheck/hostcheck.c, heap accounting and a
// few language features lib/ relies on. Last line:
//   xs-smoke: N passed, M failed
// and exit(1) when anything failed.

let passed = 0;
let failed = 0;

function check(name: string, ok: boolean, detail?: unknown): void {
  if (ok) passed++;
  else {
    failed++;
    print(`FAIL ${name}${detail === undefined ? "" : `: ${JSON.stringify(detail)}`}`);
  }
}

function equal(name: string, actual: unknown, expected: unknown): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  check(name, a === e, a === e ? undefined : { actual, expected });
}

function throws(name: string, fn: () => unknown, type: new (...args: never[]) => Error): void {
  try {
    fn();
    check(name, false, "did not throw");
  } catch (error) {
    check(name, error instanceof type, String(error));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// print and console
check("print is a function", typeof print === "function");
check("console.log is a function", typeof console.log === "function");
check("no Node process on XS", typeof (globalThis as { process?: unknown }).process === "undefined");
check("scriptArgs are strings", Array.isArray(scriptArgs) && scriptArgs.every((a) => typeof a === "string"), scriptArgs);
print("xs-smoke: print works, é 😀");

// jobs and timers: sync code, then promise jobs, then timers by deadline
{
  const order: string[] = [];
  // deadlines 30 ms apart, so a stalled CI machine cannot swap them
  setTimeout(() => order.push("timeout 60"), 60);
  setTimeout((a: string, b: string) => order.push(`timeout 0 ${a}${b}`), 0, "x", "y");
  const cancelled = setTimeout(() => order.push("cancelled"), 30);
  clearTimeout(cancelled);
  setTimeout(() => order.push("timeout 30"), 30);
  Promise.resolve()
    .then(() => order.push("job 1"))
    .then(() => order.push("job 2"));
  order.push("sync");
  const started = hostNow();
  await sleep(80);
  const elapsed = hostNow() - started;
  equal("jobs before timers, timers by deadline", order, ["sync", "job 1", "job 2", "timeout 0 xy", "timeout 30", "timeout 60"]);
  check("setTimeout honours real time", elapsed >= 79 && elapsed < 5000, elapsed);
  let ticks = 0;
  await new Promise<void>((resolve) => {
    const id = setInterval(() => {
      if (++ticks === 3) {
        clearInterval(id);
        resolve();
      }
    }, 1);
  });
  equal("setInterval until cleared", ticks, 3);
  throws("setTimeout without a function", () => setTimeout(undefined as never, 1), TypeError);
}

// async functions, rejections that are handled, Promise combinators
{
  const results = await Promise.allSettled([Promise.resolve(1), Promise.reject(new Error("no")), sleep(1).then(() => 3)]);
  equal(
    "allSettled",
    results.map((r) => r.status),
    ["fulfilled", "rejected", "fulfilled"],
  );
  let caught = "";
  try {
    await (async () => {
      throw new RangeError("async boom");
    })();
  } catch (error) {
    caught = (error as Error).message;
  }
  equal("await rethrows", caught, "async boom");
}

// TextEncoder / TextDecoder (Moddable's C modules)
{
  const text = "héllo, 世界 😀 \u0000 end";
  const bytes = new TextEncoder().encode(text);
  check("encode returns a Uint8Array", bytes instanceof Uint8Array);
  equal("UTF-8 bytes of é 世 😀", Array.from(new TextEncoder().encode("é世😀")), [0xc3, 0xa9, 0xe4, 0xb8, 0x96, 0xf0, 0x9f, 0x98, 0x80]);
  equal("NUL encodes to one byte", Array.from(new TextEncoder().encode("a\u0000b")), [0x61, 0, 0x62]);
  const decoder = new TextDecoder();
  equal("round trip", decoder.decode(bytes), text);
  equal("decode an ArrayBuffer", decoder.decode(bytes.buffer as ArrayBuffer), text);
  equal("decode a subarray", decoder.decode(bytes.subarray(1, 3)), "é");
  equal("astral length", decoder.decode(new Uint8Array([0xf0, 0x9f, 0x98, 0x80])).length, 2);
  equal("malformed input becomes U+FFFD", decoder.decode(new Uint8Array([0x61, 0xff, 0x62])), "a\ufffdb");
  throws(
    "fatal decoder rejects malformed input",
    () => new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array([0xff])),
    TypeError,
  );
}

// native(): C from modules/hostcheck/hostcheck.c
{
  const sum = native<(view: Int8Array) => number>("xs_hostcheck_sum");
  const stats = native<(view: Int8Array) => { count: number; min: number; max: number }>("xs_hostcheck_stats");
  const values = new Int8Array([1, -2, 3, 127, -128, 5]);
  equal("native sum", sum(values), 6);
  equal("native sum of a view", sum(values.subarray(3, 5)), -1);
  equal("native object result", stats(values), { count: 6, min: -128, max: 127 });
  throws("native errors are JS errors", () => stats(new Int8Array(0)), RangeError);
  throws("unknown native", () => native("xs_no_such_function"), TypeError);
  check("Moddable base64 native linked", typeof native("xs_base64_encode") === "function");
}

// xsHeapInfo() and gc()
{
  const before = xsHeapInfo();
  check(
    "heap info fields",
    ["heapBytes", "chunkBytes", "slotBytes", "peakBytes", "slotSize"].every(
      (k) => typeof (before as unknown as Record<string, unknown>)[k] === "number",
    ),
  );
  equal("heapBytes = chunkBytes + slotBytes", before.heapBytes, before.chunkBytes + before.slotBytes);
  let held: string[] | null = Array.from({ length: 20000 }, (_, i) => `item ${i}`);
  const during = xsHeapInfo();
  check("allocation shows in heapBytes", during.heapBytes > before.heapBytes + 20000 * before.slotSize, [
    before.heapBytes,
    during.heapBytes,
  ]);
  check("peak covers current", during.peakBytes >= during.heapBytes);
  held = null;
  (globalThis as { gc?: () => void }).gc?.();
  const after = xsHeapInfo();
  check("garbage is collected", after.heapBytes < during.heapBytes - 10000 * before.slotSize, [during.heapBytes, after.heapBytes, held]);
}

// language features lib/ relies on
{
  class Counter {
    static created = 0;
    static readonly label = "counter";
    #count = 0;
    static {
      Counter.created = 100;
    }
    constructor() {
      Counter.created++;
    }
    get count(): number {
      return this.#count;
    }
    increment(): this {
      this.#count++;
      return this;
    }
  }
  const counter = new Counter().increment().increment();
  equal("class static and private fields", [Counter.label, Counter.created, counter.count], ["counter", 101, 2]);
  equal(
    "static field holding its own instance (no instance fields)",
    // biome-ignore lint/complexity/noStaticOnlyClass: what is checked is a static field holding an instance
    class Origin {
      static zero = new Origin();
    }.zero instanceof Object,
    true,
  );
  const map = new Map<string, number>([["a", 1]]);
  map.set("b", 2);
  equal("Map order", [...map.keys()], ["a", "b"]);
  equal("BigInt", (2n ** 64n).toString(), "18446744073709551616");
  equal("Array.prototype.at / findLast", [[1, 2, 3].at(-1), [1, 2, 3].findLast((x) => x < 3)], [3, 2]);
  const options: { depth?: number } = {};
  options.depth ??= 4;
  equal("logical assignment and optional chaining", [options.depth, (options as { a?: { b: number } }).a?.b], [4, undefined]);
  equal("error cause", new Error("outer", { cause: "inner" }).cause, "inner");
  equal("Object.hasOwn", Object.hasOwn({ x: 1 }, "x"), true);
  equal("Unicode RegExp", /^\p{L}+$/u.test("héllo"), true);
  equal("JSON round trip", JSON.parse(JSON.stringify({ a: [1, "two", null] })), { a: [1, "two", null] });
  const stack = new Error("where").stack ?? "";
  check("error stack names the file", /smoke/.test(stack), stack);
}

print(`xs-smoke: ${passed} passed, ${failed} failed`);
if (failed) exit(1);

export {}; // a module: top-level await above
