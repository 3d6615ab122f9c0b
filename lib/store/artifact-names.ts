// Project and file names of the artifact store: what is allowed, and the kind
// of file an extension means. Names become SD-card paths (FAT), so anything
// that could escape the store or confuse the card is refused here.
import { HaloError } from "../errors";
import { ARTIFACT_NAME_MAX_CHARS, ARTIFACT_PROJECT_MAX_CHARS } from "../limits";

export type ArtifactKind = "text" | "image" | "audio" | "document";

/** Extensions artifact.save writes. */
export const SAVE_EXTENSIONS: readonly string[] = ["md", "txt", "csv", "json"];
/** Extensions files.read serves as text. */
export const TEXT_EXTENSIONS: readonly string[] = ["md", "txt", "csv", "json", "log"];
export const IMAGE_EXTENSIONS: readonly string[] = ["png", "jpg", "jpeg", "gif", "webp"];
/** Recordings audio.transcribe sends to speech-to-text (the formats the providers accept). */
export const AUDIO_EXTENSIONS: readonly string[] = ["wav", "mp3", "m4a", "ogg", "webm"];
/** Extensions files.fetch may download into. */
export const FETCH_EXTENSIONS: readonly string[] = [...TEXT_EXTENSIONS, ...IMAGE_EXTENSIONS, ...AUDIO_EXTENSIONS, "pdf"];

const PROJECT_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._()+-]*$/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** FAT reserves these stems on every extension. */
const RESERVED_STEM = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/** Why `project` is not a valid project name, or undefined when it is. */
export function projectProblem(project: string): string | undefined {
  if (project.length === 0) return "invalid project: it is empty.";
  if (project.length > ARTIFACT_PROJECT_MAX_CHARS) return `invalid project: at most ${ARTIFACT_PROJECT_MAX_CHARS} characters.`;
  if (CONTROL.test(project)) return "invalid project: control characters are not allowed.";
  if (/[/\\]/.test(project) || project.indexOf("..") >= 0) return "invalid project: paths ('/', '\\', '..') are not allowed.";
  if (!PROJECT_PATTERN.test(project)) {
    return "invalid project: use lower-case letters, digits, '-' and '_', starting with a letter or digit.";
  }
  if (RESERVED_STEM.test(project)) return "invalid project: that name is reserved by the SD card's file system.";
  return undefined;
}

/** Why `name` is not a valid file name among `extensions`, or undefined when it is. */
export function nameProblem(name: string, extensions: readonly string[]): string | undefined {
  if (name.length === 0) return "invalid name: it is empty.";
  if (name.length > ARTIFACT_NAME_MAX_CHARS) return `invalid name: at most ${ARTIFACT_NAME_MAX_CHARS} characters.`;
  if (CONTROL.test(name)) return "invalid name: control characters are not allowed.";
  if (/[/\\]/.test(name) || name.indexOf("..") >= 0) return "invalid name: paths ('/', '\\', '..') are not allowed.";
  if (!NAME_PATTERN.test(name) || / $/.test(name)) {
    return "invalid name: use letters, digits, spaces and . _ - ( ) +, starting with a letter or digit.";
  }
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  if (extensions.indexOf(ext) < 0) return `invalid name: it must end in one of .${extensions.join(" .")}.`;
  if (RESERVED_STEM.test(name.slice(0, dot).split(".")[0])) {
    return "invalid name: that name is reserved by the SD card's file system.";
  }
  return undefined;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

export function kindOf(name: string): ArtifactKind {
  const ext = extensionOf(name);
  if (TEXT_EXTENSIONS.indexOf(ext) >= 0) return "text";
  if (IMAGE_EXTENSIONS.indexOf(ext) >= 0) return "image";
  if (AUDIO_EXTENSIONS.indexOf(ext) >= 0) return "audio";
  return "document";
}

const MIME: { [ext: string]: string } = {
  md: "text/markdown",
  txt: "text/plain",
  csv: "text/csv",
  json: "application/json",
  log: "text/plain",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  wav: "audio/wav",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  ogg: "audio/ogg",
  webm: "audio/webm",
};

export function mimeOf(name: string): string {
  return MIME[extensionOf(name)] || "application/octet-stream";
}

/**
 * Whether `bytes` begin the way a file with `name`'s extension must. Text must
 * hold no NUL byte; images and PDFs must carry their format's signature.
 */
export function contentMatchesName(name: string, bytes: Uint8Array): boolean {
  const ext = extensionOf(name);
  const starts = (...sig: number[]): boolean => sig.every((b, i) => bytes[i] === b);
  switch (ext) {
    case "png":
      return starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    case "jpg":
    case "jpeg":
      return starts(0xff, 0xd8, 0xff);
    case "gif":
      return starts(0x47, 0x49, 0x46, 0x38);
    case "webp":
      return starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50;
    case "pdf":
      return starts(0x25, 0x50, 0x44, 0x46, 0x2d);
    case "wav":
      return starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x41 && bytes[10] === 0x56 && bytes[11] === 0x45;
    case "mp3":
      return starts(0x49, 0x44, 0x33) || (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0);
    case "m4a":
      return bytes[4] === 0x66 && bytes[5] === 0x74 && bytes[6] === 0x79 && bytes[7] === 0x70;
    case "ogg":
      return starts(0x4f, 0x67, 0x67, 0x53);
    case "webm":
      return starts(0x1a, 0x45, 0xdf, 0xa3);
    default:
      return bytes.indexOf(0) < 0;
  }
}

/** Throws an "invalid" refusal naming what is wrong with `project`. */
export function checkProject(project: string): void {
  const problem = projectProblem(project);
  if (problem) throw new HaloError("invalid", problem, problem);
}

/** Throws an "invalid" refusal naming what is wrong with `project` or `name` (one of `extensions`). */
export function checkNames(project: string, name: string, extensions: readonly string[]): void {
  checkProject(project);
  const problem = nameProblem(name, extensions);
  if (problem) throw new HaloError("invalid", problem, problem);
}
