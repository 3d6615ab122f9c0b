// The episodic store and memory.episodic: day parts, filters, paging into the past,
// the bounded boot index, retention, torn rows, a pulled card.
import assert from "node:assert/strict";
import { fakeClock, memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import {
  EPISODIC_BOOT_SCAN_BYTES,
  EPISODIC_INDEX_MAX_ROWS,
  EPISODIC_PART_MAX_BYTES,
  EPISODIC_QUERY_SCAN_PARTS,
  EPISODIC_RETENTION_DAYS,
} from "../../lib/memory/bounds.ts";
import { EPISODIC_DIR, EpisodicStore } from "../../lib/memory/episodic/episodic.ts";
import type { EpisodicKind } from "../../lib/memory/episodic/format.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { SYSTEM_NS } from "../../lib/memory/episodic/device-events.ts";
import type { Storage } from "../../lib/ports.ts";
import { DAY, HOUR, memoryCore } from "../support/memory.ts";

const admin = makePrincipal("owner", "admin", "mcp");
const member = makePrincipal("mia", "user", "mcp");

function rig() {
  const clock = fakeClock();
  const storage = memoryStorage();
  const log = memoryLog();
  return { clock, storage, log, store: new EpisodicStore(storage, clock, log) };
}

/** Counts reads, to prove the boot scan is bounded. */
function countingStorage(inner: Storage): Storage & { reads: number; bytesRead: number } {
  const s = {
    ...inner,
    reads: 0,
    bytesRead: 0,
    read(path: string) {
      const b = inner.read(path);
      s.reads++;
      s.bytesRead += b?.length ?? 0;
      return b;
    },
  };
  return s;
}

describe("episodic store", () => {
  it("filters by kind, session, text and time window; a member sees only their own rows", async () => {
    const { core, clock } = memoryCore();
    const ep = core.episodic!;
    const add = (ns: string, session: string, kind: EpisodicKind, text: string): void =>
      void ep.append({ ns, session, role: "user", kind, text });
    add("owner", "chat-1", "message", "Please order more Coffee beans");
    add("owner", "chat-1", "tool_output", "order placed: coffee x2");
    clock.advance(5 * HOUR);
    add("owner", "chat-2", "transcript", "voice: what's the weather");
    add("mia", "chat-9", "message", "Mia's private coffee note");
    add(SYSTEM_NS, "system", "log", "restart: power-on reset");
    clock.advance(1 * HOUR);
    const ask = async (args: object, who = admin): Promise<string> => {
      const r = await core.registry.dispatch("memory.episodic", args, who);
      assert.ok(!r.isError, r.text);
      return r.text;
    };
    const all = await ask({});
    assert.equal(all.split("\n").length, 4, all);
    assert.match(all.split("\n")[0], /^- \d{8}-00:4 2026-01-01T05:00:00Z \[system\] user log: restart: power-on reset$/);
    assert.doesNotMatch(all, /Mia/);
    assert.match(await ask({ text: "COFFEE" }), /^- .*order placed: coffee x2\n- .*Please order more Coffee beans$/);
    assert.match(await ask({ kind: "transcript" }), /^- .*voice: what's the weather$/);
    assert.equal((await ask({ session: "chat-1" })).split("\n").length, 2);
    assert.equal((await ask({ since_hours: 2 })).split("\n").length, 2);
    assert.equal((await ask({ before_hours: 2 })).split("\n").length, 2);
    assert.match(await ask({ text: "coffee" }, member), /^- .*Mia's private coffee note$/);
    assert.equal(await ask({ kind: "audio" }), "No episodic rows match.");
  });

  it("pages into the past with the before token, across day parts, without repeats", async () => {
    const { core, clock } = memoryCore();
    for (let day = 0; day < 5; day++) {
      for (let i = 0; i < 7; i++)
        core.episodic!.append({ ns: "owner", session: "s", role: "user", kind: "message", text: `day ${day} row ${i}` });
      clock.advance(DAY);
    }
    const seen: string[] = [];
    let before: string | undefined;
    for (let page = 0; page < 20; page++) {
      const r = await core.registry.dispatch("memory.episodic", { limit: 4, ...(before ? { before } : {}) }, admin);
      assert.ok(!r.isError, r.text);
      const lines = r.text.split("\n");
      const more = /^\[more: call memory\.episodic with before "([^"]+)"/.exec(lines[lines.length - 1]);
      for (const l of more ? lines.slice(0, -1) : lines) if (l.startsWith("- ")) seen.push(/: (day \d row \d)$/.exec(l)![1]);
      if (!more) break;
      before = more[1];
    }
    const expected = [];
    for (let day = 4; day >= 0; day--) for (let i = 6; i >= 0; i--) expected.push(`day ${day} row ${i}`);
    assert.deepEqual(seen, expected);
  });

  it("the boot index is bounded; older parts are reached by a bounded cold scan per call", () => {
    const { clock, storage, log } = rig();
    const writer = new EpisodicStore(storage, clock, log);
    const big = "x".repeat(3000);
    // About 40 day parts of ~60 KB each: far more than the boot scan may read.
    for (let day = 0; day < 40; day++) {
      for (let i = 0; i < 20; i++) writer.append({ ns: "owner", session: "s", role: "user", kind: "log", text: `d${day}-${i} ${big}` });
      clock.advance(DAY);
    }
    const counting = countingStorage(storage);
    const booted = new EpisodicStore(counting, clock, log);
    const first = booted.query({ namespaces: ["owner"] }, 1);
    assert.ok(counting.bytesRead <= EPISODIC_BOOT_SCAN_BYTES + EPISODIC_PART_MAX_BYTES, String(counting.bytesRead));
    assert.ok(counting.reads < 40);
    assert.match(first.rows[0].text, /^d39-19 /);
    // The oldest row, by paging: each call reads at most EPISODIC_QUERY_SCAN_PARTS cold parts.
    let before = first.next;
    let oldest = "";
    for (let calls = 0; calls < 100 && before; calls++) {
      const reads = counting.reads;
      const page = booted.query({ namespaces: ["owner"], text: "d0-0 " }, 5, before);
      assert.ok(counting.reads - reads <= EPISODIC_QUERY_SCAN_PARTS);
      if (page.rows.length > 0) oldest = page.rows[0].text;
      before = page.next;
    }
    assert.match(oldest, /^d0-0 /);
    assert.ok(EPISODIC_INDEX_MAX_ROWS >= 100);
  });

  it("rolls a day over into parts when one part is full", () => {
    const { storage, store } = rig();
    const text = "y".repeat(4000);
    const rows = Math.ceil(EPISODIC_PART_MAX_BYTES / 4000) + 5;
    for (let i = 0; i < rows; i++) store.append({ ns: "owner", session: "s", role: "user", kind: "file", text });
    assert.deepEqual(storage.list(EPISODIC_DIR), ["20260101-00.log", "20260101-01.log"]);
    for (const name of storage.list(EPISODIC_DIR)) assert.ok(storage.stat(`${EPISODIC_DIR}/${name}`)!.size <= EPISODIC_PART_MAX_BYTES);
    assert.equal(store.query({ namespaces: ["owner"] }, 100).rows.length, rows);
  });

  it("prunes day parts past the retention period", () => {
    const { clock, storage, log, store } = rig();
    store.append({ ns: "owner", session: "s", role: "user", kind: "message", text: "very old" });
    clock.advance((EPISODIC_RETENTION_DAYS - 1) * DAY);
    store.append({ ns: "owner", session: "s", role: "user", kind: "message", text: "recent" });
    assert.equal(storage.list(EPISODIC_DIR).length, 2);
    clock.advance(2 * DAY);
    store.append({ ns: "owner", session: "s", role: "user", kind: "message", text: "today" });
    assert.equal(storage.list(EPISODIC_DIR).length, 2, "the first day went when the day rolled over");
    assert.deepEqual(
      new EpisodicStore(storage, clock, log).query({ namespaces: ["owner"] }, 10).rows.map((r) => r.text),
      ["today", "recent"],
    );
    assert.ok(log.lines.some((l) => /pruned 1 episodic part/.test(l)));
  });

  it("drops a torn or tampered row with a log line and keeps what follows", () => {
    const { clock, storage, log, store } = rig();
    store.append({ ns: "owner", session: "s", role: "user", kind: "message", text: "intact one" });
    const path = `${EPISODIC_DIR}/${storage.list(EPISODIC_DIR)[0]}`;
    storage.append(path, new TextEncoder().encode('\n27 0badf00d {"ns":"owner","session":"s"'));
    storage.append(path, new TextEncoder().encode('\n10 12345678 {"ns":"x"}'));
    const reread = new EpisodicStore(storage, clock, log);
    reread.append({ ns: "owner", session: "s", role: "user", kind: "message", text: "intact two" });
    assert.deepEqual(
      new EpisodicStore(storage, clock, log).query({ namespaces: ["owner"] }, 10).rows.map((r) => r.text),
      ["intact two", "intact one"],
    );
    assert.ok(log.lines.some((l) => /dropped 2 torn or damaged row\(s\)/.test(l)));
  });

  it("a failed append (card pulled mid-write) is re-read before the next one; no-card while out", () => {
    const { clock, storage, log, store } = rig();
    store.append({ ns: "owner", session: "s", role: "user", kind: "message", text: "before" });
    storage.pull();
    assert.throws(
      () => store.append({ ns: "owner", session: "s", role: "user", kind: "message", text: "while out" }),
      /^HaloError: no-card:/,
    );
    assert.throws(() => store.query({ namespaces: ["owner"] }, 5), /no-card/);
    storage.insert();
    const path = `${EPISODIC_DIR}/${storage.list(EPISODIC_DIR)[0]}`;
    storage.append(path, new TextEncoder().encode("\n99 half-written"));
    store.append({ ns: "owner", session: "s", role: "user", kind: "message", text: "after" });
    const rows = new EpisodicStore(storage, clock, log).query({ namespaces: ["owner"] }, 5).rows;
    assert.deepEqual(
      rows.map((r) => r.text),
      ["after", "before"],
    );
  });
});
