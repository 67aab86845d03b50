// A small seeded random number generator (mulberry32), so that every generated scenario is reproducible.
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  int(min: number, maxInclusive: number): number {
    return Math.floor(this.between(min, maxInclusive + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  /** Standard normal (Box-Muller; two uniforms per draw, so sequences stay simple to reason about). */
  normal(): number {
    const u = 1 - this.next(); // (0, 1]: log(0) never happens
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal with the given median and sigma (of the underlying normal): payment sizes, balances. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Pareto (type I) with minimum `min` and shape `alpha`: heavy-tailed activity levels. */
  pareto(min: number, alpha: number): number {
    return min / (1 - this.next()) ** (1 / alpha);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A new array with the items in a random order (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  /** next() as a plain function, for code that takes a `() => number` source of uniforms. */
  asFunction(): () => number {
    return () => this.next();
  }

  /** A 32-bit seed for a child generator, so that sub-scenarios don't shift when others change. */
  fork(): Rng {
    return new Rng(Math.floor(this.next() * 2 ** 32));
  }
}

/**
 * A seeded pick by rank, item i (from 0) drawn with weight 1/(i+1)^s: the Zipf-like tail of name frequencies and
 * other long-tailed populations.
 */
export function rankPicker<T>(items: readonly T[], s: number): (rng: Rng) => T {
  const cumulative: number[] = [];
  let sum = 0;
  for (let i = 0; i < items.length; i++) {
    sum += 1 / (i + 1) ** s;
    cumulative.push(sum);
  }
  return (rng) => {
    const x = rng.next() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return items[lo] as T;
  };
}
