// The runtime of triggered skills (the seed's triggers beyond a DM keyword).
// Only approved skills fire. A schedule or chain fire runs as the owner,
// unattended (scheduled: true), and counts against the daily governor of
// scheduled turns like a routine; a webhook fire runs as the webhook's own
// principal (a user in namespace webhook-<id>, unattended), never as the owner,
// and the route's rails (credit and rate per caller) bound it instead of the
// governor, so outside calls cannot use up the owner's scheduled turns; a subscription fire runs as the tier of
// the event's author (the owner, or a followed key as a guest; a stranger's or
// blocked key's event fires nothing) and is rate-limited per skill. Each turn
// sees only the skill's requires_tool tools. A finished skill fires the skills
// chained to it, at most NOSTR_SKILL_CHAIN_DEPTH_MAX deep. Driven by time only:
// the host's scheduler tick calls tick(); nothing here sets a timer.
import { formatLocalTime, nextRunAfter, type Schedule } from "../util/schedule";
import type { Log } from "../ports";
import { leadingTag } from "../errors";
import { makePrincipal, type Principal } from "../registry/principal";
import { toJson } from "../util/json";
import { clipForMessage } from "../util/text";
import type { NostrEvent } from "./event";
import { skillTurnText, type ReferenceResolver } from "./references";
import { relayFilterOf, scheduleOf, toolsOf, type AdoptedSkill } from "./skills";
import type { NostrSubsystem, SenderTier } from "./subsystem";

/** Chained fires after the first skill (a loop of chains stops here). */
export const NOSTR_SKILL_CHAIN_DEPTH_MAX = 3;
/** Subscription fires per skill per window; more matching events are counted and dropped. */
export const NOSTR_SKILL_SUB_FIRES_PER_WINDOW = 3;
export const NOSTR_SKILL_SUB_WINDOW_MS = 10 * 60 * 1000;
/** Longest text of what fired a skill (an event's content, a webhook body) taken into its turn. */
export const NOSTR_SKILL_CAUSE_MAX_CHARS = 2000;
/** The channel a skill's turn is shown as. */
export const NOSTR_SKILL_CHANNEL = "nostr-skill";

export interface SkillTurnRunner {
  runTurn(
    principal: Principal,
    input: { text: string; channel: string; tools?: readonly string[]; scheduled?: boolean },
  ): Promise<{ ok: boolean; reply: string }>;
}

export interface SkillTriggerDeps {
  nostr: NostrSubsystem;
  runner: SkillTurnRunner;
  /** The daily limit of scheduled turns, shared with routines. */
  governor: { tryTake(nowMs: number): boolean };
  now(): number;
  offsetMinutes(): number;
  /** The owner's principal (an owner-run fire adds scheduled: true). */
  ownerPrincipal(): Principal;
  /** The principal of a tier that may talk (admin and wot); undefined refuses. */
  principalFor(tier: SenderTier, pubkey: string): Principal | undefined;
  /** Credit and rate per author for subscription fires (lib/people/rails.ts); a refused event fires nothing. */
  rails: { decide(principal: Principal, door: "nostr-skill", sender: string): unknown };
  /** Resolves the `{{...}}` references of a skill's text (lib/nostr/references.ts); none: each is unavailable. */
  references?: ReferenceResolver;
  log: Log;
}

export interface TriggerStatus {
  id: string;
  d: string;
  trigger: string;
  fires: number;
  running: boolean;
  nextRun?: number;
  lastRun?: number;
  lastResult?: string;
  /** Events or calls dropped (rate limit, budget, a running turn). */
  dropped: number;
}

export type FireOutcome = "started" | "busy" | "budget";

