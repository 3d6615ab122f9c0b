// Binds Halo's SD-card module (sdcard.c, sdcard_card.c): one card, mounted at
// a path, with file operations on paths relative to the card. On the device
// xsc turns each native("...") into a host function at build time; on the XS
// test host native() is a global that finds the function in the linked modules.
// Failures throw an Error whose message holds the errno's name (ENOENT, EEXIST,
// ENOSPC, EIO, ENODEV...) and a RangeError "bad path" for a path the card
// cannot hold; errnoOf() in common.ts reads the name back.

// biome-ignore lint/suspicious/noExplicitAny: the bound C function's signature is given where it is used
declare function native(name: string): (...args: any[]) => any;

/** Where and how to mount: on the device a mount point and SPI pins; on POSIX hosts a folder. */
export interface SdMountOptions {
  /** The mount point ("/sd") on the device; the folder that stands in for the card elsewhere. */
  root: string;
  sck?: number;
  mosi?: number;
  miso?: number;
  cs?: number;
  /** SPI clock in kHz (default 20,000). */
  khz?: number;
  /** POSIX hosts only: a simulated card of this many bytes (writes past it fail with ENOSPC). */
  capacity?: number;
  /** POSIX hosts only: make the folder (one level) when it is missing. */
  create?: boolean;
}

export interface SdInfo {
  /** The card's product name (CID); "folder" for a host folder. */
  name: string;
  type: string;
  capacity: number;
  sectorSize: number;
  khz: number;
}

export interface SdStat {
  size: number;
  mtime: number;
  directory: boolean;
}

export type SdOpenMode = "r" | "r+" | "w" | "a";

/** The module's functions; an interface so tests and the storage port can take any card. */
export interface SdCard {
  mount(options: SdMountOptions): void;
  unmount(): void;
  /** Whether a card is mounted (no I/O). */
  mounted(): boolean;
  /** Whether the mounted card answers; one that does not is unmounted. */
  check(): boolean;
  info(): SdInfo;
  /** [free, total] bytes. */
  space(): [number, number];
  open(path: string, mode: SdOpenMode): number;
  /** Reads into `into`; the count read, 0 at the end. */
  read(handle: number, into: Uint8Array): number;
  write(handle: number, bytes: Uint8Array): void;
  seek(handle: number, position: number): number;
  size(handle: number): number;
  truncate(handle: number, length: number): void;
  sync(handle: number): void;
  close(handle: number): void;
  stat(path: string): SdStat | undefined;
  /** Throws EEXIST when `to` exists: never replaces. */
  rename(from: string, to: string): void;
  unlink(path: string): void;
  mkdir(path: string): void;
  rmdir(path: string): void;
  readdir(path: string): string[];
}

export const sdcard: SdCard = Object.freeze({
  mount: native("xs_sdcard_mount"),
  unmount: native("xs_sdcard_unmount"),
  mounted: native("xs_sdcard_mounted"),
  check: native("xs_sdcard_check"),
  info: native("xs_sdcard_info"),
  space: native("xs_sdcard_space"),
  open: native("xs_sdcard_open"),
  read: native("xs_sdcard_read"),
  write: native("xs_sdcard_write"),
  seek: native("xs_sdcard_seek"),
  size: native("xs_sdcard_size"),
  truncate: native("xs_sdcard_truncate"),
  sync: native("xs_sdcard_sync"),
  close: native("xs_sdcard_close"),
  stat: native("xs_sdcard_stat"),
  rename: native("xs_sdcard_rename"),
  unlink: native("xs_sdcard_unlink"),
  mkdir: native("xs_sdcard_mkdir"),
  rmdir: native("xs_sdcard_rmdir"),
  readdir: native("xs_sdcard_readdir"),
});
