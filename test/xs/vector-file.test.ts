// The vector file in pieces on the XS engine: the same transcript as on Node (Node's SHA-256 there, the
// C one here), line for line, and what the transcript must say.
import assert from "node:assert/strict";
import { nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { VECTOR_FILE_PIECE_BYTES } from "../../lib/memory/bounds.ts";
import { runVectorFileScenario } from "../scenarios/vector-file.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("the vector file in pieces on XS", () => {
  const cmp = compareOnXs("test/xs/vector-file.xs.ts", () => runVectorFileScenario(nodeDigest), 50);

  it("the transcript shows the behaviour, not just agreement", () => {
    const text = cmp.node().join("\n");
    assert.doesNotMatch(text, /DIFFERENT|WRONG|\(whole: /);
    assert.match(text, /^longest records: read in pieces of 1: 3 entries .*the same entries, base matches$/m);
    assert.match(text, /^cut to 607 bytes: VectorFileError: truncated \(575 of 1183 body bytes\)$/m);
    assert.match(text, /^byte 607 flipped: VectorFileError: checksum mismatch$/m);
    assert.match(text, /^an id repeated in its namespace \(checksum resealed\): VectorFileError: entry 2: repeated id$/m);
    assert.match(text, /^count damaged to 20000, a 1 KB arena: VectorFileError: checksum mismatch$/m);
    assert.match(text, /^intact, a 1 KB arena: full$/m);
    const big =
      /^2000 entries, (\d+) bytes: read back 2000 entries, the same; largest read (\d+), largest piece written (\d+), whole reads 0, whole writes 0$/m.exec(
        text,
      );
    assert.ok(big, text.slice(-400));
    assert.ok(Number(big[1]) > 50 * VECTOR_FILE_PIECE_BYTES);
    assert.equal(Number(big[2]), VECTOR_FILE_PIECE_BYTES);
    assert.equal(Number(big[3]), VECTOR_FILE_PIECE_BYTES);
  });
});
