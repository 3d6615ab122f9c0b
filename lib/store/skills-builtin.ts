// The four capsules every Halo carries in its firmware. Their ids are reserved:
// no saved capsule can shadow them. Each stays under one tool-result page.

export interface BuiltinSkill {
  id: string;
  title: string;
  md: string;
}

const ARCHITECTURE = `# How Halo is built

Halo is a self-hosted assistant on one ESP32-S3 desk device. Knowing its shape helps you use it well.

## One registry, two doors
Every tool lives in one registry. The conversation turn (you) and programs on the owner's LAN (over MCP at
POST /mcp) call the same tools through the same dispatch. What your CAPABILITIES list shows is exactly what you
may call: a tool you do not see is not yours to call, and calling it anyway is refused the same way.

## Who is asking
Every call carries a principal: a namespace (one per person), a role (admin = the owner, user, guest, unknown),
a quota, and whether the call came from a turn or from MCP, attended or scheduled. Stores keep each person's
data apart. Another person's private data is invisible: a refusal for it reads exactly like "not found".

## Refusals
A tool that refuses answers one sentence that starts with a tag: admin-only, turn-only, scheduled-refused,
not-found, quota, no-card, invalid arguments, not-configured, conflict. Read the tag and change course; do not
retry the same call. A refusal never contains a secret.

## Storage
Settings, client tokens and secrets live in internal flash. Files, skills and other larger data live on the
microSD card. Every write is crash-safe (temporary file then rename, or checksummed append-only records), and
a pulled card gives a clean no-card refusal; the device keeps serving and picks the card up when it returns.

## Bounds
Everything is bounded: request bodies, result sizes (long results are cut at 4 KB; read the rest with
results.get), files per call, quotas. Work in small steps that fit those bounds.

## Rails
Secrets, provider routing, the chat allow-list, budgets and download trust are set only by the owner in the web
UI. No tool can change them; do not ask a tool to try.
`;

const DEEP_RESEARCH = `# Deep research playbook

Use this when a question needs several sources or steps.

1. **Frame it.** Restate the question in one line and list 3-6 sub-questions. Decide what a good answer looks
   like (a table, a recommendation, a summary with sources).
2. **Pick a project.** Use one lower-case project for the whole run, e.g. \`research-solar-2026\`. Every note
   and the final report go there, so files.list and files.search find them later.
3. **Gather.** For each sub-question, look in what the device already has first: files.search over saved
   documents, docs.search for the device's own documentation. Use web or download tools only when they are in
   your CAPABILITIES; files.fetch runs under the owner's download policy and may wait for their approval.
4. **Write notes as you go.** Save findings with artifact.save as \`notes-<topic>.md\` (text only, at most
   about 24 KB per call). Keep each note short: claim, evidence, source URL or file name.
5. **Check.** Look for contradictions between sources; say which you trust and why. Mark guesses as guesses.
6. **Report.** Save \`report.md\` in the project: the answer first, then the reasoning, then sources. Tell the
   person where it is (project/name) and give the short answer in the conversation.

Keep to the bounds: long tool results are cut at 4 KB (read the rest with results.get), files.read pages by byte
offset. Stop and report what you have when the budget or the person's patience runs short.
`;

const HARDWARE = `# Halo hardware

- **Board:** ESP32-S3, two cores at 240 MHz, 16 MB flash, 8 MB PSRAM, about 300 KB internal RAM.
- **Light:** a WS2812 LED ring; patterns show listening, thinking, speaking and errors.
- **Sound:** an I2S microphone and an I2S amplifier with a speaker. The owner talks to Halo by voice.
- **Storage:** a microSD card holds files and skills. It can be absent or pulled at any time: tools then refuse
  with no-card and work again once it is back, without a restart.
- **Network:** Wi-Fi only. Outbound HTTPS works one connection at a time, so long downloads and image generation
  block other network work; prefer fewer, larger steps.
- **Firmware:** TypeScript on the Moddable XS engine. Updates arrive over the air from releases; only the owner
  installs them.

What this means for you:
- Memory is small: keep tool arguments and results compact, and page through big files instead of reading them
  whole.
- The card is slower than memory: a search over many files takes noticeable time. Narrow it with a project.
- There is no screen. Results reach the owner by voice, in the chat, or as files (files.send when the
  messenger is configured).
- A simulator runs the same core on a PC; there the card is a folder and the hardware readings describe the PC.
`;

const TOOLS_GUIDE = `# Using Halo's tools well

- **Look before you guess.** docs.search and docs.read describe the device and every tool. skill.list shows
  playbooks like this one.
- **Files.** artifact.save writes text (.md .txt .csv .json) into files/<project>/<name>; saving the same name
  again replaces your earlier version. files.list, files.stat, files.read (paged by byte offset) and files.search
  (ranked by term frequency) read what you may see: your own files and files others shared. files.share makes
  one of your files readable by everyone; guests cannot share. A name someone else uses is refused with conflict:
  pick another name.
- **Turn-only tools.** files.send and image.generate work only inside a conversation turn, never over MCP.
  image.generate saves a PNG (default project images) that files.list, files.search and files.send see.
- **Downloads.** files.fetch returns a download id at once; check it with files.fetch job=<id> or files.list.
  The owner's policy decides: off, ask (they approve each link), scan (quarantined until a verdict) or full.
- **Long results** are cut at 4 KB with a results.get tag; read the rest page by page.
- **Refusals** start with a tag. not-found also covers what you may not see. quota means the person's storage is
  full. no-card means the SD card is out: say so, do not retry in a loop.
- **Skills.** skill.save (owner conversations only) stores a capsule you wrote; it stays inert until the owner
  approves it, and at most 4 wait at once. Save skills as an investment for later, never as a step of the
  current task.
`;

export const BUILTIN_SKILLS: readonly BuiltinSkill[] = [
  { id: "architecture", title: "How Halo is built", md: ARCHITECTURE },
  { id: "deep-research", title: "Deep research playbook", md: DEEP_RESEARCH },
  { id: "hardware", title: "Halo hardware", md: HARDWARE },
  { id: "tools-guide", title: "Using Halo's tools well", md: TOOLS_GUIDE },
];
