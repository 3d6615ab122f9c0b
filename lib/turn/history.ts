// What a turn leaves in the episodic history, in the caller's namespace and
// one session per conversation channel: the person's message, each tool
// call's output (with the results-ring tag when the model saw it cut), and the
// model's reply, or one line saying why there is none. Writes go through the
// EpisodicJournal, so a pulled card costs the history, never the turn.
import type { EpisodicJournal } from "../memory/episodic/journal";
import type { Principal } from "../registry/principal";
import { truncateUtf8 } from "../util/utf8";
import { TOOL_OUTPUT_HISTORY_MAX_BYTES } from "./bounds";
import type { ToolCallReport } from "./loop";

/** The session of a turn without a channel. */
export const DEFAULT_TURN_SESSION = "turn";

export interface TurnHistory {
  message(text: string): void;
  toolOutput(report: ToolCallReport, text: string): void;
  reply(reply: string, ask: string): void;
  failure(kind: string, message: string): void;
}

/** The history writer of one turn of `who` in `session`; does nothing when no episodic store is bound. */
export function turnHistory(journal: EpisodicJournal, who: Principal, session: string): TurnHistory {
  const write = (kind: "message" | "tool_output" | "llm_response" | "log", role: string, text: string): void => {
    if (journal.enabled) journal.write({ ns: who.ns, session, role, kind, text });
  };
  return {
    message: (text) => write("message", "user", text),
    toolOutput(report, text) {
      // The tag names where the whole output is while the ring still holds it (results.get); it is searchable text here.
      const where = report.tag ? ` [results ring tag ${report.tag}]` : "";
      const status = report.ok ? "" : " (failed)";
      write("tool_output", "tool", `${report.name}${status}${where}: ${truncateUtf8(text, TOOL_OUTPUT_HISTORY_MAX_BYTES)}`);
    },
    reply: (reply, ask) => write("llm_response", "assistant", ask ? `${reply}\n[ask] ${ask}` : reply),
    failure: (kind, message) => write("log", "system", `turn failed (${kind}): ${message}`),
  };
}
