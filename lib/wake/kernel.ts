// The wake-word engine as lib/ sees it: a feature front end and a streaming detector, both in C
// (modules/wake/). The device and the XS host bind it in modules/wake/wake.ts, Node (the simulator and
// the tests) in hosts/sim/wake/kernel.ts; both run the same C sources. docs/wake-word.md explains it.
// The types are the `wake` port's, so they live in lib/ports.ts with the other ports.
export type { WakeDetector, WakeExample, WakeHit, WakeKernel, WakeRefusal, WakeTeaching } from "../ports";
