// Skill triggers on any engine: skill events checked at adoption (malformed
// triggers and filters refused), the tools a skill's turn may use, and the
// trigger runtime (schedule on a hand-moved clock, webhook, chain with its
// depth limit, the daily governor, approval first) over a recording runner.
// The transcript is compared between Node and the XS host.
import { DailyGovernor } from "../../lib/agents/daily-governor.ts";
import { type NostrEvent, portableSha256 } from "../../lib/nostr/event.ts";
import { relayFilterOf, skillFromEvent, toolsOf } from "../../lib/nostr/skills.ts";
import { NostrSubsystem } from "../../lib/nostr/subsystem.ts";
import { SkillTriggers } from "../../lib/nostr/triggers.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { portablePorts } from "../support/portable-ports.ts";

let seq = 0;
function skillEvent(d: string, tags: string[][], pubkey = "a".repeat(64), content = `Do ${d}.`): NostrEvent {
  const id = (++seq).toString(16).padStart(16, "0").padEnd(64, "e");
  return { id, pubkey, kind: 31123, created_at: 1_780_000_000, tags: [["d", d], ...tags], content, sig: "0".repeat(128) };
}

function attempt(f: () => unknown): string {
  try {
    return JSON.stringify(f());
  } catch (e) {
    return `ERROR ${e instanceof Error ? e.message : String(e)}`;
  }
}

export async function runNostrSkillsScenario(): Promise<string[]> {
  const out: string[] = [];
  const refused: Array<[string, string[][]]> = [
    ["t1", [["trigger", "teleport"]]],
    ["t2", [["trigger", "dm"]]],
    [
      "t3",
      [
        ["trigger", "schedule"],
        ["filter", '{"kind":"interval","every_seconds":10}'],
      ],
    ],
    [
      "t4",
      [
        ["trigger", "subscription"],
        ["filter", '{"authors":["' + "b".repeat(64) + '"]}'],
      ],
    ],
    [
      "t5",
      [
        ["trigger", "subscription"],
        ["filter", '{"kinds":[1],"limit":5}'],
      ],
    ],
    [
      "t6",
      [
        ["trigger", "subscription"],
        ["filter", "[1,2]"],
      ],
    ],
    [
      "t7",
      [
        ["trigger", "chain"],
        ["filter", "../x"],
      ],
    ],
    [
      "t8",
      [
        ["trigger", "webhook"],
        ["filter", "x".repeat(600)],
      ],
    ],
  ];
  for (const [d, tags] of refused) out.push(`adopt ${d} ${attempt(() => skillFromEvent(skillEvent(d, tags)).d)}`);
  out.push(`too long ${attempt(() => skillFromEvent(skillEvent("long", [], "a".repeat(64), "x".repeat(2001))))}`);
  out.push(`filter ${attempt(() => relayFilterOf('{"kinds":[1,30023],"#t":["halo"],"authors":["' + "c".repeat(64) + '"]}'))}`);
  const a = skillFromEvent(skillEvent("a", [["requires_tool", "nostr.query"]]));
  const b = skillFromEvent(
    skillEvent("b", [
      ["requires_tool", "agent.version"],
      ["requires_tool", "nostr.query"],
    ]),
  );
  const c = skillFromEvent(skillEvent("c", []));
  out.push(`tools ${JSON.stringify(toolsOf([a, b]))} ${JSON.stringify(toolsOf([a, c]))} ${JSON.stringify(toolsOf([]))}`);

  const ports = portablePorts();
  let now = Date.UTC(2026, 10, 1, 12);
  const nostr = new NostrSubsystem({
    settings: ports.settings,
    random: ports.random,
    log: ports.log,
    curve: ports.curve,
    digest: portableSha256,
    now: () => now,
    sleep: () => Promise.resolve(),
  });
  let limit = 6;
  const governor = new DailyGovernor(
    ports.settings,
    ports.log,
    () => limit,
    () => 0,
  );
  const turns: string[] = [];
  const warnings: string[] = [];
  const triggers = new SkillTriggers({
    nostr,
    runner: {
      runTurn: (p, input) => {
        turns.push(
          `turn ${p.ns} ${p.role} scheduled=${p.scheduled} tools=${JSON.stringify(input.tools ?? null)} ${input.text.split("\n")[0]}`,
        );
        return Promise.resolve({ ok: true, reply: "done" });
      },
    },
    governor,
    now: () => now,
    offsetMinutes: () => 0,
    ownerPrincipal: () => makePrincipal("owner", "admin", "turn"),
    principalFor: () => undefined,
    rails: { decide: () => undefined },
    log: { info: () => undefined, warn: (m) => void warnings.push(m) },
  });
  triggers.start();
  const adopt = (d: string, tags: string[][], pubkey?: string): string =>
    nostr.skills.adopt(skillFromEvent(skillEvent(d, tags, pubkey))).id;
  const sched = adopt("check", [
    ["trigger", "schedule"],
    ["filter", '{"kind":"interval","every_seconds":300}'],
    ["requires_tool", "agent.version"],
  ]);
  const hook = adopt("hook", [["trigger", "webhook"]]);
  const pong = adopt("pong", [
    ["trigger", "chain"],
    ["filter", "hook"],
  ]);
  const back = adopt(
    "hook",
    [
      ["trigger", "chain"],
      ["filter", "pong"],
    ],
    "d".repeat(64),
  );

  now += 301_000;
  await triggers.tick();
  out.push(`unapproved: ${turns.length} turns, webhook ${triggers.webhook(hook, {})}`);
  for (const id of [sched, hook, pong, back]) nostr.skills.approve(id);
  await triggers.tick();
  out.push(`first tick after approval: ${turns.length} turns`);
  now += 300_000;
  await triggers.tick();
  now += 1000;
  await triggers.tick();
  out.push(`webhook ${triggers.webhook(hook, { door: "open" })}`);
  await triggers.idle();
  out.push(...turns);
  out.push(`warnings ${warnings.length}: ${warnings[0] ?? ""}`);
  out.push(`governor used ${governor.used(now)} of ${limit}`);
  limit = 0;
  // A webhook runs as its own principal and uses none of the owner's scheduled turns (the route's rails bound it).
  out.push(`webhook with no scheduled turns left ${triggers.webhook(hook, {})}`);
  await triggers.idle();
  out.push(turns[turns.length - 1]);
  out.push(`unknown webhook ${triggers.webhook("0123456789abcdef", {})}`);
  for (const t of triggers.list())
    out.push(`status ${t.d} ${t.trigger} fires=${t.fires} dropped=${t.dropped} next=${t.nextRun ?? "-"} ${t.lastResult ?? ""}`);
  return out;
}
