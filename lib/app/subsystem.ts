// A subsystem names the ports it is built from, the services it needs and the
// services it provides; the composition root orders the subsystems by those
// names (orderSubsystems) and hands each exactly what it named. Nothing is
// filled in after a subsystem is built.
import type { Ports } from "../ports";
import type { Services } from "./services";

export interface Subsystem<K extends keyof Ports, N extends keyof Services, P extends keyof Services> {
  readonly name: string;
  /** The ports this subsystem is built from, and the only ones it sees. */
  readonly ports: readonly K[];
  /** The services of other subsystems it is built on. */
  readonly needs: readonly N[];
  /** The services it builds. */
  readonly provides: readonly P[];
  build(ports: Pick<Ports, K>, needs: Pick<Services, N>): Pick<Services, P>;
}

/** A subsystem as the root holds it, whatever it names. */
export interface SubsystemEntry {
  readonly name: string;
  readonly ports: readonly string[];
  readonly needs: readonly string[];
  readonly provides: readonly string[];
  build(ports: object, needs: object): object;
}

export function defineSubsystem<const K extends keyof Ports, const N extends keyof Services, const P extends keyof Services>(
  subsystem: Subsystem<K, N, P>,
): SubsystemEntry {
  return subsystem as unknown as SubsystemEntry;
}

/**
 * The subsystems in an order where each comes after every subsystem that provides what it needs (the
 * table's own order among those that do not depend on each other). Throws, naming it, on a need that
 * nothing provides, a service two subsystems provide, or a circle of needs.
 */
export function orderSubsystems(table: readonly SubsystemEntry[], given: readonly string[]): SubsystemEntry[] {
  const provider = new Map<string, SubsystemEntry>();
  for (const s of table) {
    for (const p of s.provides) {
      const other = provider.get(p);
      if (other || given.includes(p)) throw new Error(`${p} is provided twice (${other ? other.name : "the host"} and ${s.name})`);
      provider.set(p, s);
    }
  }
  for (const s of table) {
    for (const n of s.needs) if (!provider.has(n) && !given.includes(n)) throw new Error(`${s.name} needs ${n}, which nothing provides`);
  }
  const order: SubsystemEntry[] = [];
  const state = new Map<SubsystemEntry, "visiting" | "done">();
  const visit = (s: SubsystemEntry, path: string[]): void => {
    if (state.get(s) === "done") return;
    if (state.get(s) === "visiting") throw new Error(`subsystems need each other in a circle: ${[...path, s.name].join(" -> ")}`);
    state.set(s, "visiting");
    for (const n of s.needs) {
      const p = provider.get(n);
      if (p) visit(p, [...path, s.name]);
    }
    state.set(s, "done");
    order.push(s);
  };
  for (const s of table) visit(s, []);
  return order;
}

/** Builds the table in order from the ports and the host's choices; every service each subsystem promised, or a throw. */
export function buildSubsystems(
  table: readonly SubsystemEntry[],
  ports: Ports,
  host: object,
  onBuilt?: (name: string) => void,
): { [service: string]: unknown } {
  const built: { [service: string]: unknown } = { ...host };
  const portMap = ports as unknown as { [name: string]: unknown };
  for (const s of orderSubsystems(table, Object.keys(host))) {
    const out = s.build(pick(portMap, s.ports), pick(built, s.needs)) as { [service: string]: unknown };
    for (const p of s.provides) {
      if (!(p in out)) throw new Error(`${s.name} did not build ${p}`);
      built[p] = out[p];
    }
    onBuilt?.(s.name);
  }
  return built;
}

function pick(from: { [name: string]: unknown }, names: readonly string[]): { [name: string]: unknown } {
  const out: { [name: string]: unknown } = {};
  for (const n of names) out[n] = from[n];
  return out;
}
