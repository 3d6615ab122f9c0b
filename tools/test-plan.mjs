// What `npm test` runs and how it splits the mocha files between parallel processes.

/** Files known to take long, with a rough cost in seconds on a quiet two-core machine. They are
 * the first placed when the runner has no timings of its own yet, and `npm run test:quick` leaves them
 * out (browser, pseudo-terminal, crash and long audio tests). */
export const SLOW_FILES = {
  "test/web-ui/web-ui.test.ts": 40,
  "test/wake/detection.test.ts": 20,
  "test/wallet/crash.test.ts": 20,
  "test/xs/lexicon-model.test.ts": 14,
  "test/flash/flash-cli.test.ts": 13,
  "test/xs/vector-journal.test.ts": 11,
  "test/xs/search-index.test.ts": 10,
  "test/memory/crash.test.ts": 3,
  "test/xs/files-crash.test.ts": 3,
};

/** Files that share one process: the architecture scans parse lib/ once between them. */
export const TOGETHER = ["test/architecture/"];

/** Cost of a file the runner has not timed yet and that is not in SLOW_FILES. */
export const DEFAULT_SECONDS = 1.5;

/**
 * Splits `files` into `count` groups of about equal cost: the costliest first, each to the group with
 * the least so far (longest processing time first). `seconds` maps a file to its last measured time.
 */
export function shard(files, count, seconds) {
  const cost = (f) => seconds[f] ?? SLOW_FILES[f] ?? DEFAULT_SECONDS;
  const units = [];
  for (const prefix of TOGETHER) {
    const members = files.filter((f) => f.startsWith(prefix));
    if (members.length) units.push({ files: members, cost: members.reduce((s, f) => s + cost(f), 0) });
  }
  for (const f of files) if (!TOGETHER.some((p) => f.startsWith(p))) units.push({ files: [f], cost: cost(f) });
  units.sort((a, b) => b.cost - a.cost || a.files[0].localeCompare(b.files[0]));
  const groups = Array.from({ length: count }, () => ({ files: [], cost: 0 }));
  for (const unit of units) {
    const least = groups.reduce((a, b) => (b.cost < a.cost ? b : a));
    least.files.push(...unit.files);
    least.cost += unit.cost;
  }
  return groups.filter((g) => g.files.length > 0);
}
