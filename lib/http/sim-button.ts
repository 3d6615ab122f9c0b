// POST /api/sim/button: the owner presses the simulator's button from outside
// (a page, a script, a test) with {"gesture": "press" | "double-press" |
// "long-press"}. The gesture goes through the simulated Button port, so it
// takes the same path as a press of the device's button. The simulator adds
// this route as one of its own (hostRoutes); the device has no such route.
import type { McpClient } from "../people/clients";
import type { ButtonOutcome } from "../voice/press-to-talk";
import type { VoicePhase } from "../voice/pipeline";
import { BODIES, type BodyOf } from "./bodies";
import { requireClient } from "./middleware";
import { OWNER_API_MAX_BODY_BYTES } from "./owner-api";
import { jsonAnswer, type RouteSpec } from "./pipeline";

export interface SimButtonDeps {
  /** Presses the simulated button and returns what the press did. */
  press(gesture: BodyOf<"simButton">["gesture"]): ButtonOutcome | undefined;
  /** The voice loop's phase after the press. */
  phase(): VoicePhase;
}

export function simButtonRoute(deps: SimButtonDeps, verifyToken: (token: string) => McpClient | undefined): RouteSpec {
  return {
    method: "POST",
    pattern: "/api/sim/button",
    maxBody: OWNER_API_MAX_BODY_BYTES,
    errors: "api",
    use: [requireClient(verifyToken, "admin")],
    body: BODIES.simButton,
    handler: (ctx) => {
      const { gesture } = ctx.json as BodyOf<"simButton">;
      const outcome = deps.press(gesture) ?? "ignored";
      return jsonAnswer(200, { gesture, outcome, phase: deps.phase() });
    },
  };
}
