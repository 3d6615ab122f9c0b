// Body checks shared by the owner API handlers: a field the endpoint does not
// take is a 400 naming the accepted fields (never the value sent).
import type { ApiReply } from "./owner-routes";

const fail = (error: string): ApiReply => ({ status: 400, body: { error } });

/** A 400 for the first field not in `allowed` or a missing `required` one, else undefined. */
export function onlyFields(body: { [key: string]: unknown }, allowed: string[], required: string[] = []): ApiReply | undefined {
  for (const k of Object.keys(body)) {
    if (allowed.indexOf(k) < 0) {
      return fail(
        allowed.length === 0
          ? "Bad request: this endpoint takes no body fields."
          : `Bad request: unknown field; the fields are ${allowed.join(", ")}.`,
      );
    }
  }
  for (const k of required) if (body[k] === undefined) return fail(`Bad request: '${k}' is required.`);
  return undefined;
}

/** For approve/reject and other decisions whose URL says everything: any body field is refused. */
export function noFields(body: { [key: string]: unknown }): ApiReply | undefined {
  return onlyFields(body, []);
}
