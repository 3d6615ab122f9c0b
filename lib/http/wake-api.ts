// The owner's wake phrase over the owner API: GET /api/wake (whether a phrase is taught, enabled, its
// sensitivity, examples recorded towards a new one), PUT /api/wake ({"enabled", "sensitivity"}),
// DELETE /api/wake, and POST /api/wake/examples with one audio/wav example per request (the third completes
// the phrase). Admin tokens only; the audio is reduced to features on the device and never leaves it.
import { HaloError } from "../errors";
import type { McpClient } from "../people/clients";
import { MIC_SAMPLE_RATE, resample } from "../voice/pcm";
import { decodeWav, WAV_MEDIA_TYPES } from "../voice/wav";
import type { WakePhrase, WakeState } from "../wake/phrase";
import { BODIES, type BodyOf } from "./bodies";
import { HttpError } from "./http-error";
import { requireClient } from "./middleware";
import { jsonAnswer, type RouteSpec } from "./pipeline";

export const WAKE_API_PATH = "/api/wake";
/** Largest example upload: 4 s of 48 kHz stereo, the most an example may hold at the highest rate taken. */
export const WAKE_EXAMPLE_MAX_BYTES = 4 * 48000 * 4 + 1024;

/** The four routes; on a host without the wake engine each answers that no phrase can be taught here. */
export function wakeRoutes(wake: WakePhrase | undefined, verifyToken: (token: string) => McpClient | undefined): RouteSpec[] {
  const admin = requireClient(verifyToken, "admin");
  const phrase = (): WakePhrase => {
    if (!wake) throw new HaloError("not-present", "this host has no wake-word engine, so no phrase can be taught here.");
    return wake;
  };
  const answer = (state: WakeState, status = 200) => jsonAnswer(status, { ...state });
  const route = (): Pick<RouteSpec, "maxBody" | "errors" | "use"> => ({ maxBody: 0, errors: "api", use: [admin] });
  return [
    { ...route(), method: "GET", pattern: WAKE_API_PATH, handler: () => answer(phrase().state()) },
    {
      ...route(),
      method: "PUT",
      pattern: WAKE_API_PATH,
      maxBody: 1024,
      body: BODIES.wake,
      handler: (ctx) => answer(phrase().configure(ctx.json as BodyOf<"wake">)),
    },
    { ...route(), method: "DELETE", pattern: WAKE_API_PATH, handler: () => answer(phrase().remove()) },
    {
      ...route(),
      method: "POST",
      pattern: `${WAKE_API_PATH}/examples`,
      maxBody: WAKE_EXAMPLE_MAX_BYTES,
      handler: (ctx) => {
        const type = (ctx.req.headers["content-type"] || "").split(";")[0].trim().toLowerCase();
        if (WAV_MEDIA_TYPES.indexOf(type) < 0) throw new HttpError(415, "Unsupported media type: send one example as audio/wav.");
        const target = phrase();
        // A WAV that does not decode, and an example the engine refuses, are HaloErrors (invalid): 400.
        const pcm = decodeWav(ctx.req.body ?? new Uint8Array(0));
        return answer(target.addExample(resample(pcm.samples, pcm.sampleRate, MIC_SAMPLE_RATE)), 201);
      },
    },
  ];
}
