// The vector journal replayed frame by frame on the XS engine: the same transcript as on Node (Node's
// SHA-256 there, the C one here), line for line, and what the transcript must say.
import assert from "node:assert/strict";
import { nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { VECTOR_FILE_PIECE_BYTES } from "../../lib/memory/bounds.ts";
import { journalFrameBound } from "../../lib/memory/store/vector-journal.ts";
import { runVectorJournalScenario } from "../scenarios/vector-journal.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("the vector journal replayed frame by frame on XS", () => {
  const cmp = compareOnXs("test/xs/vector-journal.xs.ts", () => runVectorJournalScenario(nodeDigest), 14);

  it("the transcript shows the behaviour, not just agreement", () => {
    const text = cmp.node().join("\n");
    assert.doesNotMatch(text, /DIFFERENT|REWRITTEN|CHANGED/);
    const made = /^40 commits appended, (\d+) bytes in 41 frames, the longest (\d+) payload bytes; snapshot kept$/m.exec(text);
    assert.ok(made, text.slice(0, 400));
    const [bytes, longest] = [Number(made[1]), Number(made[2])];
    assert.ok(bytes > 5 * longest, `${bytes} bytes, the longest frame ${longest}`);
    // Two ranged reads a frame (its header, then its payload), none larger than the longest frame, none whole.
    assert.match(
      text,
      new RegExp(
        `^boot: ok, 40 commits, ${bytes} bytes, the same entries; ranged reads 82, largest read ${longest}, largest buffer ${longest}, whole reads 0$`,
        "m",
      ),
    );
    const bound = journalFrameBound(48, true);
    assert.match(text, new RegExp(`^the longest legal frame at 48 dimensions: ${bound} payload bytes$`, "m"));
    const dropped = (n: number): string =>
      `warning: memory: memory/vectors.journal ends in a torn or damaged record; dropped its last ${n} bytes`;
    const line = (label: string): string => text.split("\n").find((l) => l.startsWith(`${label}: `)) ?? `(no line ${label})`;
    assert.equal(
      line("a header announcing 4 GB after the last frame"),
      `a header announcing 4 GB after the last frame: torn, 40 commits, ${bytes} bytes, the same entries, largest buffer ${longest}; ` +
        `${dropped(12)} | memory: loaded 91 memories (offline-hash-v1/48)`,
    );
    assert.equal(
      line("a header announcing one byte more than the longest legal frame, and that many bytes after it"),
      "a header announcing one byte more than the longest legal frame, and that many bytes after it: torn, 40 commits, " +
        `${bytes} bytes, the same entries, largest buffer ${longest}; ${dropped(bound + 13)} | memory: loaded 91 memories (offline-hash-v1/48)`,
    );
    assert.match(
      line("the base frame announcing one byte more than the longest legal frame, and that many bytes after it"),
      new RegExp(`: torn, 0 commits, 0 bytes, the same entries, largest buffer ${VECTOR_FILE_PIECE_BYTES}; ${dropped(bound + 13)} \\|`),
    );
    assert.match(
      line("an intact frame of one byte more than the longest legal frame in place of the base"),
      /: stale, 0 commits, 0 bytes, the same entries, largest buffer 16384; memory: memory\/vectors\.journal belongs to an earlier snapshot; ignored \|/,
    );
    assert.match(
      line("a commit frame of the longest legal length with garbage in it"),
      new RegExp(`: torn, 40 commits, ${bytes} bytes, the same entries, largest buffer ${bound}; ${dropped(bound + 12)} \\|`),
    );
    const cut =
      /^the last frame \((\d+) bytes\) cut after each of its bytes but the last: (\d+) journals, (\d+) torn .* (\d+) logged .*; largest buffer (\d+)$/m.exec(
        text,
      );
    assert.ok(cut, text);
    const size = Number(cut[1]);
    assert.deepEqual(cut.slice(2).map(Number), [size - 1, size - 1, size - 1, longest]);
    assert.match(
      text,
      new RegExp(
        `^the last frame with each of its bytes flipped: ${size} journals, ${size} torn with the commits before it, ${size} logged with the bytes dropped; largest buffer ${longest}$`,
        "m",
      ),
    );
    for (const at of [1, 2, 41, 82])
      assert.match(
        text,
        new RegExp(
          `^card pulled at the journal's read ${at} of 82: unread, files kept, 0 set aside, 0 log lines; reinserted: ok, 40 commits, the same entries$`,
          "m",
        ),
      );
  });
});
