import { HaloError } from "../errors";
import { defineTool } from "../registry/define";
import { assertMayCall } from "../registry/policy";
import type { ToolResult } from "../registry/types";
import {
  MEMORY_CONTENT_MAX_BYTES,
  MEMORY_QUERY_MAX_CHARS,
  MEMORY_SOURCE_MAX_CHARS,
  SCRATCHPAD_ACTIVE_MAX_BYTES,
  SCRATCHPAD_ITEM_MAX_BYTES,
  SCRATCHPAD_TIER_MAX_ITEMS,
  SEARCH_MAX_RESULTS,
} from "../memory/bounds";
import { MEM_CONFIG_KNOBS, type KnobName } from "../memory/config";
import { reembed, updateConfig, viewConfig } from "../memory/config-ops";
import type { MemoryEngine } from "../memory/engine";
import { SCRATCHPAD_TIERS } from "../memory/scratchpad";
import { searchMemory } from "../memory/recall/search";
import { TTL_CLASSES } from "../memory/forgetting/ttl";
import { ID_PATTERN, pinMemory, updateMemory, writeMemory } from "../memory/writes";
import {
  describeConfig,
  describeConfigUpdate,
  describePin,
  describeReembed,
  describeSearch,
  describeUpdate,
  describeWrite,
} from "./memory-text";

/** What the memory tools work on: the memory engine. */
export interface MemoryToolDeps {
  memory: MemoryEngine;
}

export const CONTENT = { type: "string", minLength: 1, maxLength: MEMORY_CONTENT_MAX_BYTES } as const;
export const MEMORY_ID = {
  type: "string",
  pattern: ID_PATTERN,
  minLength: 8,
  maxLength: 8,
  description: "an 8-hex-digit memory id",
} as const;
export const TTL = { type: "string", enum: [...TTL_CLASSES] } as const;
const IMPORTANCE = { type: "number", minimum: 0, maximum: 1 } as const;

const CONFIG_ACTION = {
  type: "string",
  enum: ["view", "update", "reembed"],
  description: "update and reembed are admin-only",
} as const;

interface KnobSchema {
  type: "integer" | "number";
  minimum: number;
  maximum: number;
  description: string;
}

export const memoryWrite = defineTool({
  name: "memory.write",
  needs: ["memory"],
  effect: "write",
  description: "Store a fact in long-term associative memory so you can recall it later.",
  inputSchema: {
    type: "object",
    properties: {
      content: CONTENT,
      importance: { ...IMPORTANCE, description: "0-1, default 0.5" },
      permanent: { type: "boolean", description: "never expires (quota permitting), default false" },
      ttl: { ...TTL, description: "how long it lives unless recalled, default months" },
      source: {
        type: "string",
        minLength: 1,
        maxLength: MEMORY_SOURCE_MAX_CHARS,
        pattern: "^[A-Za-z0-9._:-]+$",
        description: "default self",
      },
    },
    required: ["content"],
    additionalProperties: false,
  },
  handler: async (args, ctx, { memory }: MemoryToolDeps): Promise<ToolResult> => {
    return { text: describeWrite(await writeMemory(memory, ctx.principal, args)) };
  },
});

export const memorySearch = defineTool({
  name: "memory.search",
  needs: ["memory"],
  effect: "read",
  description: "Search your long-term memory for facts relevant to a query.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", minLength: 1, maxLength: MEMORY_QUERY_MAX_CHARS },
      n_results: { type: "integer", minimum: 1, maximum: SEARCH_MAX_RESULTS, description: "default: the retrieval_count knob" },
    },
    required: ["query"],
    additionalProperties: false,
  },
  handler: async (args, ctx, { memory }: MemoryToolDeps): Promise<ToolResult> => {
    const answer = await searchMemory(memory, ctx.principal, args.query, args.n_results);
    return { text: describeSearch(answer) };
  },
});

export const memoryUpdate = defineTool({
  name: "memory.update",
  needs: ["memory"],
  effect: "destroy",
  description: "Replace a fact that changed: store new content and remove the closest stale match.",
  inputSchema: {
    type: "object",
    properties: {
      content: CONTENT,
      old: { ...CONTENT, description: "the stale fact (exact text, or close enough)" },
      id: MEMORY_ID,
      importance: IMPORTANCE,
      permanent: { type: "boolean" },
      ttl: TTL,
    },
    required: ["content"],
    additionalProperties: false,
  },
  handler: async (args, ctx, { memory }: MemoryToolDeps): Promise<ToolResult> => {
    return { text: describeUpdate(await updateMemory(memory, ctx.principal, args)) };
  },
});

