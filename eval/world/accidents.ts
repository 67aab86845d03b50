// Ordinary users whose everyday life happens to meet a pattern's definition: a user paid three times USD 860-880 by
// two busy hubs within a week meets structuring's (docs/risk-model.md: three transfers within 7 days, each 85-100 % of a
// reporting threshold, summing past it). The risk engine is right to report them, so they cannot be the
// benchmark's negatives: the background sample leaves them out. Structuring is the one definition ordinary
// amounts meet by chance; the others (loops, back-and-forth, fresh wallets, peels, exchange hops, mixers) the
// population's rules keep out of everyday traffic (population.ts, hubs.ts).
import { priceOn, TOKENS, type World } from "../../src/worlds/index.ts";

const THRESHOLDS = [1_000, 3_000, 10_000];
const WEEK = 7 * 86_400;

/** The addresses that sent or received three transfers in a reporting threshold's band within a week. */
export function accidentalStructurers(world: World, among: ReadonlySet<string>): Set<string> {
  const sent = new Map<string, number[][]>();
  const received = new Map<string, number[][]>();
  const add = (map: Map<string, number[][]>, address: string, at: number, usd: number) => {
    if (!among.has(address)) return;
    const list = map.get(address) ?? [];
    list.push([at, usd]);
    map.set(address, list);
  };
  for (const t of world.transfers) {
    if (t.from === t.to) continue;
    const usd = (Number(t.amount) / 10 ** TOKENS[t.token].decimals) * priceOn(t.token, t.at);
    add(sent, t.from, t.at, usd);
    add(received, t.to, t.at, usd);
  }
  const out = new Set<string>();
  for (const map of [sent, received]) {
    for (const [address, list] of map) {
      for (const threshold of THRESHOLDS) {
        const near = list
          .filter(([, usd]) => (usd as number) >= 0.85 * threshold && (usd as number) < threshold)
          .sort((a, b) => (a[0] as number) - (b[0] as number));
        for (let i = 0; i + 2 < near.length; i++) {
          const window = near.filter(
            ([at]) =>
              (at as number) >= (near[i]?.[0] as number) && (at as number) - (near[i]?.[0] as number) <= WEEK,
          );
          const total = window.reduce((s, [, usd]) => s + (usd as number), 0);
          if (window.length >= 3 && total > threshold) out.add(address);
        }
      }
    }
  }
  return out;
}
