// Globals of the XS host (hosts/xs/globals.c) that standard typings lack.
//
// Also provided at run time, typed by the usual typings instead of here (so
// this file can sit beside @types/node without duplicate declarations):
//   console.log/info/debug (stdout) and console.warn/error (stderr),
//   setTimeout/clearTimeout/setInterval/clearInterval (ids are numbers),
//   TextEncoder/TextDecoder (UTF-8 only; declared for lib/ in lib/globals.d.ts),
//   gc() (a full garbage collection; @types/node types it as optional).

/** Writes its arguments to stdout, space-separated, and a newline. Strings
 *  print as they are, an Error as its stack, other objects as JSON when they
 *  have a JSON form, anything else via String(). */
declare function print(...args: unknown[]): void;

/** Ends the run now with this exit status (default 0). exit(0) still exits
 *  with 1 if an uncaught error or unhandled rejection was already reported. */
declare function exit(code?: number): never;

/** Monotonic milliseconds (arbitrary origin, sub-millisecond precision), for benchmarks. */
declare function hostNow(): number;

/** Heap use of the XS machine. */
interface XsHeapInfo {
  /** chunkBytes + slotBytes. */
  heapBytes: number;
  /** Bytes of live chunks (strings, array and buffer storage, closures' code...). */
  chunkBytes: number;
  /** Bytes of slots in use (every value, property and object header), slotSize each. */
  slotBytes: number;
  /** Highest chunk + slot use seen so far (garbage included, as it was before collection). */
  peakBytes: number;
  /** Bytes the machine has taken from the system (chunk blocks, slot blocks, JS stack). */
  reservedBytes: number;
  /** The --heap-limit in bytes, 0 if none. */
  heapLimit: number;
  /** Bytes per slot (32 on 64-bit hosts, 16 on the ESP32). */
  slotSize: number;
}

/** Heap use of the XS machine, after a full garbage collection unless collect is false. */
declare function xsHeapInfo(collect?: boolean): XsHeapInfo;

/** The host function `void <name>(xsMachine *the)` linked from modules/**\/*.c
 *  (and Moddable's xs_base64_encode/xs_base64_decode); TypeError if unknown. */
// biome-ignore lint/suspicious/noExplicitAny: the bound C function's signature is whatever T says
declare function native<T extends (...args: any[]) => any = (...args: any[]) => any>(name: string): T;

/** The command-line arguments after the bundle's path. */
declare const scriptArgs: readonly string[];
