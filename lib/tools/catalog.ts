// The one list of the device's tools, in the order the catalog, the MCP listing and the prompt show them.
// A new tool is a `defineTool` constant in its namespace's file, added to that file's list; a new
// namespace's list is added here. lib/app/tools.ts registers them all with the services they need.
import { AUDIO_TOOLS } from "./audio";
import { BLOSSOM_TOOLS } from "./blossom";
import { DEVICE_TOOLS } from "./device";
import { DOCS_TOOLS } from "./docs";
import { DELIVERY_TOOLS } from "./files-deliver";
import { FETCH_TOOLS } from "./files-fetch";
import { FILES_TOOLS } from "./files";
import { LOOP_TOOLS } from "./loop";
import { MEMORY_TOOLS } from "./memory";
import { MEMORY_HISTORY_TOOLS } from "./memory-history";
import { NOSTR_EVENT_TOOLS } from "./nostr";
import { NOSTR_AGENT_TOOLS } from "./nostr-agent";
import { NOSTR_CONTEXT_TOOLS } from "./nostr-context";
import { NOSTR_LIST_TOOLS } from "./nostr-lists";
import { NOSTR_MEMORY_TOOLS } from "./nostr-memory";
import { NOSTR_TASK_TOOLS } from "./nostr-tasks";
import { NOSTR_MESSAGE_TOOLS } from "./nostr-messages";
import { NOSTR_PROFILE_TOOLS } from "./nostr-profile";
import { NOSTR_SKILL_FIND_TOOLS } from "./nostr-skill-find";
import { NOSTR_SKILL_TOOLS } from "./nostr-skills";
import { REPLY_TOOLS } from "./reply";
import { RESULT_TOOLS } from "./results";
import { SESSION_TOOLS } from "./session";
import { SKILL_TOOLS } from "./skill";
import { TENANT_TOOLS } from "./tenant";
import { WALLET_TOOLS } from "./wallet";
import { WEB_TOOLS } from "./web";

export const ALL_TOOLS = [
  ...DOCS_TOOLS,
  ...RESULT_TOOLS,
  ...MEMORY_TOOLS,
  ...MEMORY_HISTORY_TOOLS,
  ...REPLY_TOOLS,
  ...WEB_TOOLS,
  ...FILES_TOOLS,
  ...DELIVERY_TOOLS,
  ...FETCH_TOOLS,
  ...SKILL_TOOLS,
  ...NOSTR_EVENT_TOOLS,
  ...NOSTR_MESSAGE_TOOLS,
  ...NOSTR_AGENT_TOOLS,
  ...NOSTR_CONTEXT_TOOLS,
  ...NOSTR_MEMORY_TOOLS,
  ...NOSTR_TASK_TOOLS,
  ...NOSTR_PROFILE_TOOLS,
  ...NOSTR_LIST_TOOLS,
  ...NOSTR_SKILL_FIND_TOOLS,
  ...NOSTR_SKILL_TOOLS,
  ...WALLET_TOOLS,
  ...BLOSSOM_TOOLS,
  ...TENANT_TOOLS,
  ...DEVICE_TOOLS,
  ...AUDIO_TOOLS,
  ...SESSION_TOOLS,
  ...LOOP_TOOLS,
] as const;
