// Address clusters on a UTXO chain: the common-input heuristic (the addresses a transaction spends from are taken
// as one owner's, Meiklejohn et al. 2013), gated so that it does not collapse unrelated people into one:
// - a CoinJoin (coinjoin.ts: Wasabi 1.x, WabiSabi, Whirlpool, JoinMarket) spends many owners' coins: its inputs are
//   not merged, and the round is recorded against each participant's cluster as excluded (a Whirlpool tx0 is one
//   wallet's and merges as any spend);
// - a transaction shaped like Samourai's Stonewall may be one wallet or two (Stonewall X2): vetoed, not merged;
// - a transaction that spends from a labelled service (an exchange's hot wallet) is not merged: a service's
//   inputs join its customers' deposit addresses, and through them everyone;
// - a merge that would make a cluster of more than `serviceScale` addresses is refused: the largest cluster it would
//   have joined is a service nobody labelled, marked "service-scale", and merges into it stop.
// Change heuristics are not used to merge. Incremental: transactions are added as blocks or imports bring them, in
// chain order; the same transactions in the same order always give the same clusters and ids. Adding a
// transaction twice changes nothing (lists hold each transaction once).
//
// A store keeps the clusters between batches: it seeds a Clusterer with the stored clusters of the addresses a
// batch names (`seed`, earliest stored first), adds the batch, and writes back `changes()`: each cluster the batch
// touched, which stored clusters it absorbed and which addresses are new to it. Pure: no I/O.
import { detectCoinJoin } from "./coinjoin.ts";
import type { CoinJoinVerdict, UtxoTx } from "./types.ts";

export interface ClusterParams {
  /** addresses at which a cluster is service-scale: marked, and merged no further */
  serviceScale: number;
  /** joining transactions, excluded CoinJoins and first addresses a cluster keeps to show */
  keep: number;
}

export const DEFAULT_CLUSTER_PARAMS: ClusterParams = { serviceScale: 10_000, keep: 20 };

/** What adding a transaction did to the clusters, and why. */
export type ClusterStep =
  | { merged: true; reason: "common-input" }
  | {
      merged: false;
      reason: "single-address" | "coinjoin" | "stonewall" | "service-input" | "service-scale";
      coinjoin?: CoinJoinVerdict;
    };

export interface ExcludedCoinJoin extends CoinJoinVerdict {
  txid: string;
}

export interface ClusterView {
  /** `c:` and the cluster's first address seen: stable as the cluster grows */
  id: string;
  size: number;
  /** its first addresses, in the order they were seen (at most `keep`) */
  addresses: string[];
  /** the transactions whose common inputs joined its addresses (the first `keep`) */
  joinedBy: string[];
  /** CoinJoins its addresses took part in, whose inputs were not merged (the first `keep`) */
  coinjoinsExcluded: ExcludedCoinJoin[];
  /** it reached the service-scale size: no further merges into it */
  serviceScale: boolean;
  /** merges refused because of its size (counted, not listed) */
  refusedMerges: number;
}

/** A cluster as a store holds it, seeded before a batch with those of its addresses the batch names. */
export interface StoredCluster {
  /** the store's key for it; the earliest stored cluster must be seeded first */
  key: string;
  id: string;
  size: number;
  addresses: readonly string[];
  joinedBy: readonly string[];
  coinjoinsExcluded: readonly ExcludedCoinJoin[];
  serviceScale: boolean;
  /** its addresses that the transactions about to be added name */
  members: readonly string[];
}

/** A cluster the added transactions touched, for the store to write back. */
export interface ClusterChange extends Omit<ClusterView, "refusedMerges"> {
  /** the stored cluster it continues (the earliest seeded among those it holds), or undefined when it is new */
  key: string | undefined;
  /** other stored clusters merged into it: their addresses are now its */
  absorbed: string[];
  /** its lists (addresses, joinedBy, coinjoinsExcluded) differ from the stored ones (a new cluster's always do) */
  listsChanged: boolean;
  /** addresses in it that were in no stored cluster */
  newMembers: string[];
}

interface Node {
  parent: number;
  /** set on roots */
  size: number;
  first: number;
  id: string;
  /** the stored clusters it holds, earliest first */
  keys: string[];
  changed: boolean;
  listsChanged: boolean;
  addresses: string[];
  joinedBy: string[];
  excluded: ExcludedCoinJoin[];
  serviceScale: boolean;
  refused: number;
}

export class Clusterer {
  readonly #params: ClusterParams;
  readonly #isService: (address: string) => boolean;
  readonly #detect: typeof detectCoinJoin;
  readonly #index = new Map<string, number>();
  readonly #nodes: Node[] = [];
  readonly #seeded = new Set<string>();
  /** stored key -> the order it was seeded in */
  readonly #keyOrder = new Map<string, number>();

  /** `detect`: the CoinJoin fingerprints (coinjoin.ts); another rule only to compare with (the eval's baseline). */
  constructor(
    params: Partial<ClusterParams> = {},
    isService: (address: string) => boolean = () => false,
    detect: typeof detectCoinJoin = detectCoinJoin,
  ) {
    this.#params = { ...DEFAULT_CLUSTER_PARAMS, ...params };
    this.#isService = isService;
    this.#detect = detect;
  }

