// XS entry of bench/strings.mjs: the string helpers the request and turn paths run over long text, timed
// on the XS host. Prints one line: STRINGS {json}.
import { djb2 } from "../lib/util/hash";
import { jsonTooDeep } from "../lib/util/json-depth";
import { truncateUtf8, utf8Length } from "../lib/util/utf8";

declare function print(...args: unknown[]): void;
declare function hostNow(): number;

function ms(run: () => unknown, times = 5): number {
  const t = hostNow();
  for (let i = 0; i < times; i++) run();
  return (hostNow() - t) / times;
}

const body = new TextEncoder().encode(
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "memory.write", arguments: { content: "x".repeat(65_000) } },
  }),
);
const prompt = "Halo’s prompt — with “quotes” and plain text, as the turn composes it. ".repeat(220);
print(
  `STRINGS ${JSON.stringify({
    jsonDepth64k: ms(() => jsonTooDeep(body, 32)),
    djb2Prompt16k: ms(() => djb2(prompt)),
    utf8Length16k: ms(() => utf8Length(prompt)),
    truncate16k: ms(() => truncateUtf8(prompt, 8192)),
  })}`,
);
