// The owner's Telegram commands bound to the core: the same store calls the owner API makes
// (lib/http/owner-routes.ts, owner-routines.ts, owner-downloads.ts, owner-ota.ts), so a decision
// taken in the chat is the one taken on the web.
import type { OwnerActions } from "../chat/owner-commands";
import { HaloError } from "../errors";
import { clipForMessage } from "../util/text";
import type { Core } from "./core";

/** Items listed per kind in a reply (the stores bound them lower still). */
const PENDING_LISTED_MAX = 16;

export function ownerActionsFor(
  core: Pick<Core, "skills" | "routines" | "downloads" | "updates" | "config" | "alerts" | "ports">,
): OwnerActions {
  const { skills, routines, downloads, updates, config } = core;
  const actions: OwnerActions = {
    pending(what) {
      const items =
        what === "skill"
          ? skills.listPending().map((s) => `${s.id}: ${s.title}`)
          : what === "loop"
            ? routines.listPending().map((r) => `${r.id}: ${r.name}`)
            : downloads
                .all()
                .filter((j) => j.state === "awaiting-approval")
                .map((j) => `${j.id}: ${j.project}/${j.name} from ${clipForMessage(j.url, 80)}`);
      return items.slice(0, PENDING_LISTED_MAX);
    },
    decide(what, verb, id) {
      const done = verb === "approve" ? "approved" : "rejected";
      if (what === "skill") {
        if (!skills.listPending().some((s) => s.id === id))
          throw new HaloError("not-found", "no skill capsule awaits approval under that id.");
        skills[verb](id);
        core.ports.log.info(`telegram: owner ${done} skill ${id}`);
        return `Skill ${id} ${done}.`;
      }
      if (what === "loop") {
        const r = routines[verb](id);
        core.ports.log.info(`telegram: owner ${done} routine ${r.id}`);
        return `Routine ${r.id} "${clipForMessage(r.name, 60)}" ${done}.`;
      }
      if (!/^f[0-9a-f]{8}$/.test(id)) throw new HaloError("not-found", "no link awaits approval under that id.");
      const job = verb === "approve" ? downloads.approveFetch(id) : downloads.rejectFetch(id);
      core.ports.log.info(`telegram: owner ${done} download ${job.id}`);
      return `Download ${job.id} (${job.project}/${job.name}) ${done}.`;
    },
    status: () => statusText(core),
    mute(on) {
      const problem = config.apply([["profile", on ? "silent" : "normal"]], "owner");
      if (problem) throw new HaloError("invalid", problem);
      return on ? "Muted: the device is silent (profile silent). /unmute brings sound back." : "Sound is back (profile normal).";
    },
  };
  if (updates) {
    actions.checkUpdate = async () => {
      const s = await updates.check();
      if (s.state === "available" && s.latest)
        return `Version ${s.latest.version} is available (running ${s.runningVersion}). /update install installs it.`;
      return `Update check: ${s.state}${s.detail ? ` (${s.detail})` : ""}.`;
    };
    actions.installUpdate = async () => {
      const latest = updates.status().latest;
      if (!latest) throw new HaloError("conflict", "no update is available to install: /update checks for one first.");
      // Installed without the restart, which runs once the reply is sent: a restart would cut the reply off.
      const s = await updates.install(latest.version, false);
      if (s.state !== "ready") return { text: `The update did not install: ${s.detail ?? s.state}.` };
      return { text: `Version ${latest.version} is written and verified; restarting into it now.`, after: () => void updates.restart() };
    };
  }
  return actions;
}

/** A few lines: the version and update state, what waits for the owner, the sound. */
function statusText(core: Pick<Core, "skills" | "routines" | "downloads" | "updates" | "config" | "alerts" | "ports">): string {
  const info = core.ports.system?.info();
  const ota = core.updates?.status();
  const waiting = [
    `${core.skills.listPending().length} skills`,
    `${core.routines.listPending().length} routines`,
    `${core.downloads.all().filter((j) => j.state === "awaiting-approval").length} links`,
  ];
  const lines = [
    `Halo ${ota?.runningVersion ?? info?.firmwareVersion ?? "(version unknown)"}${ota ? `, update: ${ota.state}${ota.latest ? ` (${ota.latest.version} seen)` : ""}` : ""}`,
    `Waiting for you: ${waiting.join(", ")}`,
    `Sound: profile ${core.config.string("profile")}, spoken replies ${core.config.bool("ttsOn") ? "on" : "off"}`,
    `Owner alerts: ${core.alerts.list().length}`,
  ];
  if (info) lines.push(`Up ${Math.round(info.uptimeMs / 60000)} min, free heap ${Math.round(info.freeHeapBytes / 1024)} KB`);
  return lines.join("\n");
}
