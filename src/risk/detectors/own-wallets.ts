// The "own wallets" of exchange hopping (docs/risk-model.md, exchange_hopping): an address the funds pass through
// between two exchanges that the transfers in the graph show to be the user's own pass-through wallet, not
// somebody with a life of their own. Decided from the graph alone:
// - unlabelled (no label, category or inferred type), not a service, not a contract;
// - expanded: its own transfers were read. An address at the graph's frontier (or left unexpanded by the degree
//   limit, a time budget) may have sources and history the graph does not hold, so it cannot be proven fresh or
//   single-source and is never an own wallet: a hop through it is missed rather than guessed;
// - fresh when the funds arrive: no transfer of it before (its store-wide first-seen time when the node has one;
//   otherwise its first transfer in the graph, which proves nothing when the graph was cut to a time window);
// - single-source: every transfer it ever received, as far as the graph shows, came from the previous wallet
//   (zero-value and dust transfers, the address-poisoning spam every active address gets, are not sources);
// - forwards nearly all it had received, quickly: the transfer on to the next wallet or exchange carries at least
//   `ownForwardFraction` of everything received before it, within `ownMaxHoldHours` of the funds' arrival.
import { ratioBounds } from "../graph/amounts.ts";
import { categoryOf, isService } from "../graph/classify.ts";
import { firstAtOrAfter, type GraphIndex } from "../graph/graph-index.ts";
import type { GraphEdge } from "../graph/types.ts";

export interface OwnWalletRules {
  ownForwardFraction: number;
  ownMaxHoldHours: number;
  ownDustUsd: number;
}

export class OwnWallets {
  readonly #index: GraphIndex;
  readonly #rules: OwnWalletRules;
  /** per address, the one address it received material transfers from; null when none or several */
  readonly #source = new Map<string, string | null>();

  constructor(index: GraphIndex, rules: OwnWalletRules) {
    this.#index = index;
    this.#rules = rules;
  }

  /** Whether the receiver of `into` can be an own wallet of its sender (everything but the forwarding). */
  canReceive(into: GraphEdge): boolean {
    const node = this.#index.node(into.to);
    if (!node.expanded || node.isContract || node.inferred || node.label !== undefined) return false;
    if (isService(node) || categoryOf(node) !== undefined) return false;
    if (node.firstSeenAt === undefined && this.#index.graph.window?.from !== undefined) return false;
    if (!this.#index.isFreshAt(into.to, into) || this.#soleSource(into.to) !== into.from) return false;
    // It sends something on within the hold time (a cheap test first: most fresh payees keep what they get).
    const out = this.#index.outOf(into.to);
    const next = out[firstAtOrAfter(out, into.at)];
    return next !== undefined && next.at - into.at <= this.#rules.ownMaxHoldHours * 3_600;
  }

  /** Whether `out`, sent by the receiver of `into`, forwards nearly all it had received, within the hold time. */
  forwards(into: GraphEdge, out: GraphEdge): boolean {
    if (out.at < into.at || out.at - into.at > this.#rules.ownMaxHoldHours * 3_600) return false;
    const received = this.#index.inOf(into.to).filter((e) => e.at <= out.at && this.#material(e));
    const r = ratioBounds(combined(received.length > 0 ? received : [into]), out);
    return r !== null && r.hi >= this.#rules.ownForwardFraction;
  }

  #soleSource(address: string): string | null {
    let source = this.#source.get(address);
    if (source !== undefined) return source;
    source = null;
    for (const e of this.#index.inOf(address)) {
      if (e.from === address || !this.#material(e)) continue;
      if (source === null) source = e.from;
      else if (source !== e.from) {
        source = null;
        break;
      }
    }
    this.#source.set(address, source);
    return source;
  }

  /** Zero-value transfers and priced ones under the dust limit are spam, not a source of funds. */
  #material(e: GraphEdge): boolean {
    return e.value > 0n && (e.usd === null || e.usd >= this.#rules.ownDustUsd);
  }
}

/** Several transfers as one: summed in token units when they move one token, in USD when all are priced. */
function combined(edges: readonly GraphEdge[]): GraphEdge {
  const first = edges[0] as GraphEdge;
  if (edges.length === 1) return first;
  const oneToken = edges.every((e) => e.token === first.token);
  let value = 0n;
  let usd: number | null = 0;
  for (const e of edges) {
    value += e.value;
    usd = usd === null || e.usd === null ? null : usd + e.usd;
  }
  return { ...first, token: oneToken ? first.token : "mixed", value: oneToken ? value : 0n, usd };
}
