// Failures that a caller reads. Domain code throws a HaloError with a tag from
// the closed set below and one short sentence; the tool layer shows it as a
// tool result, the HTTP pipeline as the status statusOf(tag) gives, so nothing
// parses a tag back out of text.

/**
 * Every tag a failure may carry, with the HTTP status a route answers it
 * with: one table, so the tags and their statuses cannot drift apart.
 * A refusal names its tag and never echoes a blocked value.
 */
const TAG_STATUS = {
  // The request itself is wrong.
  "invalid-arguments": 400,
  invalid: 400,
  binary: 400,
  // The caller may not do this (its role, the path it came by, a policy).
  "admin-only": 403,
  "not-allowed": 403,
  "not-approved": 403,
  "turn-only": 403,
  "scheduled-refused": 403,
  "guest-refused": 403,
  "protected-BLOCKED": 403,
  "read-only": 403,
  refused: 403,
  "not-found": 404,
  // The device's state refuses it now: something to cancel, free, insert, set or wait for first. A count
  // ceiling (limit, quota, full) is 409, not 429: waiting does not lift it, removing something does.
  conflict: 409,
  quarantined: 409,
  "owner-created": 409,
  reserved: 409,
  "last-admin": 409,
  busy: 409,
  limit: 409,
  quota: 409,
  full: 409,
  "policy-off": 409,
  // The device is set not to: on silent, or spoken replies off.
  silent: 409,
  off: 409,
  "not-configured": 409,
  "not-present": 409,
  "no-card": 409,
  "not-mid-turn": 409,
  terminated: 409,
  "too-large": 413,
  // A window of time: trying later helps.
  "rate-limited": 429,
  failed: 500,
  "storage-error": 500,
  // A message or speech the device tried to deliver and could not.
  "send-failed": 502,
  "not-spoken": 502,
  "provider-error": 502,
  unavailable: 503,
  timeout: 504,
  "card-full": 507,
} as const;

/** Every tag a failure may carry (the keys of the status table). */
export type ErrorTag = keyof typeof TAG_STATUS;

/** Every HTTP status a tag maps to. */
export type TagStatus = (typeof TAG_STATUS)[ErrorTag];

/** Every tag, in the table's order (tests enumerate them). */
export function errorTags(): ErrorTag[] {
  return Object.keys(TAG_STATUS) as ErrorTag[];
}

/** The HTTP status of a failure with this tag: the only place a tag becomes a status. */
export function statusOf(tag: ErrorTag): TagStatus {
  return TAG_STATUS[tag];
}

/** How a tag is written before its sentence; most are written as they are. */
const TAG_PREFIX: { readonly [tag: string]: string } = { "invalid-arguments": "invalid arguments" };

/** The text a caller reads: "<tag>: <sentence>". */
export function taggedText(tag: ErrorTag, sentence: string): string {
  return `${TAG_PREFIX[tag] ?? tag}: ${sentence}`;
}

/**
 * The tag a text already starts with ("<tag>: ..."), or undefined. A text that carries its tag is passed
 * on as it is, never prefixed again (which reads "not-allowed: not-allowed: ...").
 */
export function leadingTag(text: string): ErrorTag | undefined {
  const colon = text.indexOf(": ");
  if (colon <= 0) return undefined;
  const head = text.slice(0, colon);
  for (const tag of errorTags()) if ((TAG_PREFIX[tag] ?? tag) === head) return tag;
  return undefined;
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
