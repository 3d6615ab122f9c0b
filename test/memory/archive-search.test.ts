// memory.archive search re-ranks like memory.search: the kernel fetches
// candidates by int8 dot product, the answer is ordered by cosine.
import { describeArchiveHits } from "../../lib/tools/memory-text.ts";
import assert from "node:assert/strict";
import { embedQuery } from "../../lib/memory/embedders/embed.ts";
import { searchArchive } from "../../lib/memory/forgetting/archive-ops.ts";
import type { EntryMeta } from "../../lib/memory/store/vector-store.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { memoryRig } from "../support/memory.ts";

const owner = makePrincipal("owner", "admin", "turn");

const dot = (a: Int8Array, b: Int8Array): number => a.reduce((sum, x, i) => sum + x * b[i], 0);
const cosine = (a: Int8Array, b: Int8Array): number => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));

function meta(id: number, content: string, ns = "owner"): EntryMeta {
  return { id, ns, content, source: "self", importance: 0.5, created: 1, lastRecalled: 2, flags: 0, ttlClass: 1 };
}

describe("memory.archive search", () => {
  it("orders by cosine from the dot and the stored row norm, not by the raw int8 dot", async () => {
    const rig = memoryRig();
    const query = "where is the garden shed key";
    const q = (await embedQuery(rig.engine.embedder, query)).row;
    const zero = new Uint8Array(q.length / 2); // rows made here, not quantized: nothing to refine them by
    // "close" points the query's way at half the length; "loud" has the larger dot product but a wider angle.
    const close = Int8Array.from(q, (x) => Math.round(x / 2));
    const loud = Int8Array.from(q, (x) => Math.max(-127, Math.min(127, x + 50 * Math.sign(x))) + (x === 0 ? 40 : 0));
    assert.ok(dot(loud, q) > dot(close, q), "precondition: loud has the larger dot");
    assert.ok(cosine(loud, q) < cosine(close, q) - 0.05, "precondition: close has the larger cosine");
    assert.ok(cosine(loud, q) > 0.3, "precondition: loud is still relevant");
    const others = Array.from({ length: 40 }, (_, i) => ({
      meta: meta(100 + i, `unrelated archived note ${i}`),
      row: Int8Array.from(q, (_x, d) => ((d * 7 + i * 13) % 5) - 2),
      residual: zero,
    }));
    rig.engine.archive!.add(
      [
        { meta: meta(1, "loud entry"), row: loud, residual: zero },
        ...others,
        { meta: meta(2, "close entry"), row: close, residual: zero },
        { meta: meta(3, "zoë's", "zoë"), row: close, residual: zero },
      ],
      rig.engine.embedder.id,
      rig.clock.now(),
    );
    const best = describeArchiveHits(await searchArchive(rig.engine, owner, query, 1));
    assert.match(best, /^- \[(\d+)%\] close entry \(id 00000002\)$/);
    assert.equal(Number(/\[(\d+)%\]/.exec(best)![1]), Math.round(cosine(close, q) * 100));
    const two = describeArchiveHits(await searchArchive(rig.engine, owner, query, 2)).split("\n");
    assert.match(two[0], /close entry/);
    assert.match(two[1], new RegExp(`^- \\[${Math.round(cosine(loud, q) * 100)}%\\] loud entry \\(id 00000001\\)$`));
  });
});
