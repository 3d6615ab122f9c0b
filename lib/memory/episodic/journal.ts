// Best-effort writes to the episodic log for the parts of the device that
// record what happened (the turn, boot). The history is a record, not the
// work itself: a failed append (card pulled, part full) never fails the caller.
// It logs one short line when appends start failing and one when they work
// again, so a missing card does not flood the log with a line per row.
import type { Log } from "../../ports";
import { clipForMessage } from "../../util/text";
import type { EpisodicRecord } from "./format";

/** What the journal needs of the episodic store (EpisodicStore implements it). */
export interface EpisodicAppender {
  append(input: Omit<EpisodicRecord, "ts">): unknown;
}

/** Longest part of an append error the log line repeats. */
const ERROR_MAX_CHARS = 80;

export class EpisodicJournal {
  private failing = false;

  constructor(
    private readonly store: EpisodicAppender | undefined,
    private readonly log: Log,
  ) {}

  /** Whether an episodic store is bound at all. */
  get enabled(): boolean {
    return this.store !== undefined;
  }

  /** Appends one row; returns false (never throws) when it could not be written or no store is bound. */
  write(row: Omit<EpisodicRecord, "ts">): boolean {
    if (!this.store) return false;
    try {
      this.store.append(row);
    } catch (e) {
      if (!this.failing) {
        this.failing = true;
        this.log.warn(
          `episodic: a row was not recorded (${clipForMessage(e instanceof Error ? e.message : "error", ERROR_MAX_CHARS)}); later failures are not logged until one succeeds`,
        );
      }
      return false;
    }
    if (this.failing) {
      this.failing = false;
      this.log.info("episodic: recording again");
    }
    return true;
  }
}