  /**
   * The transaction's fingerprint: the one its reader already read, unless a service's input would change it
   * (Wasabi 1.x and JoinMarket are not read of a service's spend), or this Clusterer compares another rule.
   */
  #coinJoinOf(tx: UtxoTx): CoinJoinVerdict | undefined {
    if (tx.fingerprint === undefined || this.#detect !== detectCoinJoin)
      return this.#detect(tx, this.#isService);
    const read = tx.fingerprint ?? undefined;
    // A service's input only takes Wasabi 1.x and JoinMarket away (detectCoinJoin's order is otherwise the same).
    const serviceMatters = read?.kind === "wasabi-1" || read?.kind === "joinmarket";
    if (serviceMatters && tx.inputs.some((i) => i.address !== null && this.#isService(i.address)))
      return this.#detect(tx, this.#isService);
    return read;
  }

  /** Adds a transaction's evidence: merges its input addresses unless a gate says not to. */
  add(tx: UtxoTx): ClusterStep {
    const addresses = [...new Set(tx.inputs.map((i) => i.address).filter((a): a is string => a !== null))];
    for (const output of tx.outputs) if (output.address !== null) this.#id(output.address);
    const ids = addresses.map((a) => this.#id(a));
    const coinjoin = this.#coinJoinOf(tx);
    // A tx0 is one wallet preparing its coins for Whirlpool: its inputs are that wallet's.
    if (coinjoin && coinjoin.kind !== "stonewall" && coinjoin.kind !== "whirlpool-tx0") {
      const roots = new Set(ids.map((i) => this.#root(i)));
      for (const r of roots) {
        const node = this.#nodes[r] as Node;
        if (node.excluded.some((e) => e.txid === tx.txid)) continue;
        node.changed = true;
        if (this.#keep(node.excluded, { txid: tx.txid, ...coinjoin })) node.listsChanged = true;
      }
      return { merged: false, reason: "coinjoin", coinjoin };
    }
    if (addresses.length < 2) return { merged: false, reason: "single-address" };
    if (coinjoin?.kind === "stonewall") return { merged: false, reason: "stonewall", coinjoin };
    if (addresses.some((a) => this.#isService(a))) return { merged: false, reason: "service-input" };
    const roots = [...new Set(ids.map((i) => this.#root(i)))];
    if (roots.length === 1) return { merged: true, reason: "common-input" };
    const total = roots.reduce((n, r) => n + (this.#nodes[r] as Node).size, 0);
    const scale = this.#params.serviceScale;
    if (roots.some((r) => (this.#nodes[r] as Node).serviceScale) || total > scale) {
      // The first time a merge would pass the size, the largest cluster is the service: marked.
      const largest = roots.reduce((a, b) =>
        (this.#nodes[b] as Node).size > (this.#nodes[a] as Node).size ? b : a,
      );
      const node = this.#nodes[largest] as Node;
      node.changed ||= !node.serviceScale;
      node.serviceScale = true;
      node.refused++;
      return { merged: false, reason: "service-scale" };
    }
    let into = roots[0] as number;
    for (const r of roots.slice(1)) into = this.#union(into, r);
    const merged = this.#nodes[into] as Node;
    if (!merged.joinedBy.includes(tx.txid) && this.#keep(merged.joinedBy, tx.txid))
      merged.listsChanged = true;
    return { merged: true, reason: "common-input" };
  }

  /** The cluster of an address, or undefined when no transaction added named it. */
  clusterOf(address: string): ClusterView | undefined {
    const i = this.#index.get(address);
    if (i === undefined) return undefined;
    const node = this.#nodes[this.#root(i)] as Node;
    return { ...this.#view(node), refusedMerges: node.refused };
  }

  /** A root's cluster as callers see it: copies, never the root's own lists. */
  #view(node: Node): Omit<ClusterView, "refusedMerges"> {
    return {
      id: node.id,
      size: node.size,
      addresses: [...node.addresses],
      joinedBy: [...node.joinedBy],
      coinjoinsExcluded: node.excluded.map((e) => ({ ...e })),
      serviceScale: node.serviceScale,
    };
  }

  /** Whether two addresses are in one cluster. */
  together(a: string, b: string): boolean {
    const i = this.#index.get(a);
    const j = this.#index.get(b);
    return i !== undefined && j !== undefined && this.#root(i) === this.#root(j);
  }

  /** Every cluster of more than one address, by id (for measuring). */
  clusters(): Map<string, string[]> {
    const byRoot = new Map<number, string[]>();
    for (const [address, i] of this.#index) {
      const r = this.#root(i);
      const list = byRoot.get(r);
      if (list) list.push(address);
      else byRoot.set(r, [address]);
    }
    const out = new Map<string, string[]>();
    for (const [r, list] of byRoot) {
      if (list.length > 1) out.set((this.#nodes[r] as Node).id, list);
    }
    return out;
  }

  /**
   * Seeds a stored cluster, before any transaction is added: its members found in the batch are one cluster again,
   * with its size, id and lists. Seeded in the order the store made them, the earliest keeps its id in a merge.
   */
  seed(cluster: StoredCluster): void {
    if (cluster.members.length === 0) return;
    const i = this.#nodes.length;
    this.#nodes.push({
      parent: i,
      size: cluster.size,
      first: i,
      id: cluster.id,
      keys: [cluster.key],
      changed: false,
      listsChanged: false,
      addresses: cluster.addresses.slice(0, this.#params.keep),
      joinedBy: cluster.joinedBy.slice(0, this.#params.keep),
      excluded: cluster.coinjoinsExcluded.slice(0, this.#params.keep).map((e) => ({ ...e })),
      serviceScale: cluster.serviceScale,
      refused: 0,
    });
    this.#keyOrder.set(cluster.key, i);
    for (const address of cluster.members) {
      this.#index.set(address, i);
      this.#seeded.add(address);
    }
  }

  /**
   * The clusters the added transactions touched and that a store keeps: every one seeded from it, and every new one
   * of more than one address or with an excluded CoinJoin (an address alone in its cluster needs no row).
   */
  changes(): ClusterChange[] {
    const members = new Map<number, string[]>();
    for (const [address, i] of this.#index) {
      if (this.#seeded.has(address)) continue;
      const r = this.#root(i);
      const list = members.get(r);
      if (list) list.push(address);
      else members.set(r, [address]);
    }
    const out: ClusterChange[] = [];
    for (let r = 0; r < this.#nodes.length; r++) {
      const node = this.#nodes[r] as Node;
      if (node.parent !== r) continue;
      const fresh = members.get(r) ?? [];
      const kept = node.keys.length > 0 || node.size > 1 || node.excluded.length > 0;
      if (!kept || (node.keys.length === 1 && !node.changed && fresh.length === 0)) continue;
      out.push({
        key: node.keys[0],
        absorbed: node.keys.slice(1),
        listsChanged: node.listsChanged,
        newMembers: fresh,
        ...this.#view(node),
      });
    }
    return out;
  }

  #id(address: string): number {
    const known = this.#index.get(address);
    if (known !== undefined) return known;
    const i = this.#nodes.length;
    this.#index.set(address, i);
    this.#nodes.push({
      parent: i,
      size: 1,
      first: i,
      id: `c:${address}`,
      keys: [],
      changed: true,
      listsChanged: true,
      addresses: [address],
      joinedBy: [],
      excluded: [],
      serviceScale: false,
      refused: 0,
    });
    return i;
  }

  #root(i: number): number {
    let r = i;
    while ((this.#nodes[r] as Node).parent !== r) r = (this.#nodes[r] as Node).parent;
    // Path compression: every node on the way points at the root.
    let n = i;
    while (n !== r) {
      const node = this.#nodes[n] as Node;
      n = node.parent;
      node.parent = r;
    }
    return r;
  }

  /** Union by size; the merged cluster keeps the earliest first address, and the first of each list. */
  #union(a: number, b: number): number {
    const [big, small] = (this.#nodes[a] as Node).size >= (this.#nodes[b] as Node).size ? [a, b] : [b, a];
    const to = this.#nodes[big] as Node;
    const from = this.#nodes[small] as Node;
    from.parent = big;
    to.size += from.size;
    const fromEarlier = from.first < to.first;
    if (fromEarlier) {
      to.first = from.first;
      to.id = from.id;
    }
    // Earliest stored first: the earliest seeded holds the lowest index, and keeps its row.
    to.keys = [...to.keys, ...from.keys].sort(
      (x, y) => (this.#keyOrder.get(x) ?? 0) - (this.#keyOrder.get(y) ?? 0),
    );
    to.changed = true;
    // The earlier cluster's lists first: a cluster's lists are in the order seen, and its id is its first address.
    const [first, second] = fromEarlier ? [from, to] : [to, from];
    const addresses = [...first.addresses, ...second.addresses].slice(0, this.#params.keep);
    const joinedBy = [...new Set([...first.joinedBy, ...second.joinedBy])].slice(0, this.#params.keep);
    const excluded = [...first.excluded];
    for (const e of second.excluded) if (!excluded.some((x) => x.txid === e.txid)) excluded.push(e);
    excluded.length = Math.min(excluded.length, this.#params.keep);
    const same = (x: readonly unknown[], y: readonly unknown[]) =>
      x.length === y.length && x.every((v, i) => v === y[i]);
    to.listsChanged ||=
      from.listsChanged ||
      !same(addresses, to.addresses) ||
      !same(joinedBy, to.joinedBy) ||
      !same(
        excluded.map((e) => e.txid),
        to.excluded.map((e) => e.txid),
      );
    to.addresses = addresses;
    to.joinedBy = joinedBy;
    to.excluded = excluded;
    to.refused += from.refused;
    // Only roots hold lists: the merged one's are no longer read.
    from.addresses = [];
    from.joinedBy = [];
    from.excluded = [];
    from.keys = [];
    return big;
  }

  /** Appends while the list holds fewer than `keep`; whether it did. */
  #keep<T>(list: T[], item: T): boolean {
    if (list.length >= this.#params.keep) return false;
    list.push(item);
    return true;
  }
}
