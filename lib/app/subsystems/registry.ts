// The tool registry and the ring of recent tool outputs: every other subsystem's tools land here
// (lib/app/tools.ts registers them once every service exists).
import { ToolRegistry } from "../../registry/registry";
import { ResultsRing } from "../../registry/results-ring";
import { defineSubsystem } from "../subsystem";

export const REGISTRY = defineSubsystem({
  name: "registry",
  ports: ["log", "clock", "timers"],
  needs: ["validators"],
  provides: ["registry", "ring"],
  build(p, { validators }) {
    const ring = new ResultsRing();
    return { ring, registry: new ToolRegistry({ validators, ring, log: p.log, clock: p.clock, timers: p.timers }) };
  },
});
