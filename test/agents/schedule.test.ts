// Next-run computation for interval, daily and weekly schedules across day, week,
// month and year boundaries and UTC offsets; schedule parsing and its refusals.
import assert from "node:assert/strict";
import { formatLocalTime, localDay, nextRunAfter, parseSchedule, type Schedule } from "../../lib/util/schedule";

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 16);

describe("routine schedules: next run", () => {
  it("interval: whole intervals from the anchor, strictly after now, phase kept after a late tick", () => {
    const s: Schedule = { kind: "interval", everySeconds: 600 };
    const anchor = at("2026-01-05T09:00:00Z");
    assert.equal(iso(nextRunAfter(s, anchor, anchor)), "2026-01-05T09:10");
    assert.equal(iso(nextRunAfter(s, anchor, anchor + 599_999)), "2026-01-05T09:10");
    assert.equal(iso(nextRunAfter(s, anchor, anchor + 600_000)), "2026-01-05T09:20", "a run exactly at now is not next");
    assert.equal(iso(nextRunAfter(s, anchor, at("2026-01-05T09:47:13Z"))), "2026-01-05T09:50", "late: next slot on the original grid");
    assert.equal(iso(nextRunAfter(s, anchor, anchor - 5000)), "2026-01-05T09:10");
    assert.equal(
      iso(nextRunAfter({ kind: "interval", everySeconds: 86400 }, at("2026-12-31T23:30:00Z"), at("2026-12-31T23:30:00Z"))),
      "2027-01-01T23:30",
    );
  });

  it("daily: later today, else tomorrow; across the day, month and year boundary", () => {
    const s: Schedule = { kind: "daily", at: "08:00" };
    assert.equal(iso(nextRunAfter(s, 0, at("2026-01-05T07:59:00Z"))), "2026-01-05T08:00");
    assert.equal(iso(nextRunAfter(s, 0, at("2026-01-05T08:00:00Z"))), "2026-01-06T08:00", "strictly after now");
    assert.equal(iso(nextRunAfter({ kind: "daily", at: "00:10" }, 0, at("2026-01-05T23:50:00Z"))), "2026-01-06T00:10");
    assert.equal(iso(nextRunAfter({ kind: "daily", at: "00:15" }, 0, at("2026-01-31T23:30:00Z"))), "2026-02-01T00:15");
    assert.equal(iso(nextRunAfter({ kind: "daily", at: "00:15" }, 0, at("2026-12-31T23:30:00Z"))), "2027-01-01T00:15");
    assert.equal(iso(nextRunAfter({ kind: "daily", at: "12:00" }, 0, at("2028-02-28T13:00:00Z"))), "2028-02-29T12:00", "leap day");
  });

  it("daily with days, and weekly: the next allowed weekday, across the week boundary", () => {
    // 2026-01-05 is a Monday.
    const monWed: Schedule = { kind: "daily", at: "08:00", days: ["mon", "wed"] };
    assert.equal(iso(nextRunAfter(monWed, 0, at("2026-01-05T07:00:00Z"))), "2026-01-05T08:00");
    assert.equal(iso(nextRunAfter(monWed, 0, at("2026-01-05T09:00:00Z"))), "2026-01-07T08:00");
    assert.equal(iso(nextRunAfter(monWed, 0, at("2026-01-07T09:00:00Z"))), "2026-01-12T08:00", "Wednesday after the run: next Monday");
    const sunday: Schedule = { kind: "weekly", at: "18:00", days: ["sun"] };
    assert.equal(iso(nextRunAfter(sunday, 0, at("2026-01-11T17:59:00Z"))), "2026-01-11T18:00");
    assert.equal(iso(nextRunAfter(sunday, 0, at("2026-01-11T19:00:00Z"))), "2026-01-18T18:00", "a full week later");
    const monday: Schedule = { kind: "weekly", at: "06:00", days: ["mon"] };
    assert.equal(iso(nextRunAfter(monday, 0, at("2026-01-10T23:00:00Z"))), "2026-01-12T06:00", "Saturday night to Monday");
    assert.equal(iso(nextRunAfter(monday, 0, at("2026-12-30T12:00:00Z"))), "2027-01-04T06:00", "into the next year");
  });

  it("calendar times are the owner's local time: UTC plus the offset, weekdays on the local calendar", () => {
    // UTC+2: 01:00 local is 23:00 UTC the day before.
    assert.equal(iso(nextRunAfter({ kind: "daily", at: "01:00" }, 0, at("2026-01-05T22:00:00Z"), 120)), "2026-01-05T23:00");
    assert.equal(iso(nextRunAfter({ kind: "daily", at: "01:00" }, 0, at("2026-01-05T23:00:00Z"), 120)), "2026-01-06T23:00");
    // UTC-5: Monday 22:00 local is Tuesday 03:00 UTC; at Tuesday 02:00 UTC it is still Monday locally.
    const mondayNight: Schedule = { kind: "weekly", at: "22:00", days: ["mon"] };
    assert.equal(iso(nextRunAfter(mondayNight, 0, at("2026-01-05T12:00:00Z"), -300)), "2026-01-06T03:00");
    assert.equal(iso(nextRunAfter(mondayNight, 0, at("2026-01-06T02:00:00Z"), -300)), "2026-01-06T03:00");
    assert.equal(iso(nextRunAfter(mondayNight, 0, at("2026-01-06T03:00:00Z"), -300)), "2026-01-13T03:00");
    // UTC+5:45 (Nepal): quarter-hour offsets work too.
    assert.equal(iso(nextRunAfter({ kind: "daily", at: "06:00" }, 0, at("2026-01-05T00:00:00Z"), 345)), "2026-01-05T00:15");
  });

  it("formats times and days on the owner's calendar", () => {
    assert.equal(formatLocalTime(at("2026-01-05T23:00:00Z"), 120), "2026-01-06 01:00 (UTC+02:00)");
    assert.equal(formatLocalTime(at("2026-01-05T03:00:00Z"), -300), "2026-01-04 22:00 (UTC-05:00)");
    assert.equal(formatLocalTime(at("2026-01-05T03:00:00Z")), "2026-01-05 03:00 (UTC+00:00)");
    assert.equal(localDay(at("2026-01-05T23:30:00Z"), 60), "2026-01-06");
    assert.equal(localDay(at("2026-01-05T00:30:00Z"), -60), "2026-01-04");
  });
});

