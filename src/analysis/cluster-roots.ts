// Exposure by cluster on UTXO chains (src/risk/scoring/cluster-exposure.ts): before an analysis of a Bitcoin chain's
// addresses expands the graph, each root's stored address cluster (src/clusters) is read in one statement, and a
// few of its other addresses join the expansion as roots, so that their exposure can be lent to the root as its
// owner's. Not lent:
// - a service-scale cluster (past the cap: an exchange's wallet holds many people's deposits);
// - an exchange's cluster: when the root or one of the addresses read is an inferred exchange deposit address
//   (src/attribution). An exchange's sweeps spend its customers' deposit addresses together, so they are rightly one
//   owner's, the exchange's; but a customer's deposit address must not carry another customer's exposure.
// Other chains have no clusters and pay nothing for this: the registry says they are not Bitcoin.
import { attributedDepositAddresses, storedClustersOf } from "../ledger/index.ts";
import type { RootCluster, TxGraph } from "../risk/index.ts";
import type { AnalysisContext } from "./context.ts";

/** Other addresses of a root's cluster expanded beside it, at most. */
const MEMBERS_PER_ROOT = 8;
/** Added roots of one analysis, at most (a scan of 50 addresses shares the expansion's budget with them). */
const MAX_ADDED_ROOTS = 100;

export interface ClusterRoots {
  /** the roots to expand beside the analysis's own */
  added: string[];
  /** per analysed root, its cluster as the risk core reads it */
  clusters: Map<string, RootCluster>;
}

const NONE: ClusterRoots = { added: [], clusters: new Map() };

export const isBitcoinChain = (ctx: AnalysisContext, chainId: number) =>
  ctx.registry.get(chainId)?.kind === "bitcoin";

export async function clusterRootsOf(
  ctx: AnalysisContext,
  chainId: number,
  roots: readonly string[],
): Promise<ClusterRoots> {
  if (!isBitcoinChain(ctx, chainId)) return NONE;
  const stored = await storedClustersOf(ctx.db, chainId, roots);
  if (stored.size === 0) return NONE;
  const read = new Set(roots);
  for (const cluster of stored.values()) for (const a of cluster.addresses) read.add(a);
  const deposits = await attributedDepositAddresses(ctx.db, chainId, [...read]);
  const own = new Set(roots);
  const added = new Set<string>();
  const clusters = new Map<string, RootCluster>();
  for (const root of roots) {
    const cluster = stored.get(root);
    if (!cluster || cluster.serviceScale || cluster.size < 2) continue;
    if (deposits.has(root) || cluster.addresses.some((a) => deposits.has(a))) continue;
    const members: string[] = [];
    for (const member of cluster.addresses) {
      if (member === root || members.length === MEMBERS_PER_ROOT) continue;
      if (!own.has(member) && !added.has(member)) {
        if (added.size === MAX_ADDED_ROOTS) continue;
        added.add(member);
      }
      members.push(member);
    }
    if (members.length > 0)
      clusters.set(root, { id: cluster.id, size: cluster.size, members, joinedBy: cluster.joinedBy });
  }
  return { added: [...added], clusters };
}

/**
 * Whether an analysis should read the clusters again after its expansion: on a Bitcoin chain whose histories come
 * from an explorer (Esplora), expanding fetched and stored the roots' histories, and with them their clusters, which
 * the read before it could not see.
 */
function clustersMayHaveGrown(ctx: AnalysisContext, chainId: number): boolean {
  const chain = ctx.registry.get(chainId);
  return chain?.kind === "bitcoin" && typeof chain.explorer_api_url === "string";
}

/** The clusters read after the expansion add an address the first read did not. */
function grewBeyond(before: ClusterRoots, after: ClusterRoots): boolean {
  const known = new Set(before.added);
  return (
    after.added.some((a) => !known.has(a)) ||
    [...after.clusters.keys()].some((root) => !before.clusters.has(root))
  );
}

/**
 * Expands the roots with their clusters' addresses beside them (read again after the expansion where it may have
 * fetched new histories), then gives the graph back with only the caller's roots as roots (the added addresses were
 * expanded only to be read) and the clusters the risk core lends exposure through.
 */
export async function expandWithClusters<E extends { graph: TxGraph }>(
  ctx: AnalysisContext,
  chainId: number,
  roots: readonly string[],
  expand: (roots: string[]) => Promise<E>,
): Promise<{ expansion: E; cluster: ClusterRoots }> {
  let cluster = await clusterRootsOf(ctx, chainId, roots);
  let expansion = await expand([...roots, ...cluster.added]);
  if (clustersMayHaveGrown(ctx, chainId)) {
    // The expansion fetched the roots' histories from the explorer, and with them clusters the first read missed.
    const after = await clusterRootsOf(ctx, chainId, roots);
    if (grewBeyond(cluster, after)) {
      cluster = after;
      expansion = await expand([...roots, ...after.added]);
    }
  }
  if (cluster.added.length > 0) {
    const requested = new Set(roots);
    expansion.graph.roots = expansion.graph.roots.filter((r) => requested.has(r));
  }
  if (cluster.clusters.size > 0) expansion.graph.clusters = cluster.clusters;
  return { expansion, cluster };
}
