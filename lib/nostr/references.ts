// `{{...}}` references in a skill's text (the second seed: "the agent builds the context window from
// triggered skills and their {{...}} references"). When a skill fires, each reference in its text is
// replaced once: `{{message}}` by what fired it, any other name by the text of the context tool it names
// (resolved by the caller, under the turn's own principal, so every rail of the registry applies). What does
// not resolve becomes a visible "[unavailable]" marker; no value is ever scanned again, so a message or a
// fetched note that holds `{{...}}` stays text.
import type { Principal } from "../registry/principal";
import type { AdoptedSkill } from "./skills";

/** Distinct references one skill may use; later ones are unavailable. */
export const NOSTR_SKILL_REFERENCES_MAX = 8;
/** Longest text one reference brings in (characters); a longer one is cut with a note. */
export const NOSTR_SKILL_REFERENCE_MAX_CHARS = 2000;
/** The name that stands for what fired the skill (the DM, the event, the webhook body). */
export const MESSAGE_REFERENCE = "message";

/** Every `{{...}}` in a text, whatever is between the braces (at most 80 characters); made per use (a g regex has state). */
function referencePattern(): RegExp {
  return /\{\{([^{}\n]{0,80})\}\}/g;
}
/** A name a reference may have; anything else is refused without being looked up. */
const NAME = /^[A-Za-z][A-Za-z0-9_.]{0,63}$/;

/** What a reference resolves to under `principal`: its text, or why not (one short tag) when it cannot. */
export type ReferenceResolver = (name: string, principal: Principal) => Promise<{ text: string } | { unavailable: string }>;

/** The turn text of fired skills and what was not available. */
export interface SkillTurnText {
  text: string;
  /** The names that did not resolve (safe names only), each with its reason. */
  unresolved: string[];
}

/** The reference names in a text, in order, once each (what adoption reports). */
export function referencesIn(content: string): string[] {
  const out: string[] = [];
  for (const m of content.matchAll(referencePattern())) {
    const name = m[1].trim();
    if (out.indexOf(name) < 0) out.push(name);
  }
  return out;
}

/**
 * The turn text when skills apply: each skill's instructions with its references replaced, then the
 * message (or what fired them) under `label`, unless a skill placed it itself with `{{message}}`.
 */
export async function skillTurnText(
  message: string,
  skills: AdoptedSkill[],
  label: string,
  principal: Principal,
  resolve: ReferenceResolver | undefined,
): Promise<SkillTurnText> {
  if (skills.length === 0) return { text: message, unresolved: [] };
  const unresolved: string[] = [];
  let placed = false;
  const parts: string[] = [];
  for (const s of skills) {
    const values = new Map<string, string>();
    const names = referencesIn(s.content);
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (name === MESSAGE_REFERENCE) {
        values.set(name, message);
        placed = true;
        continue;
      }
      const why = !NAME.test(name)
        ? "not a reference name"
        : i >= NOSTR_SKILL_REFERENCES_MAX
          ? `more than ${NOSTR_SKILL_REFERENCES_MAX} references`
          : undefined;
      const got = why ? { unavailable: why } : await lookUp(resolve, name, principal);
      if ("text" in got) values.set(name, clip(got.text));
      else {
        const shown = NAME.test(name) ? name : "?";
        values.set(name, `[unavailable: {{${shown}}} (${got.unavailable})]`);
        unresolved.push(`${shown} (${got.unavailable})`);
      }
    }
    // One pass over the skill's own text: a value put in is never read for references again.
    const body = s.content.replace(referencePattern(), (_all, raw: string) => values.get(raw.trim()) ?? "");
    parts.push(`[skill "${s.d}" by ${s.author.slice(0, 16)}..., approved by the owner]\n${body}`);
  }
  const text = placed ? parts.join("\n\n") : `${parts.join("\n\n")}\n\n[${label}]\n${message}`;
  return { text, unresolved };
}

async function lookUp(
  resolve: ReferenceResolver | undefined,
  name: string,
  principal: Principal,
): Promise<{ text: string } | { unavailable: string }> {
  if (!resolve) return { unavailable: "no references on this host" };
  try {
    return await resolve(name, principal);
  } catch {
    return { unavailable: "failed" };
  }
}

function clip(text: string): string {
  return text.length > NOSTR_SKILL_REFERENCE_MAX_CHARS ? `${text.slice(0, NOSTR_SKILL_REFERENCE_MAX_CHARS)}\n[cut]` : text;
}
