// lib/util/log-limit.ts: a client aborting request after request cannot flood the log or the card.
import assert from "node:assert/strict";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { LOG_LINES_PER_WINDOW, LOG_MAX_GROUPS, LOG_REPEATS_PER_WINDOW, LOG_WINDOW_MS, RateLimitedLog } from "../../lib/util/log-limit.ts";

describe("rate-limited log", () => {
  it("passes a few repeats per window, counts the rest and reports them once the window ends", () => {
    const inner = memoryLog();
    let now = 1000;
    const log = new RateLimitedLog(inner, { now: () => now });
    for (let i = 0; i < 500; i++) log.warn(`request failed: aborted (connection ${i})`);
    log.info("owner api: client laptop created (user)");
    assert.equal(inner.lines.length, LOG_REPEATS_PER_WINDOW + 1);
    assert.equal(log.withheld(), 500 - LOG_REPEATS_PER_WINDOW);
    now += LOG_WINDOW_MS;
    log.warn("request failed: aborted (connection 501)");
    assert.ok(
      inner.lines.some((l) => l.includes(`${500 - LOG_REPEATS_PER_WINDOW} more like "request failed: aborted (connection 0)" withheld`)),
    );
    assert.equal(
      inner.lines[inner.lines.length - 1].endsWith("request failed: aborted (connection 501)"),
      true,
      "a new window passes lines again",
    );
  });

  it("caps all lines in a window and the groups it tracks, whatever the text", () => {
    const inner = memoryLog();
    const log = new RateLimitedLog(inner, { now: () => 0 });
    for (let i = 0; i < 1000; i++)
      log.warn(`failure ${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + (((i / 26) | 0) % 26))}`);
    assert.ok(inner.lines.length <= Math.min(LOG_LINES_PER_WINDOW, LOG_MAX_GROUPS * LOG_REPEATS_PER_WINDOW));
    assert.equal(log.withheld() + inner.lines.length, 1000, "every line is either written or counted");
  });
});
