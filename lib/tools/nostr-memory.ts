// memory.nostr_save and memory.nostr_recall (the second seed's memory_save / memory_recall): the device's
// memory note on its relays, kind 30078 d=memory, NIP-44-encrypted to its own key (lib/nostr/memory-note.ts),
// beside the local memory (memory.*). The owner's only: the note is the device's private memory.
import { NOSTR_MEMORY_ENTRY_MAX_CHARS, NOSTR_MEMORY_MAX_CHARS, entriesOf } from "../nostr/memory-note";
import type { NostrSubsystem } from "../nostr/subsystem";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { published } from "./nostr";

/** What the memory-note tools use: the device's key and relays. */
export interface NostrMemoryToolDeps {
  nostr: NostrSubsystem;
}

export const memoryNostrSave = defineTool({
  name: "memory.nostr_save",
  needs: ["nostr"],
  description: `Prepend an entry to the device's encrypted memory note on Nostr (kind 30078, d=memory); the oldest entries go past ${NOSTR_MEMORY_MAX_CHARS} characters.`,
  adminOnly: true,
  effect: "write",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { content: { type: "string", minLength: 1, maxLength: NOSTR_MEMORY_ENTRY_MAX_CHARS } },
    required: ["content"],
    additionalProperties: false,
  },
  handler: async (args, _ctx, { nostr }: NostrMemoryToolDeps): Promise<ToolResult> => {
    const r = await nostr.memory.save(args.content);
    const summary = `Saved to the memory note (${r.entries} entries${r.dropped ? `; the oldest ${r.dropped} dropped to fit` : ""}).`;
    return published(r.event, r.outcomes, summary);
  },
});

export const memoryNostrRecall = defineTool({
  name: "memory.nostr_recall",
  needs: ["nostr"],
  description: "Read the device's encrypted memory note on Nostr (kind 30078, d=memory), newest entry first.",
  adminOnly: true,
  effect: "read",
  openWorld: true,
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: async (_args, _ctx, { nostr }: NostrMemoryToolDeps): Promise<ToolResult> => {
    const note = await nostr.memory.recall();
    if (!note.text) return { text: "The memory note on Nostr is empty." };
    return { text: `Memory note (${entriesOf(note.text).length} entries, newest first):\n${note.text}` };
  },
});

/** The tools of this file. */
export const NOSTR_MEMORY_TOOLS = [memoryNostrSave, memoryNostrRecall] as const;
