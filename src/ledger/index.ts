// The ledger: the one reader of what the service holds of the chains' money (transfers, tokens, address facts,
// labels, prices, exchange rates, blocks, and what the indexer and the explorer cache cover), the one USD value of
// a transfer, and the one answer to "what data does the service hold for this chain and address, from where, up
// to when" (docs/decisions/0024-ledger-and-coverage.md). The rooms that bring data in write these tables in their
// own transactions; every other room reads them through this door.
export { chainsHoldingAddress } from "./address-chains.ts";
export type { AddressFacts } from "./address-facts.ts";
export {
  allCandidates,
  attributedDepositAddresses,
  candidatesOfWritten,
  chainsWithTransfers,
  dropWrittenCandidates,
  exchangeLabelsDigest,
  exchangeWallets,
  knownCandidates,
  type LedgerHistory,
  type LedgerHistoryTransfer,
  pageOfWrittenCandidates,
  readHistories,
  WRITTEN_CANDIDATES,
  type WrittenEnds,
} from "./attribution-reads.ts";
export { type BridgeCrossingRead, type BridgeLegRead, readBridgeCrossings } from "./bridge-crossings.ts";
export { type Checkpoint, knownTokens, readCheckpoint, storedHashes } from "./chain-progress.ts";
export { type HeldTotals, heldTotals, transfersOn } from "./chain-totals.ts";
export {
  type ChainHolding,
  type ChainLag,
  type Coverage,
  type CoverageLimits,
  type CoverageRequest,
  CoverageSchema,
  type CoverageSource,
  chainHolding,
  chainLags,
  coverageOf,
} from "./coverage.ts";
export { countTransfers, type FetchRecord, readFetch } from "./explorer-fetches.ts";
export {
  checkpointBlockOf,
  fxRateOn,
  JOIN_TOKEN_OF_TRANSFER,
  joinTransferOf,
  markedContract,
  priceOfTransferOn,
  strongestCategoryOf,
  tokenHeldComplete,
} from "./fragments.ts";
export { type LabelChange, labelChangesAfter, labelChangesById } from "./label-changes.ts";
export {
  COALESCED_BATCH,
  type Layer,
  type LayerRead,
  type LayerRow,
  layerJsonQuery,
  layerQuery,
  ReadCoalescing,
  readAddressFacts,
  readLayer,
  toFacts,
  UNKNOWN_FACTS,
  type Window,
} from "./layer-read.ts";
export { type EvidenceTransfer, transfersAmong } from "./path-transfers.ts";
export { type Reach, type ReachOptions, reachFrom } from "./reach.ts";
export { readTransactionTransfers, type TransactionTransfer } from "./transaction-read.ts";
export { labelCategoriesOf, type UnitQuery, usdPerUnit } from "./unit-values.ts";
export { NATIVE_DECIMALS, USD_OF_TRANSFER, usdValue } from "./usd.ts";
export {
  lockClustersOf,
  type StoredClusterRead,
  storedClusterOf,
  storedClustersOf,
} from "./utxo-clusters.ts";
export {
  type Activity,
  activityOf,
  depositExchangeOf,
  labelRowsOf,
  topCounterparties,
} from "./wallet-activity.ts";
export {
  dailyRates,
  hasExchangeLabel,
  type LedgerTransfer,
  labelSourcesOf,
  labelsOf,
  latestPrices,
  latestTransfers,
  recentContracts,
  tokensMovedBy,
} from "./wallet-reads.ts";
