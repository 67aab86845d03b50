// The risk core's UTXO part (Bitcoin): CoinJoin fingerprints and address clusters that do not collapse across
// them. Pure, as the rest of the risk core.
export {
  type ClusterChange,
  Clusterer,
  type ClusterParams,
  type ClusterStep,
  type ClusterView,
  DEFAULT_CLUSTER_PARAMS,
  type ExcludedCoinJoin,
  type StoredCluster,
} from "./clusters.ts";
export { detectCoinJoin, WABISABI_DENOMINATIONS } from "./coinjoin.ts";
export type { CoinJoinKind, CoinJoinVerdict, ScriptKind, UtxoPart, UtxoTx } from "./types.ts";
