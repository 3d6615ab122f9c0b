import { toJson } from "../util/json";
import { HaloError } from "../errors";
// The working scratchpad: one active task and short/mid/long goal tiers,
// persisted in Settings (one key per part, so each edit is one atomic set).
import type { Log, Settings } from "../ports";
import { utf8Length } from "../util/utf8";
import { SCRATCHPAD_ACTIVE_MAX_BYTES, SCRATCHPAD_ITEM_MAX_BYTES, SCRATCHPAD_TIER_MAX_ITEMS } from "./bounds";

export const SCRATCHPAD_TIERS = ["short", "mid", "long"] as const;
export type ScratchpadTier = (typeof SCRATCHPAD_TIERS)[number];

const KEY_PREFIX = "memory.pad.";

export class Scratchpad {
  private active = "";
  private readonly tiers: { [tier: string]: string[] } = { short: [], mid: [], long: [] };

  constructor(
    private readonly settings: Settings,
    log: Log,
  ) {
    const active = settings.get(KEY_PREFIX + "active");
    if (active !== undefined && utf8Length(active) <= SCRATCHPAD_ACTIVE_MAX_BYTES) this.active = active;
    else if (active !== undefined) log.warn("memory: stored scratchpad active task is too long; ignored");
    for (const tier of SCRATCHPAD_TIERS) {
      const text = settings.get(KEY_PREFIX + tier);
      if (text === undefined) continue;
      const items = parseItems(text);
      if (items) this.tiers[tier] = items;
      else log.warn(`memory: stored scratchpad tier ${tier} is unreadable; ignored`);
    }
  }

  /** The scratchpad as the prompt shows it. */
  render(): string {
    const lines = [`Active task: ${this.active === "" ? "(none)" : this.active}`];
    for (const tier of SCRATCHPAD_TIERS) {
      const items = this.tiers[tier];
      lines.push(`${tier}-term goals:${items.length === 0 ? " (none)" : ""}`);
      items.forEach((item, i) => {
        lines.push(`  ${i + 1}. ${item}`);
      });
    }
    return lines.join("\n");
  }

  setActive(text: string): void {
    checkBytes(text, SCRATCHPAD_ACTIVE_MAX_BYTES, "the active task");
    this.settings.set(KEY_PREFIX + "active", text);
    this.active = text;
  }

  add(tier: ScratchpadTier, text: string): void {
    checkItem(text);
    const items = this.tiers[tier];
    if (items.length >= SCRATCHPAD_TIER_MAX_ITEMS) {
      throw new HaloError("full", `the ${tier} tier holds ${SCRATCHPAD_TIER_MAX_ITEMS} items; replace or clear it first.`);
    }
    this.store(tier, items.concat([text]));
  }

  replace(tier: ScratchpadTier, items: string[]): void {
    if (items.length > SCRATCHPAD_TIER_MAX_ITEMS)
      throw new HaloError("invalid-arguments", `a tier holds at most ${SCRATCHPAD_TIER_MAX_ITEMS} items.`);
    items.forEach(checkItem);
    this.store(tier, items.slice());
  }

  /** Clears one tier, or everything (active task included) when no tier is named. */
  clear(tier?: ScratchpadTier): void {
    if (tier) {
      this.store(tier, []);
      return;
    }
    this.setActive("");
    for (const t of SCRATCHPAD_TIERS) this.store(t, []);
  }

  private store(tier: ScratchpadTier, items: string[]): void {
    this.settings.set(KEY_PREFIX + tier, toJson(items));
    this.tiers[tier] = items;
  }
}

function checkBytes(text: string, max: number, what: string): void {
  if (utf8Length(text) > max) throw new HaloError("invalid-arguments", `${what} is longer than ${max} bytes.`);
}

function checkItem(text: string): void {
  if (text.trim() === "") throw new HaloError("invalid-arguments", "a scratchpad item needs some text.");
  checkBytes(text, SCRATCHPAD_ITEM_MAX_BYTES, "a scratchpad item");
}

function parseItems(text: string): string[] | undefined {
  try {
    const items = JSON.parse(text);
    if (!Array.isArray(items) || items.length > SCRATCHPAD_TIER_MAX_ITEMS) return undefined;
    for (const item of items) if (typeof item !== "string" || utf8Length(item) > SCRATCHPAD_ITEM_MAX_BYTES) return undefined;
    return items;
  } catch {
    return undefined;
  }
}
