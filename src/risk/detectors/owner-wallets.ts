// The owner's wallets (docs/risk-model.md, structuring): fresh wallets one address funds and uses only for its own
// purposes, read as one owner so that a series split across them is judged as the owner's. It generalises the
// own-wallet reading of exchange hopping (own-wallets.ts) from one pass-through hop to a set of wallets:
// - the owner is neither a service, nor a contract, nor a labelled distributor (a faucet, a payroll or airdrop
//   contract funds many unrelated people's wallets);
// - each wallet is unlabelled, not a service, not a contract, and expanded (its whole history in the graph was
//   read: a wallet at the graph's frontier cannot be proven single-purpose, so it is never merged);
// - fresh when the owner first funds it, and funded by the owner alone (dust and zero-value spam aside);
// - single-purpose: it sends at most `maxWalletTransfers` material transfers in all, which carry on at least
//   `minEmptiedFraction` of what it received: a person paid by the owner (an employee, a merchant's customer) has
//   a life of its own, many payments out and a balance kept, and is not merged.
// The owner's fan-out is bounded too: an address that funds more than `maxWallets` such wallets is distributing
// (a payroll, an airdrop by hand), not splitting its own money, and none of them is read as its own.
import { sumPricedUsd } from "../graph/amounts.ts";
import { categoryOf, isKnownDistributor, isService } from "../graph/classify.ts";
import type { GraphIndex } from "../graph/graph-index.ts";
import type { GraphEdge } from "../graph/types.ts";

export interface OwnerWalletRules {
  maxWalletTransfers: number;
  minEmptiedFraction: number;
  maxWallets: number;
  /** transfers below this many USD (priced) are spam, not funding */
  dustUsd: number;
}

export interface OwnerWallets {
  owner: string;
  /** the wallets, sorted */
  wallets: string[];
}

/** Every owner in the graph with two or more wallets read as its own. */
export function ownersWithWallets(index: GraphIndex, rules: OwnerWalletRules): OwnerWallets[] {
  const material = (e: GraphEdge) => e.value > 0n && (e.usd === null || e.usd >= rules.dustUsd);
  const byOwner = new Map<string, string[]>();
  for (const node of index.nodes) {
    if (!node.expanded || node.isContract || node.inferred || node.label !== undefined) continue;
    if (isService(node) || categoryOf(node) !== undefined) continue;
    const inflows = index.inOf(node.address).filter((e) => e.from !== node.address && material(e));
    const first = inflows[0];
    if (!first || inflows.some((e) => e.from !== first.from)) continue;
    if (!index.isFreshAt(node.address, first)) continue;
    const outflows = index.outOf(node.address).filter((e) => e.to !== node.address && material(e));
    if (outflows.length === 0 || outflows.length > rules.maxWalletTransfers) continue;
    const received = sumPricedUsd(inflows);
    const sent = sumPricedUsd(outflows);
    if (received === null || sent === null || sent < rules.minEmptiedFraction * received) continue;
    const owner = index.node(first.from);
    if (owner.isContract || isService(owner) || isKnownDistributor(owner)) continue;
    const list = byOwner.get(first.from);
    if (list) list.push(node.address);
    else byOwner.set(first.from, [node.address]);
  }
  const owners: OwnerWallets[] = [];
  for (const [owner, wallets] of byOwner) {
    if (wallets.length < 2 || wallets.length > rules.maxWallets) continue;
    // Every wallet the owner funded fresh counts towards its fan-out, single-purpose or not.
    const funded = new Set(
      index
        .outOf(owner)
        .filter((e) => material(e) && index.isFreshAt(e.to, e) && e.to !== owner)
        .map((e) => e.to),
    );
    if (funded.size > rules.maxWallets) continue;
    owners.push({ owner, wallets: [...wallets].sort() });
  }
  return owners.sort((a, b) => (a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : 0));
}
