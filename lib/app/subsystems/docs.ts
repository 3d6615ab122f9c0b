// The firmware's own documentation, read by docs.* (its pack is in flash on the device).
import { DocsLibrary } from "../../store/docs-pack";
import { FIRMWARE_DOCS, FIRMWARE_DOCS_LOWERED } from "../../store/firmware-docs";
import { defineSubsystem } from "../subsystem";

export const DOCS = defineSubsystem({
  name: "docs",
  ports: [],
  needs: [],
  provides: ["docs"],
  build: () => ({ docs: new DocsLibrary(FIRMWARE_DOCS, FIRMWARE_DOCS_LOWERED) }),
});
