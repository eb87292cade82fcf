/**
 * A small seeded pseudo-random generator for the routing benchmark, so that the scenario (and
 * the router's power-of-two draws) are the same on every run and for every strategy.
 */

/** Uniform numbers in [0, 1). */
export type Random = () => number;

/**
 * mulberry32: a 32-bit state generator, fast and good enough for a benchmark scenario (not for
 * anything secret). The same `seed` always gives the same sequence.
 */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A standard normal draw (Box-Muller), from two uniform draws of `random`. */
export function normal(random: Random): number {
  const u = 1 - random(); // (0, 1]: log(u) is finite
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** An exponential draw with the given mean. */
export function exponential(random: Random, mean: number): number {
  return -mean * Math.log(1 - random());
}

/** A Pareto draw: `scale` x U^(-1/shape), so values start at `scale` and fall off as x^-shape. */
export function pareto(random: Random, scale: number, shape: number): number {
  return scale * (1 - random()) ** (-1 / shape);
}
