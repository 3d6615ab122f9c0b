// Wall-clock time. Date.now() is right on the device once SNTP has set the
// clock (network.ts does that after Wi-Fi connects); before that it counts from 1970.
import type { Clock } from "../../../lib/ports";

export const deviceClock: Clock = { now: (): number => Date.now() };