export const memoryPin = defineTool({
  name: "memory.pin",
  needs: ["memory"],
  effect: "destroy",
  description: "Pin a memory (never forgotten), unpin it, or delete it.",
  inputSchema: {
    type: "object",
    properties: { action: { type: "string", enum: ["pin", "unpin", "delete"] }, content: CONTENT, id: MEMORY_ID },
    required: ["action"],
    additionalProperties: false,
  },
  handler: (args, ctx, { memory }: MemoryToolDeps): ToolResult => {
    return { text: describePin(pinMemory(memory, ctx.principal, args.action, { id: args.id, content: args.content })) };
  },
});

export const memoryConfig = defineTool({
  name: "memory.config",
  needs: ["memory"],
  effect: "write",
  description: "View or tune how memory is retrieved.",
  inputSchema: {
    type: "object",
    properties: { action: CONFIG_ACTION, ...knobSchemas() },
    required: ["action"],
    additionalProperties: false,
  },
  handler: async (args, ctx, { memory }: MemoryToolDeps): Promise<ToolResult> => {
    if (args.action === "view") return { text: describeConfig(viewConfig(memory)) };
    assertMayCall({ name: `memory.config ${args.action}`, adminOnly: true }, ctx.principal);
    if (args.action === "reembed") return { text: describeReembed(await reembed(memory)) };
    const patch: { [name: string]: unknown } = {};
    for (const k of MEM_CONFIG_KNOBS) if (args[k.name] !== undefined) patch[k.name] = args[k.name];
    return { text: describeConfigUpdate(updateConfig(memory, patch)) };
  },
});

export const memoryScratchpad = defineTool({
  name: "memory.scratchpad",
  needs: ["memory"],
  effect: "destroy",
  description: "Read or edit your working scratchpad (active task + short/mid/long-term goal tiers).",
  adminOnly: true,
  inputSchema: {
    type: "object",
    properties: {
      action: { type: "string", enum: ["view", "set_active", "add", "replace", "clear"] },
      tier: { type: "string", enum: [...SCRATCHPAD_TIERS] },
      text: { type: "string", maxLength: Math.max(SCRATCHPAD_ACTIVE_MAX_BYTES, SCRATCHPAD_ITEM_MAX_BYTES) },
      items: {
        type: "array",
        maxItems: SCRATCHPAD_TIER_MAX_ITEMS,
        items: { type: "string", minLength: 1, maxLength: SCRATCHPAD_ITEM_MAX_BYTES },
      },
    },
    required: ["action"],
    additionalProperties: false,
  },
  handler: (args, _ctx, { memory }: MemoryToolDeps): ToolResult => {
    const pad = memory.scratchpad;
    const tier = args.tier;
    const text = args.text;
    switch (args.action) {
      case "set_active":
        if (text === undefined) throw new HaloError("invalid-arguments", "set_active needs 'text'.");
        pad.setActive(text);
        break;
      case "add":
        if (!tier || text === undefined) throw new HaloError("invalid-arguments", "add needs 'tier' and 'text'.");
        pad.add(tier, text);
        break;
      case "replace":
        if (!tier || !args.items) throw new HaloError("invalid-arguments", "replace needs 'tier' and 'items'.");
        pad.replace(tier, args.items);
        break;
      case "clear":
        pad.clear(tier);
        break;
    }
    return { text: pad.render() };
  },
});

/** memory.write, .search, .update, .pin, .config and .scratchpad over the memory memory. */
export const MEMORY_TOOLS = [memoryWrite, memorySearch, memoryUpdate, memoryPin, memoryConfig, memoryScratchpad] as const;

/** One numeric schema per tunable knob, in MEM_CONFIG_KNOBS order (after `action`). */
function knobSchemas(): { [K in KnobName]?: KnobSchema } {
  const knobs: { [K in KnobName]?: KnobSchema } = {};
  for (const k of MEM_CONFIG_KNOBS)
    knobs[k.name] = { type: k.integer ? "integer" : "number", minimum: k.min, maximum: k.max, description: k.help };
  return knobs;
}
