// The owner's Telegram commands: decisions that wait for the owner (a skill, a routine, a download), the
// update engine (check, install), a short status and mute, from the owner's own chat (the ownerChatId
// knob) without a turn, so no provider is called and no model can issue them. Parsing and wording live
// here; the actions are given by the composition root (lib/app/owner-commands.ts), which reaches the
// stores these decisions belong to. Any other chat gets one fixed sentence (TelegramInbound).
import { HaloError } from "../errors";
import { clipForMessage } from "../util/text";

/** What a command does; ids are checked by the stores they name. */
export type OwnerCommand =
  | { kind: "help" }
  | { kind: "pending"; what: "skill" | "loop" | "fetch" }
  | { kind: "decide"; what: "skill" | "loop" | "fetch"; verb: "approve" | "reject"; id: string }
  | { kind: "update"; install: boolean }
  | { kind: "status" }
  | { kind: "mute"; on: boolean }
  | { kind: "unknown"; word: string };

/** Longest id a command passes on (the stores' ids are shorter; a longer one names nothing). */
const COMMAND_ID_MAX_CHARS = 64;

export const OWNER_COMMANDS_HELP = [
  "Owner commands:",
  "/skill, /skill approve <id>, /skill reject <id>: skill capsules waiting for you",
  "/loop, /loop approve <id>, /loop reject <id>: routines waiting for you",
  "/fetch, /fetch approve <id>, /fetch reject <id>: download links waiting for you",
  "/update: check for an update; /update install: install the one found and restart",
  "/status: the device in a few lines",
  "/mute, /unmute: silence the device (profile silent) or bring sound back (profile normal)",
].join("\n");

/** The reply to an owner command from another chat: it says nothing about the device. */
export const NOT_OWNER_REPLY = "Commands are for this device's owner.";

const NOUNS: { readonly [word: string]: "skill" | "loop" | "fetch" } = {
  skill: "skill",
  skills: "skill",
  loop: "loop",
  loops: "loop",
  routine: "loop",
  fetch: "fetch",
  download: "fetch",
};

/**
 * The command a message holds, or undefined when it is not one (no leading "/"). A group's
 * `/cmd@botname` form is read as `/cmd`.
 */
export function parseOwnerCommand(text: string): OwnerCommand | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("/")) return undefined;
  const words = trimmed.slice(1).split(/\s+/).slice(0, 4);
  const word = words[0].replace(/@.*$/, "").toLowerCase();
  const verb = (words[1] ?? "").toLowerCase();
  const noun = NOUNS[word];
  if (noun) {
    if (verb === "" || verb === "pending" || verb === "list") return { kind: "pending", what: noun };
    if ((verb === "approve" || verb === "reject") && words[2]) return { kind: "decide", what: noun, verb, id: words[2] };
    return { kind: "unknown", word };
  }
  if (word === "update" || word === "ota") {
    if (verb === "" || verb === "check") return { kind: "update", install: false };
    if (verb === "install") return { kind: "update", install: true };
    return { kind: "unknown", word };
  }
  if (word === "status") return { kind: "status" };
  if (word === "mute") return { kind: "mute", on: true };
  if (word === "unmute") return { kind: "mute", on: false };
  if (word === "help" || word === "start") return { kind: "help" };
  return { kind: "unknown", word };
}

/** The stores the commands reach (lib/app/owner-commands.ts binds them to the core). */
export interface OwnerActions {
  pending(what: "skill" | "loop" | "fetch"): string[];
  /** Throws the store's HaloError when nothing waits under that id. */
  decide(what: "skill" | "loop" | "fetch", verb: "approve" | "reject", id: string): string;
  /** Undefined: this device has no update engine. */
  checkUpdate?(): Promise<string>;
  /** The text, and what runs once it was sent (the restart into the new version). */
  installUpdate?(): Promise<{ text: string; after?: () => void }>;
  status(): string;
  mute(on: boolean): string;
}

/** What a command answers; `after` runs once the answer was sent. */
export interface CommandAnswer {
  text: string;
  after?: () => void;
}

const LABEL = { skill: "skill capsules", loop: "routines", fetch: "download links" } as const;

/** Runs a parsed command; a store's refusal is answered as its tagged text, never thrown. */
export async function runOwnerCommand(cmd: OwnerCommand, actions: OwnerActions): Promise<CommandAnswer> {
  try {
    switch (cmd.kind) {
      case "help":
        return { text: OWNER_COMMANDS_HELP };
      case "unknown":
        return { text: `Unknown command /${clipForMessage(cmd.word, 24)}.\n\n${OWNER_COMMANDS_HELP}` };
      case "pending": {
        const items = actions.pending(cmd.what);
        if (items.length === 0) return { text: `No ${LABEL[cmd.what]} wait for you.` };
        return { text: [`${LABEL[cmd.what]} waiting for you:`, ...items.map((i) => `- ${i}`)].join("\n") };
      }
      case "decide":
        if (cmd.id.length > COMMAND_ID_MAX_CHARS) throw new HaloError("not-found", "nothing waits under that id.");
        return { text: actions.decide(cmd.what, cmd.verb, cmd.id) };
      case "update":
        if (!actions.checkUpdate || !actions.installUpdate) throw new HaloError("not-present", "this device has no update engine.");
        return cmd.install ? await actions.installUpdate() : { text: await actions.checkUpdate() };
      case "status":
        return { text: actions.status() };
      case "mute":
        return { text: actions.mute(cmd.on) };
    }
  } catch (e) {
    if (e instanceof HaloError) return { text: e.message };
    return { text: "failed: the command did not run." };
  }
}
