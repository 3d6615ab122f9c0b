import { HaloError } from "../errors";
// Turns SD-card trouble into one clean sentence. Storage methods throw when the
// card is absent, pulled mid-operation or full; a store wraps each operation
// here so a tool refuses instead of failing with an internal error.
import type { Storage } from "../ports";
import { clipForMessage } from "../util/text";

export const NO_STORAGE_SENTENCE = "this device has no SD card storage.";
export const CARD_ABSENT_SENTENCE = "the SD card is not inserted; insert it and try again.";
export const CARD_PULLED_SENTENCE = "the SD card was removed during the operation; the previous version of the file is intact.";

/** A multi-step write that failed partway, carrying what a pulled card leaves behind at that step. */
export class PartialWrite extends Error {
  constructor(
    cause: unknown,
    readonly pulledSentence: string,
  ) {
    super(cause instanceof Error ? cause.message : "");
  }
}

/** The storage, or a HaloError when there is none or the card is out. */
export function requireCard(storage: Storage | undefined): Storage {
  if (!storage) throw new HaloError("no-card", NO_STORAGE_SENTENCE);
  if (!storage.present()) throw new HaloError("no-card", CARD_ABSENT_SENTENCE);
  return storage;
}

/**
 * Runs `operation` on the card. A HaloError passes through; any other throw
 * becomes a refusal: "no-card" when the card is gone now, else "storage-error"
 * with the port's short message (ports never put secrets in their messages).
 */
export function onCard<T>(storage: Storage | undefined, operation: (card: Storage) => T): T {
  const card = requireCard(storage);
  try {
    return operation(card);
  } catch (e) {
    throw cardError(card, e);
  }
}

export function cardError(card: Storage, e: unknown): Error {
  if (e instanceof HaloError) return e;
  if (!safePresent(card)) return new HaloError("no-card", e instanceof PartialWrite ? e.pulledSentence : CARD_PULLED_SENTENCE);
  const detail = e instanceof Error && e.message ? clipForMessage(e.message, 80) : "unknown failure";
  return new HaloError("storage-error", `the SD card operation failed (${detail}).`);
}

function safePresent(card: Storage): boolean {
  try {
    return card.present();
  } catch {
    return false;
  }
}
