// The POSIX backend's card simulation (sdcard_card.c): pulls and reinserts the
// folder's card. Tests only; the device has no such function and its manifest
// does not include this module.

// biome-ignore lint/suspicious/noExplicitAny: the bound C function's signature is given where it is used
declare function native(name: string): (...args: any[]) => any;

/** "remove": every operation now fails with EIO (and unmounts) and mounting fails; "insert": the card is back. */
export const simulateCard: (what: "remove" | "insert") => void = native("xs_sdcard_simulate");
