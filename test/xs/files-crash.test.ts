// The artifact store's crash recovery on the XS engine: the same transcript as on Node, line for line.
import assert from "node:assert/strict";
import { runFilesCrashScenario } from "../scenarios/files-crash.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("artifact store crash recovery on XS", () => {
  const cmp = compareOnXs("test/xs/files-crash.xs.ts", runFilesCrashScenario, 20);

  it("the transcript shows the behaviour, not just agreement", () => {
    const text = cmp.node().join("\n");
    const old = 'p/doc.md 11B t1000 "old version"';
    assert.match(
      text,
      new RegExp(
        `^overwrite pulled after 0: .*the previous version of the file is intact\\. \\| ${old}, q/solo.md .* \\| card: files/q/solo.md$`,
        "m",
      ),
    );
    assert.match(
      text,
      /^overwrite pulled after 2: .*the new version was saved and is in place once the card is back\. \| p\/doc\.md 15B t2000 "the new version", .* \| card: files\/q\/solo\.md$/m,
    );
    assert.match(
      text,
      /^new pulled after 2: .*the file was saved and is in place once the card is back\. \| .*p\/new\.md 10B t2000 "a new file"/m,
    );
    assert.match(text, new RegExp(`^delete pulled after 1: .*the file was deleted\\. \\| ${old} \\| card: -$`, "m"));
    assert.match(text, /^overwrite pulled after 4: done \| p\/doc\.md 15B t2000 "the new version"/m);
    assert.doesNotMatch(text, /files\/\.staged/, "no staged file outlives a reboot");
    assert.match(text, /^ {2}next save: p\/doc\.md 4B t2001 "next"/m);
  });
});
