// XS entry of bench/voice.mjs: prints VOICE-XS {json}.
import { median, timeVoiceOverhead } from "./voice-work.ts";

declare function print(...args: unknown[]): void;
declare function exit(code: number): void;
declare function hostNow(): number;
declare const scriptArgs: readonly string[];

timeVoiceOverhead(Number(scriptArgs[0] ?? "5"), hostNow).then(
  (ms) => print(`VOICE-XS ${JSON.stringify({ medianMs: median(ms), samples: ms.length })}`),
  (e) => {
    print(`FAILED ${e instanceof Error ? e.message : String(e)}`);
    exit(1);
  },
);