export class SkillTriggers {
  private readonly status = new Map<string, TriggerStatus>();
  private readonly subFires = new Map<string, number[]>();
  /** Subscription names open, with the time (s) from which their events count. */
  private readonly subscribed = new Map<string, number>();
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: SkillTriggerDeps) {}

  /** Opens the subscriptions of approved subscription skills, and follows every later approval or removal. */
  start(): void {
    this.deps.nostr.skills.onChange = () => this.refresh();
    this.refresh();
  }

  /** Fires the approved scheduled skills that are due. Resolves when the turns it started have ended. */
  async tick(): Promise<void> {
    const now = this.deps.now();
    for (const skill of this.deps.nostr.skills.approved("schedule")) {
      const st = this.statusOf(skill);
      let schedule: Schedule;
      try {
        schedule = scheduleOf(skill.pattern);
      } catch {
        continue; // a stored record changed under us: it was checked when adopted
      }
      if (st.nextRun === undefined) st.nextRun = nextRunAfter(schedule, now, now, this.deps.offsetMinutes());
      if (st.nextRun > now) continue;
      st.nextRun = nextRunAfter(schedule, schedule.kind === "interval" ? st.nextRun : now, now, this.deps.offsetMinutes());
      this.fireAsOwner(skill, "schedule", `the skill's schedule is due (${formatLocalTime(now, this.deps.offsetMinutes())})`, 0);
    }
    await this.idle();
  }

  /** A webhook call: fires the approved webhook skill `id` with the call's body as JSON. */
  webhook(id: string, body: unknown): FireOutcome | "not-found" {
    const skill = this.deps.nostr.skills.approved("webhook").find((s) => s.id === id);
    if (!skill) return "not-found";
    const st = this.statusOf(skill);
    if (st.running) {
      st.dropped++;
      return "busy";
    }
    this.run(skill, webhookPrincipal(skill.id), "webhook", `a webhook call with the body ${toJson(body)}`, 0);
    return "started";
  }

  /** After a DM turn that used these skills: the skills chained to them. */
  completed(skills: AdoptedSkill[]): void {
    for (const s of skills) this.chain(s, 1);
  }

  /** Every approved triggered skill and how it ran (nostr.trigger_list). */
  list(): TriggerStatus[] {
    return this.deps.nostr.skills
      .list()
      .filter((s) => s.approved && s.trigger)
      .map((s) => ({ ...this.statusOf(s) }));
  }

  /** Resolves when no skill turn is running (tests await it). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all(Array.from(this.pending));
  }

  private refresh(): void {
    const { pool } = this.deps.nostr;
    if (!pool) return;
    const wanted = new Map(this.deps.nostr.skills.approved("subscription").map((s) => [`skill-${s.id}`, s]));
    for (const name of Array.from(this.subscribed.keys())) {
      if (wanted.has(name)) continue;
      pool.update(name, { enabled: false });
      this.subscribed.delete(name);
    }
    for (const [name, skill] of wanted) {
      if (this.subscribed.has(name)) continue;
      try {
        // Only events from now on: a relay's stored history never fires a skill (checked again per event).
        const since = this.deps.nostr.nowSeconds();
        pool.subscribe(name, [{ ...relayFilterOf(skill.pattern), since }], (e) => this.onEvent(skill, e));
        this.subscribed.set(name, since);
      } catch (e) {
        this.deps.log.warn(`nostr: the subscription of skill ${skill.d} was not opened (${e instanceof Error ? e.message : "error"})`);
      }
    }
  }

  /** An event (verified by the pool) matching a subscription skill's filter. */
  private onEvent(skill: AdoptedSkill, e: NostrEvent): void {
    const { nostr } = this.deps;
    const st = this.statusOf(skill);
    if (e.created_at < (this.subscribed.get(`skill-${skill.id}`) ?? Infinity)) return;
    if (!nostr.skills.approved("subscription").some((s) => s.id === skill.id)) return;
    const tier = nostr.tierOf(e.pubkey);
    const principal = tier === "stranger" || nostr.isBlocked(e.pubkey) ? undefined : this.deps.principalFor(tier, e.pubkey);
    if (!principal) return;
    const now = this.deps.now();
    const recent = (this.subFires.get(skill.id) ?? []).filter((t) => now - t < NOSTR_SKILL_SUB_WINDOW_MS);
    if (recent.length >= NOSTR_SKILL_SUB_FIRES_PER_WINDOW || st.running || this.deps.rails.decide(principal, "nostr-skill", e.pubkey)) {
      st.dropped++;
      return;
    }
    recent.push(now);
    this.subFires.set(skill.id, recent);
    const cause = `event ${e.id.slice(0, 16)} (kind ${e.kind}) by ${e.pubkey.slice(0, 16)}...:\n${e.content}`;
    this.run(skill, principal, "subscription", cause, 0);
  }

  private chain(done: AdoptedSkill, depth: number): void {
    for (const next of this.deps.nostr.skills.approved("chain")) {
      if (next.pattern !== done.d) continue;
      if (depth > NOSTR_SKILL_CHAIN_DEPTH_MAX) {
        const st = this.statusOf(next);
        st.dropped++;
        st.lastResult = `not run: the chain is deeper than ${NOSTR_SKILL_CHAIN_DEPTH_MAX}`;
        this.deps.log.warn(`nostr: a chain of skills stopped at depth ${NOSTR_SKILL_CHAIN_DEPTH_MAX} (a loop?)`);
        continue;
      }
      this.fireAsOwner(next, "chain", `the skill "${done.d}" finished`, depth);
    }
  }

  private fireAsOwner(skill: AdoptedSkill, via: string, cause: string, depth: number): FireOutcome {
    const st = this.statusOf(skill);
    if (st.running) {
      st.dropped++;
      return "busy";
    }
    const now = this.deps.now();
    if (!this.deps.governor.tryTake(now)) {
      st.dropped++;
      st.lastResult = "skipped: the daily limit of scheduled turns is reached";
      return "budget";
    }
    this.run(skill, { ...this.deps.ownerPrincipal(), scheduled: true }, via, cause, depth);
    return "started";
  }

  private run(skill: AdoptedSkill, principal: Principal, via: string, cause: string, depth: number): void {
    const st = this.statusOf(skill);
    st.running = true;
    st.fires++;
    st.lastRun = this.deps.now();
    const turn = skillTurnText(
      clipForMessage(cause, NOSTR_SKILL_CAUSE_MAX_CHARS),
      [skill],
      `fired by ${via}`,
      principal,
      this.deps.references,
    )
      .then((built) => {
        if (built.unresolved.length) this.deps.log.warn(`nostr: skill ${skill.d}: references unavailable: ${built.unresolved.join(", ")}`);
        return this.deps.runner.runTurn(principal, {
          text: built.text,
          channel: NOSTR_SKILL_CHANNEL,
          tools: toolsOf([skill]),
          scheduled: principal.scheduled,
        });
      })
      .then(
        (r) => {
          // A failed turn's reply already starts with its tag ("quota: ...", "limit: ..."): not tagged twice.
          const why = clipForMessage(r.reply, 120);
          st.lastResult = r.ok ? "ok" : leadingTag(why) ? why : `failed: ${why}`;
          return r.ok;
        },
        () => {
          st.lastResult = "failed: the turn failed";
          return false;
        },
      )
      .then((ok) => {
        st.running = false;
        if (ok) this.chain(skill, depth + 1);
      });
    const tracked = turn.then(() => {
      this.pending.delete(tracked);
    });
    this.pending.add(tracked);
  }

  private statusOf(skill: AdoptedSkill): TriggerStatus {
    let st = this.status.get(skill.id);
    if (!st) {
      st = { id: skill.id, d: skill.d, trigger: skill.trigger ?? "none", fires: 0, running: false, dropped: 0 };
      this.status.set(skill.id, st);
    }
    return st;
  }
}

/** The principal a webhook skill's turn runs as: its own user namespace, unattended; only its skill's tools are offered. */
export function webhookPrincipal(skillId: string): Principal {
  return makePrincipal(`webhook-${skillId}`, "user", "turn", true);
}
