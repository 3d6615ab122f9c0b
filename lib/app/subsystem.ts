// A subsystem of the device names the ports it is built from and is handed
// exactly those: the composition root cannot give it another one by accident,
// and a host that lacks a port it names must say so (the port is undefined).
import type { Ports } from "../ports";

export interface Subsystem<K extends keyof Ports, D, O> {
  readonly name: string;
  /** The ports this subsystem is built from, and the only ones it sees. */
  readonly ports: readonly K[];
  build(ports: Pick<Ports, K>, deps: D): O;
}

export function defineSubsystem<K extends keyof Ports, D, O>(subsystem: Subsystem<K, D, O>): Subsystem<K, D, O> {
  return subsystem;
}

/** Builds `subsystem` from the ports it names, and nothing else of `ports`. */
export function buildSubsystem<K extends keyof Ports, D, O>(subsystem: Subsystem<K, D, O>, ports: Ports, deps: D): O {
  const named = {} as Pick<Ports, K>;
  for (const key of subsystem.ports) named[key] = ports[key];
  return subsystem.build(named, deps);
}
