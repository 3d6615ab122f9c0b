// "file" (modules/files/file): synchronous files under config.file.root.
// Methods throw on failure ("file not found", "read past end of file").

export class File {
  /** Opens for reading, or for writing (creating it, not truncating) when `write` is true. */
  constructor(path: string, write?: boolean);
  read(type: typeof ArrayBuffer, count?: number): ArrayBuffer;
  read(type: typeof String, count?: number): string;
  /** Writes and flushes. */
  write(...values: (string | ArrayBuffer)[]): void;
  close(): void;
  readonly length: number;
  position: number;
  static delete(path: string): boolean;
  static exists(path: string): boolean;
  /** `to` is a full path or a bare name in the same directory; returns false on failure. */
  static rename(from: string, to: string): boolean;
}

export interface IteratorEntry {
  name: string;
  /** Present for files, absent for directories. */
  length?: number;
}

export class Iterator implements Iterable<IteratorEntry> {
  /** Throws when `path` is not a readable directory. */
  constructor(path: string);
  next(): IteratorEntry | undefined;
  [Symbol.iterator](): globalThis.Iterator<IteratorEntry>;
}

export class Directory {
  static create(path: string): void;
  static delete(path: string): void;
}

export class System {
  static config(): { maxPathLength: number };
  /** `total` and `used` bytes where the platform reports them. */
  static info(): { total?: number; used?: number };
}
