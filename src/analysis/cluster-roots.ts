// Exposure by cluster on UTXO chains (src/risk/scoring/cluster-exposure.ts): before an analysis of a Bitcoin chain's
// addresses expands the graph, each root's stored address cluster (src/clusters) is read in one statement, and a
// few of its other addresses join the expansion as roots, so that their exposure can be lent to the root as its
// owner's. A service-scale cluster (an exchange's wallet, past the cap) is not expanded: its addresses are many
// people's deposits, not one person's coins. Other chains have no clusters and pay nothing for this.
import { storedClustersOf } from "../ledger/index.ts";
import type { RootCluster } from "../risk/index.ts";
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

export async function clusterRootsOf(
  ctx: AnalysisContext,
  chainId: number,
  roots: readonly string[],
): Promise<ClusterRoots> {
  if (ctx.registry.get(chainId)?.kind !== "bitcoin") return NONE;
  const stored = await storedClustersOf(ctx.db, chainId, roots);
  const own = new Set(roots);
  const added = new Set<string>();
  const clusters = new Map<string, RootCluster>();
  for (const root of roots) {
    const cluster = stored.get(root);
    if (!cluster || cluster.serviceScale || cluster.size < 2) continue;
    const members = cluster.addresses.filter((a) => a !== root).slice(0, MEMBERS_PER_ROOT);
    const expanded = members.filter((a) => own.has(a) || added.has(a) || added.size < MAX_ADDED_ROOTS);
    for (const member of expanded) if (!own.has(member)) added.add(member);
    if (expanded.length > 0)
      clusters.set(root, {
        id: cluster.id,
        size: cluster.size,
        members: expanded,
        joinedBy: cluster.joinedBy,
      });
  }
  return { added: [...added], clusters };
}
