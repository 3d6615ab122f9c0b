// On the XS host: the native flash check (modules/flash) is false for objects made at run time, frozen or not,
// and toJson with it installed writes JSON.stringify's text.
import { toJson } from "../../lib/util/json.ts";
import { inFlash } from "../../modules/flash/flash.ts";
import { jsonCases } from "./json-cases.ts";

const frozen = Object.freeze({ a: 1 });
print(`in flash: ${[{}, [], frozen, Object.freeze([frozen]), new Date(0)].map((o) => inFlash(o)).join(" ")}`);
let checked = 0;
(globalThis as { haloInFlash?: (value: object) => boolean }).haloInFlash = (value) => {
  checked++;
  return inFlash(value);
};
print(`texts equal: ${jsonCases().every(([value, indent]) => toJson(value, indent) === JSON.stringify(value, null, indent))}`);
print(`objects checked: ${checked > 10}`);
