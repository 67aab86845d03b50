// Address clusters of UTXO chains (Bitcoin): kept as transactions arrive, from the risk core's CoinJoin-gated
// common-input heuristic (src/risk/utxo), and answered by GET /clusters/{address}. The stored clusters are the
// ledger's to read (src/ledger/utxo-clusters.ts); this room writes them.
export { type ClusterUpdate, clusterTransactions } from "./update.ts";
export { wireClusters } from "./wiring.ts";
