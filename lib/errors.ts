// Failures that a caller reads. Domain code throws a HaloError with a tag from
// the closed set below and one short sentence; the tool layer and the HTTP
// routes decide how to show it (a tool result, an HTTP status), so nothing
// parses a tag back out of text.

/** Every tag a failure may carry. A refusal names its tag and never echoes a blocked value. */
export type ErrorTag =
  | "invalid-arguments"
  | "invalid"
  | "not-found"
  | "not-configured"
  | "not-approved"
  | "not-allowed"
  | "not-present"
  | "admin-only"
  | "turn-only"
  | "scheduled-refused"
  | "guest-refused"
  | "protected-BLOCKED"
  | "read-only"
  | "owner-created"
  | "reserved"
  | "conflict"
  | "quarantined"
  | "limit"
  | "quota"
  | "full"
  | "too-large"
  | "busy"
  | "timeout"
  | "failed"
  | "terminated"
  | "unavailable"
  | "provider-error"
  | "no-card"
  | "card-full"
  | "storage-error"
  | "policy-off"
  | "refused"
  | "binary"
  | "last-admin"
  | "not-mid-turn"
  | "rate-limited"
  | "send-failed"
  | "not-spoken"
  | "silent"
  | "off";

/** How a tag is written before its sentence; most are written as they are. */
const TAG_PREFIX: { readonly [tag: string]: string } = { "invalid-arguments": "invalid arguments" };

/** The text a caller reads: "<tag>: <sentence>". */
export function taggedText(tag: ErrorTag, sentence: string): string {
  return `${TAG_PREFIX[tag] ?? tag}: ${sentence}`;
}

/**
 * Names an error instance. On the device the preloaded Error.prototype is
 * frozen, so assigning a name to an instance throws there ("not writable"); defining an own
 * property works on every engine.
 */
export function nameError(error: Error, name: string): void {
  Object.defineProperty(error, "name", { value: name, writable: true, configurable: true, enumerable: false });
}

/** A failure with a tag and one short sentence; `message` is the tagged text. */
export class HaloError extends Error {
  readonly tag: ErrorTag;
  readonly sentence: string;
  /** `text` overrides the tagged text where a checker already wrote the whole sentence (e.g. "invalid name: ..."). */
  constructor(tag: ErrorTag, sentence: string, text: string = taggedText(tag, sentence)) {
    super(text);
    nameError(this, "HaloError");
    this.tag = tag;
    this.sentence = sentence;
  }
}

/** The tag of a thrown value, or undefined when it is not a HaloError. */
export function errorTag(e: unknown): ErrorTag | undefined {
  return e instanceof HaloError ? e.tag : undefined;
}
