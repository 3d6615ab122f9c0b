// XS entry: runs the people/device/owner-API scenario on the XS host and prints its transcript.
import { runPeopleDeviceScenario } from "../scenarios/people-device.ts";

declare function print(...args: unknown[]): void;
declare function exit(code: number): void;

runPeopleDeviceScenario()
  .then((transcript) => {
    for (const line of transcript) print(`T ${JSON.stringify(line)}`);
    print("END");
  })
  .catch((e) => {
    print(`FAILED ${e instanceof Error ? e.message : String(e)}`);
    exit(1);
  });
