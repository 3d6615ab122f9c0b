import { clipForMessage } from "../util/text";
import type { ValidationReport } from "./types";

/** One sentence naming the first schema violation, without echoing the value. */
export function describeValidationError(report: ValidationReport): string {
  const first = report.errors?.[0];
  if (!first) return "invalid arguments.";
  const where = first.instancePath ? `'${first.instancePath.slice(1).replace(/\//g, ".")}'` : "arguments";
  const params = first.params || {};
  if (typeof params.additionalProperty === "string") {
    return `invalid arguments: unknown argument '${clipForMessage(params.additionalProperty, 40)}'.`;
  }
  if (typeof params.missingProperty === "string") {
    return `invalid arguments: '${clipForMessage(params.missingProperty, 40)}' is required.`;
  }
  if (Array.isArray(params.allowedValues)) {
    return `invalid arguments: ${where} must be one of ${params.allowedValues.join(", ")}.`;
  }
  return `invalid arguments: ${where} ${first.message || "is invalid"}.`;
}
