// The device freezes what it preloads, Error.prototype included: naming an
// error by assignment then throws ("not writable"). Every error class of lib/
// must still construct, keep its name and message, and be caught by type.
import { HaloError } from "../../lib/errors.ts";
import { HttpError } from "../../lib/http/http-error.ts";
import { UnknownToolError } from "../../lib/registry/errors.ts";
import { ProviderError } from "../../lib/providers/errors";
import { RouteError } from "../../lib/providers/router";
import { TelegramError } from "../../lib/chat/telegram-errors.ts";
import { VectorFileError } from "../../lib/memory/store/vector-file.ts";

Object.freeze(Error.prototype);
const made: Array<[string, () => Error]> = [
  ["HaloError", () => new HaloError("not-found", "no such file.")],
  ["HttpError", () => new HttpError(404, "Not found.")],
  ["UnknownToolError", () => new UnknownToolError("x.y")],
  ["ProviderError", () => new ProviderError("auth", "the key was refused.")],
  ["RouteError", () => new RouteError("auth", "no provider answered.", [])],
  ["TelegramError", () => new TelegramError("auth", "the bot token was refused.")],
  ["VectorFileError", () => new VectorFileError("truncated")],
];
for (const [name, make] of made) {
  let line: string;
  try {
    const e = make();
    line = `${name}: ${e.name} ${e instanceof Error} ${e.message.length > 0}`;
  } catch (e) {
    line = `${name}: threw ${e instanceof Error ? e.message : String(e)}`;
  }
  print(line);
}
