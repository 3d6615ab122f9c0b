// The update engine on the XS host: the Node scenario's transcript, line for line.
import { nodeSha256 } from "../../hosts/sim/ports/node-basics.ts";
import { otaScenario } from "../ota/ota-scenario.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("the update engine on XS", () => {
  compareOnXs("test/xs/ota.xs.ts", () => otaScenario(nodeSha256), 50);
});
