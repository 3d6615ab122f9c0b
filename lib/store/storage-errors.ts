// The Storage port's failures as short sentences, one table for every host
// (the device's SD module and the simulator's folder both report errno codes).
// A sentence never names a host path.

const SENTENCES: { readonly [code: string]: string } = {
  "bad path": "bad path",
  ENOENT: "no such file",
  ENOSPC: "the SD card is full",
  EISDIR: "a folder has that name",
  ENOTDIR: "a parent is a file",
  ENOTEMPTY: "the folder is not empty",
  EEXIST: "a file has that name",
  EACCES: "the SD card is read-only",
  EROFS: "the SD card is read-only",
  E2BIG: "the folder has too many entries",
  EMFILE: "too many files are open",
};

/** The sentence for an errno code (ENOENT...); an unknown code is named after a generic sentence. */
export function storageErrorSentence(code: string | undefined): string {
  if (code && Object.hasOwn(SENTENCES, code)) return SENTENCES[code];
  return `the SD card operation failed${code ? ` (${code})` : ""}`;
}
