// A small seeded PRNG (mulberry32) for tests and benchmarks: the same seed
// gives the same numbers on Node and on XS, so both can build the same data.

/** A deterministic source of pseudo-random numbers. */
export interface Prng {
  /** An unsigned 32-bit integer. */
  nextUint32(): number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** A standard normal deviate (Box-Muller; Math.log/cos may differ in the last bit between engines). */
  gaussian(): number;
}

export function mulberry32(seed: number): Prng {
  let state = seed | 0;
  const nextUint32 = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
  const next = (): number => nextUint32() / 4294967296;
  return {
    nextUint32,
    next,
    int: (min, max) => min + (nextUint32() % (max - min + 1)),
    gaussian: () => {
      const u = 1 - next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
    },
  };
}

/**
 * `length` int8 values, uniform over [-128, 127], four per PRNG step (the
 * bytes of each 32-bit word in little-endian order, as on every Halo host).
 */
export function randomInt8(prng: Prng, length: number): Int8Array {
  const words = new Uint32Array((length + 3) >> 2);
  for (let i = 0; i < words.length; i++) words[i] = prng.nextUint32();
  return new Int8Array(words.buffer, 0, length);
}
