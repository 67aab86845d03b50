// What every benchmark case generator (./cases/*.ts) works with, and how it records its case.
import type { Rng } from "../../src/platform/rng.ts";
import type { Case, World } from "../../src/worlds/index.ts";
import type { BenchmarkServices, Population } from "./population.ts";

export interface CaseContext {
  world: World;
  pop: Population;
  services: BenchmarkServices;
}

/**
 * Makes one case: a positive (the pattern, inside the definition in docs/risk-model.md) or a near miss (just outside it).
 * `index` counts the cases of that kind of that pattern: generators rotate through their variants with it, so
 * every variant is equally represented whatever the seed.
 */
export type CaseGenerator = (ctx: CaseContext, rng: Rng, id: string, start: number, index: number) => void;

export function variantOf<T>(variants: readonly T[], index: number): T {
  return variants[index % variants.length] as T;
}

/** Records a case; background users named in `usersInvolved` are no longer "plain" (never sampled as such). */
export function record(ctx: CaseContext, c: Case, usersInvolved: readonly string[] = []): void {
  for (const a of usersInvolved) ctx.pop.involved.add(a);
  ctx.world.addCase(c);
}
