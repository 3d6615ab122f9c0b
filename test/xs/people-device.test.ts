// People, device actions, introspection and the owner API on the XS engine: the same transcript as on Node.
import { runPeopleDeviceScenario } from "../scenarios/people-device.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("people, device actions and the owner API on XS", () => {
  compareOnXs("test/xs/people-device.xs.ts", runPeopleDeviceScenario, 30);
});
