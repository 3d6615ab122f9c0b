// The firmware's own docs pack and its lower-cased search text. The text is
// made as this module loads: on the device that happens at build time
// (preload), so both sit in flash instead of ~270 KB of RAM made at boot.
import { DOCS_PACK } from "../generated/docs-pack";
import { type DocsPack, lowerSections } from "./docs-pack";

export const FIRMWARE_DOCS: DocsPack = DOCS_PACK;
export const FIRMWARE_DOCS_LOWERED: readonly string[] = lowerSections(DOCS_PACK);
