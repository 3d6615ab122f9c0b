import { toJson } from "../util/json";
import { djb2Hex } from "../util/hash";
import type { JsonSchema } from "./types";

/**
 * The key under which a schema's build-time validator is stored. The schema's
 * JSON text decides it, so a schema edited without `npm run build` finds no
 * validator and registration fails loudly instead of validating stale rules.
 */
export function schemaKey(schema: JsonSchema): string {
  const text = toJson(schema);
  return `${djb2Hex(text)}${text.length.toString(16).padStart(5, "0")}`;
}
