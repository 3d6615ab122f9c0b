// XS entry: the wake engine's contract (test/wake/contract.ts) on the XS host, through modules/wake/wake.ts.
import { xsWakeKernel } from "../../modules/wake/wake.ts";
import { printTranscript } from "../support/xs-entry.ts";
import { runWakeContract } from "./contract.ts";

printTranscript(async () => runWakeContract(xsWakeKernel));
