// The XS suites of this folder, by name, and how a case's result line looks.
// sdcard.xs.ts runs them on the XS host; sdcard.test.ts (Node) reads the lines.
import { REMOVAL_CASES } from "./removal-cases.ts";
import { REPLACE_CASES } from "./replace-cases.ts";
import { SDCARD_CASES } from "./sdcard-cases.ts";
import type { XsCase } from "./sd-harness.ts";
import { NVS_SETTINGS_CASES, type PlainCase } from "./nvs-settings-cases.ts";

/** Suites run with the SD harness (the Storage contract is run by the entry with its own factory). */
export const SD_SUITES: { [suite: string]: XsCase[] } = {
  "SD module file operations": SDCARD_CASES,
  "staged replace cut at every step": REPLACE_CASES,
  "card removal and remount": REMOVAL_CASES,
};

/** Suites that need no card. */
export const PLAIN_SUITES: { [suite: string]: PlainCase[] } = {
  "Settings over NVS": NVS_SETTINGS_CASES,
};

export interface CaseResult {
  suite: string;
  name: string;
  ok: boolean;
  message?: string;
}

export const RESULT_PREFIX = "RESULT ";