describe("routine schedules: parsing", () => {
  it("accepts the three kinds, sorting and de-duplicating days", () => {
    assert.deepEqual(parseSchedule({ kind: "interval", every_seconds: 300 }), { kind: "interval", everySeconds: 300 });
    assert.deepEqual(parseSchedule({ kind: "daily", at: "07:30" }), { kind: "daily", at: "07:30" });
    assert.deepEqual(parseSchedule({ kind: "daily", at: "07:30", days: ["fri", "mon"] }), {
      kind: "daily",
      at: "07:30",
      days: ["mon", "fri"],
    });
    assert.deepEqual(parseSchedule({ kind: "weekly", at: "23:59", days: ["thu", "mon", "mon"] }), {
      kind: "weekly",
      at: "23:59",
      days: ["mon", "thu"],
    });
  });

  it("refuses what does not fit, in one sentence", () => {
    const cases: Array<[{ [key: string]: unknown }, RegExp]> = [
      [{ kind: "interval", every_seconds: 299 }, /every_seconds, a whole number from 300 to 2592000/],
      [{ kind: "interval", every_seconds: 300.5 }, /whole number/],
      [{ kind: "interval", every_seconds: Number.NaN }, /whole number/],
      [{ kind: "interval" }, /needs every_seconds/],
      [{ kind: "interval", every_seconds: 600, at: "08:00" }, /takes every_seconds only/],
      [{ kind: "daily" }, /needs at, a time "HH:MM"/],
      [{ kind: "daily", at: "24:00" }, /needs at/],
      [{ kind: "daily", at: "8:00" }, /needs at/],
      [{ kind: "daily", at: "08:00", every_seconds: 600 }, /takes at \(and days\), not every_seconds/],
      [{ kind: "weekly", at: "08:00" }, /weekly schedule needs days/],
      [{ kind: "weekly", at: "08:00", days: [] }, /1 to 7 week days/],
      [{ kind: "weekly", at: "08:00", days: ["funday"] }, /days are sun, mon, tue, wed, thu, fri, sat/],
      [{ kind: "weekly", at: "08:00", days: "mon" }, /1 to 7 week days/],
      [{ kind: "hourly" }, /schedule.kind is interval, daily or weekly/],
      [{}, /schedule.kind is interval, daily or weekly/],
    ];
    for (const [raw, expected] of cases) {
      const r = parseSchedule(raw);
      assert.equal(typeof r, "string", JSON.stringify(raw));
      assert.match(r as string, expected, JSON.stringify(raw));
    }
  });
});
