// The XS suites of this folder, by name, and how a case's result line looks.
// sdcard.xs.ts runs them on the XS host; sdcard.test.ts (Node) reads the lines.
import { REMOVAL_CASES } from "./removal-cases.ts";
import { REPLACE_CASES } from "./replace-cases.ts";
import { SDCARD_CASES } from "./sdcard-cases.ts";
import type { XsCase } from "./sd-harness.ts";

/** Suites run with the SD harness; the Storage contract and the NVS settings suite are added by the entry. */
export const SD_SUITES: { [suite: string]: XsCase[] } = {
  "SD module file operations": SDCARD_CASES,
  "staged replace cut at every step": REPLACE_CASES,
  "card removal and remount": REMOVAL_CASES,
};

export interface CaseResult {
  suite: string;
  name: string;
  ok: boolean;
  message?: string;
}

export const RESULT_PREFIX = "RESULT ";
