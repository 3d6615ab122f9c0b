// The index terms of a lower-cased text, read from its UTF-8 bytes: the
// TypeScript twin of modules/vector/lexicon.c's tokenizer, and the same terms as
// lexical.ts terms() reads from the string (a word is a run of word characters,
// every one of them in the Basic Multilingual Plane, so UTF-16 units and code
// points count alike). Each term is hashed (FNV-1a over its bytes) and counted.
import { TERM_MAX_BYTES, TF_MAX } from "./lexicon-layout";

/** Words too common to tell facts apart (English; the idf would shrink them anyway). ASCII, at most 5 letters. */
export const STOPWORDS = new Set(
  (
    "a an and are as at be been but by did do does for from had has have he her his i in is it its me my of on or our " +
    "she so that the their them there they this to was we were what when where which who why will with you your"
  ).split(" "),
);

/** Whether a lower-cased code point is part of a word: [a-z0-9], Latin, Greek, Cyrillic, kana, CJK, Hangul. */
export function wordChar(c: number): boolean {
  if (c < 0xc0) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
  return (
    c <= 0x24f || (c >= 0x370 && c <= 0x4ff) || (c >= 0x3040 && c <= 0x30ff) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af)
  );
}

/** A text's distinct terms, first seen first: where each starts in the text, its bytes, hash and count. */
export interface TermList {
  count: number;
  /** Occurrences of the listed terms (an entry's length). */
  total: number;
  start: Int32Array;
  bytes: Int32Array;
  hash: Uint32Array;
  tf: Int32Array;
}

/** FNV-1a of `length` bytes of `text` from `start`. */
export function termHash(text: Uint8Array, start: number, length: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < start + length; i++) h = Math.imul(h ^ text[i], 0x01000193);
  return h >>> 0;
}

function sameBytes(a: Uint8Array, aStart: number, b: Uint8Array, bStart: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[aStart + i] !== b[bStart + i]) return false;
  return true;
}

/** Whether `length` bytes of `text` from `start` are a stopword. */
function stopword(text: Uint8Array, start: number, length: number): boolean {
  if (length > 5) return false;
  let word = "";
  for (let i = start; i < start + length; i++) {
    if (text[i] >= 0x80) return false;
    word += String.fromCharCode(text[i]);
  }
  return STOPWORDS.has(word);
}

/** A word of `units` code points, the last two `last` and `prev`: counted as a term unless it is dropped. */
function note(text: Uint8Array, start: number, end: number, units: number, last: number, prev: number, list: TermList): void {
  let length = end - start;
  if (units < 2 && !(last >= 48 && last <= 57)) return;
  if (stopword(text, start, length)) return;
  // A plural "s" is cut, not of -ss, -us, -is.
  if (units > 3 && last === 115 && prev !== 115 && prev !== 117 && prev !== 105) length--;
  if (length > TERM_MAX_BYTES) length = TERM_MAX_BYTES;
  const hash = termHash(text, start, length);
  for (let k = 0; k < list.count; k++) {
    if (list.hash[k] !== hash || list.bytes[k] !== length || !sameBytes(text, list.start[k], text, start, length)) continue;
    if (list.tf[k] < TF_MAX) list.tf[k]++;
    list.total++;
    return;
  }
  if (list.count === list.start.length) return;
  const k = list.count++;
  list.start[k] = start;
  list.bytes[k] = length;
  list.hash[k] = hash;
  list.tf[k] = 1;
  list.total++;
}

/**
 * The distinct terms of `text` (lower-cased UTF-8), at most `max` of them, first seen first; later
 * occurrences of a listed term count, a term past the `max`th is skipped (lexical.ts countTerms).
 * A malformed byte is a separator.
 */
export function tokenize(text: Uint8Array, max: number): TermList {
  const list: TermList = {
    count: 0,
    total: 0,
    start: new Int32Array(max),
    bytes: new Int32Array(max),
    hash: new Uint32Array(max),
    tf: new Int32Array(max),
  };
  const n = text.length;
  let start = -1;
  let units = 0;
  let last = 0;
  let prev = 0;
  let i = 0;
  while (i < n) {
    const b = text[i];
    let c = 0xfffd;
    let size = 1;
    if (b < 0x80) c = b;
    else if (b >= 0xc2 && b < 0xe0 && i + 1 < n && (text[i + 1] & 0xc0) === 0x80) {
      c = ((b & 0x1f) << 6) | (text[i + 1] & 0x3f);
      size = 2;
    } else if (b >= 0xe0 && b < 0xf0 && i + 2 < n && (text[i + 1] & 0xc0) === 0x80 && (text[i + 2] & 0xc0) === 0x80) {
      c = ((b & 0x0f) << 12) | ((text[i + 1] & 0x3f) << 6) | (text[i + 2] & 0x3f);
      size = 3;
    } else if (
      b >= 0xf0 &&
      b < 0xf8 &&
      i + 3 < n &&
      (text[i + 1] & 0xc0) === 0x80 &&
      (text[i + 2] & 0xc0) === 0x80 &&
      (text[i + 3] & 0xc0) === 0x80
    ) {
      size = 4; // outside the Basic Multilingual Plane: never a word character
    }
    if (wordChar(c)) {
      if (start < 0) {
        start = i;
        units = 0;
        last = 0;
      }
      prev = last;
      last = c;
      units++;
    } else if (start >= 0) {
      note(text, start, i, units, last, prev, list);
      start = -1;
    }
    i += size;
  }
  if (start >= 0) note(text, start, n, units, last, prev, list);
  return list;
}
