// The composition root's contract (lib/app/subsystem.ts, docs/architecture.md "The composition root"):
// subsystems are ordered by what they declare, each is handed only what it names, nothing is left
// unprovided, and the checks catch a missing, doubled or circular need.
import assert from "node:assert/strict";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { buildSubsystems, defineSubsystem, orderSubsystems, type SubsystemEntry } from "../../lib/app/subsystem.ts";
import { SUBSYSTEMS } from "../../lib/app/subsystems/table.ts";
import { TEST_HOST } from "../support/halo.ts";

const HOST = Object.keys({ ...TEST_HOST, validators: {} });

/** A subsystem that records what it was handed. */
function probe(name: string, needs: string[], provides: string[], seen: Array<[string, string[]]>): SubsystemEntry {
  return {
    name,
    ports: ["clock"],
    needs,
    provides,
    build(ports, given) {
      seen.push([name, [...Object.keys(ports), ...Object.keys(given)]]);
      return Object.fromEntries(provides.map((p) => [p, `${name}.${p}`]));
    },
  };
}

describe("the composition root", () => {
  it("orders the device's table so every subsystem comes after what it needs", () => {
    const order = orderSubsystems(SUBSYSTEMS, HOST);
    assert.equal(order.length, SUBSYSTEMS.length);
    const built = new Set(HOST);
    for (const s of order) {
      for (const n of s.needs) assert.ok(built.has(n), `${s.name} needs ${n} before it is built`);
      for (const p of s.provides) built.add(p);
    }
  });

  it("builds every service a subsystem promised, handing each only the ports and services it named", () => {
    const seen: Array<[string, string[]]> = [];
    const table = [probe("b", ["x"], ["y"], seen), probe("a", [], ["x"], seen)];
    const built = buildSubsystems(table, memoryPorts(), { host: 1 });
    assert.deepEqual(built, { host: 1, x: "a.x", y: "b.y" });
    assert.deepEqual(seen, [
      ["a", ["clock"]],
      ["b", ["clock", "x"]],
    ]);
  });

  it("refuses a need nothing provides, a service provided twice, a circle of needs, and a promise not kept", () => {
    const seen: Array<[string, string[]]> = [];
    assert.throws(() => orderSubsystems([probe("a", ["nope"], ["x"], seen)], []), /a needs nope, which nothing provides/);
    assert.throws(() => orderSubsystems([probe("a", [], ["x"], seen), probe("b", [], ["x"], seen)], []), /x is provided twice \(a and b\)/);
    assert.throws(() => orderSubsystems([probe("a", [], ["host"], seen)], ["host"]), /host is provided twice \(the host and a\)/);
    assert.throws(
      () => orderSubsystems([probe("a", ["y"], ["x"], seen), probe("b", ["x"], ["y"], seen)], []),
      /subsystems need each other in a circle: a -> b -> a/,
    );
    const liar: SubsystemEntry = { ...probe("liar", [], ["x"], seen), build: () => ({}) };
    assert.throws(() => buildSubsystems([liar], memoryPorts(), {}), /liar did not build x/);
  });

  it("declares its types: a subsystem whose build returns less than it provides does not compile", () => {
    defineSubsystem({
      name: "typed",
      ports: ["clock"],
      needs: ["config"],
      provides: ["docs"],
      // @ts-expect-error docs is missing from what build returns
      build: () => ({}),
    });
  });
});
