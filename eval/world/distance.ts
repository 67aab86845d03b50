// How far each address of a world is from the risky side, as money moves: the fewest hops along transfers that
// follow each other in time (each no earlier than the one before), either from a sanctioned, illicit or mixer address
// to it (funds it may have received from there) or from it to one (funds it sent that may have gone there), not
// through services (exchanges and their deposit addresses, bridges, the DEX: they pool everyone's funds). That is the
// distance at which the risk engine could trace exposure; the eval reports false alerts on ordinary users by it.
// A merchant that a risky wallet once paid does not bring its other customers nearer: no funds go from it to them.
// Dust (a risky address's transfer worth under DUST_USD.perSource, dusting.ts) brings nobody nearer either: it is
// no one's funds, and the risk engine scores it as unsolicited (docs/risk-model.md).
import type { PlannedTransfer, World } from "../../src/worlds/index.ts";
import { DUST_USD, usdValue } from "./dusting.ts";

const RISKY = new Set(["sanctioned", "illicit", "mixer"]);
const SERVICES = new Set(["exchange", "bridge", "defi"]);

/** Hops from each address to the nearest risky one (either direction), up to `maxHops`; farther ones are absent. */
export function distancesToRisk(world: World, maxHops: number): Map<string, number> {
  const category = new Map<string, string>();
  for (const a of world.accounts.values()) if (a.label) category.set(a.address, a.label.category);
  const isService = (address: string) =>
    world.deposits.has(address) || SERVICES.has(category.get(address) ?? "");
  const risky = [...category].filter(([, c]) => RISKY.has(c)).map(([a]) => a);
  const outOf = new Map<string, PlannedTransfer[]>();
  const inOf = new Map<string, PlannedTransfer[]>();
  const push = (map: Map<string, PlannedTransfer[]>, key: string, t: PlannedTransfer) => {
    const list = map.get(key);
    if (list) list.push(t);
    else map.set(key, [t]);
  };
  for (const t of world.transfers) {
    if (t.from === t.to) continue;
    push(outOf, t.from, t);
    push(inOf, t.to, t);
  }
  const distance = new Map<string, number>(risky.map((a) => [a, 0]));
  for (const forward of [true, false]) {
    // Layer k: the addresses funds can reach in exactly k hops (forward: from the risky side, with the earliest
    // time they can be there; backward: towards it, with the latest time they can leave).
    let layer = new Map<string, number>(risky.map((a) => [a, forward ? -Infinity : Infinity]));
    for (let hop = 1; hop <= maxHops && layer.size > 0; hop++) {
      const next = new Map<string, number>();
      for (const [a, time] of layer) {
        if (hop > 1 && isService(a)) continue;
        for (const t of (forward ? outOf : inOf).get(a) ?? []) {
          if (forward ? t.at < time : t.at > time) continue;
          if (hop === 1 && usdValue(t.token, t.amount, t.at) < DUST_USD.perSource) continue;
          const b = forward ? t.to : t.from;
          const seen = next.get(b);
          if (seen === undefined || (forward ? t.at < seen : t.at > seen)) next.set(b, t.at);
        }
      }
      for (const b of next.keys())
        if (!distance.has(b) || (distance.get(b) as number) > hop) distance.set(b, hop);
      layer = next;
    }
  }
  return distance;
}
