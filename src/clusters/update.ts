// Keeps a UTXO chain's address clusters as its transactions arrive (an import's batch; a follower's block): the
// stored clusters of the addresses the transactions spend are seeded into the risk core's Clusterer, the
// transactions added, and what changed written back, on the connection (and in the transaction) that writes the
// same transactions' transfers. An address no transaction merged stays without a row. Adding the same
// transactions again changes nothing. Writers of the same clusters take turns (their rows locked: lockClustersOf).
import type { Kysely } from "kysely";
import { exchangeWallets, lockClustersOf } from "../ledger/index.ts";
import { type ClusterChange, Clusterer, type CoinJoinKind, type UtxoTx } from "../risk/index.ts";
import type { DB } from "../schema.ts";
import { writeClusterChanges } from "./store.ts";

export interface ClusterUpdate {
  /** clusters written: new, grown or changed */
  written: number;
  /** stored clusters merged into another */
  absorbed: number;
}

/** Adds `txs` (no coinbase: a transaction with inputs) to the chain's stored clusters. */
export async function clusterTransactions(
  db: Kysely<DB>,
  chainId: number,
  txs: readonly UtxoTx[],
): Promise<ClusterUpdate> {
  if (txs.length === 0) return { written: 0, absorbed: 0 };
  // Only what the transactions spend can change a cluster: an address they only pay stays in its stored cluster
  // (or alone), and is seeded if a later transaction of the batch spends it.
  const spending = new Set<string>();
  for (const tx of txs) for (const i of tx.inputs) if (i.address !== null) spending.add(i.address);
  const stored = await lockClustersOf(db, chainId, [...spending]);
  // A labelled exchange's inputs merge nothing (src/risk/utxo/clusters.ts): only spenders can be one.
  const services = await exchangeWallets(db, chainId, [...spending]);
  const clusterer = new Clusterer({}, (address) => services.has(address));
  for (const cluster of stored) {
    clusterer.seed({
      ...cluster,
      coinjoinsExcluded: cluster.coinjoinsExcluded.map((e) => ({
        ...e,
        kind: e.kind as CoinJoinKind,
        confidence: e.confidence === "high" ? "high" : "medium",
      })),
    });
  }
  for (const tx of txs) clusterer.add(tx);
  const changes: ClusterChange[] = clusterer.changes();
  await writeClusterChanges(db, chainId, changes);
  return { written: changes.length, absorbed: changes.reduce((n, c) => n + c.absorbed.length, 0) };
}
