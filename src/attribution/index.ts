// Attribution: what the service infers about addresses from their transfers, kept current where data enters the
// store, so that analyses read it instead of recomputing it. Today: exchange deposit addresses
// (deposit-heuristic.ts; docs/decisions/0010).
//
//   attributeTransfers(db, chainId, written)  re-judges the addresses the written transfers could change
//   attributeWritten(db, chainId, ends)        the same once after a bulk write, from the ends it left in a table
//   attributeAllChains(db)                     re-judges every candidate (after exchange labels changed)
//   afterExchangeLabelChange(db, change)       runs a label write, then attributeAllChains if it changed any
//   judgeDepositAddress(history, params?)      the heuristic alone (pure)
//   (which addresses are deposit addresses is read from the ledger: attributedDepositAddresses)

export type { WrittenEnds } from "../ledger/index.ts";
export {
  type AddressHistory,
  DEFAULT_DEPOSIT_PARAMS,
  type DepositAttribution,
  type DepositParams,
  type DepositVerdict,
  type HistoryTransfer,
  judgeDepositAddress,
} from "./deposit-heuristic.ts";
export {
  type AttributionReport,
  afterExchangeLabelChange,
  attributeAllChains,
  attributeTransfers,
  attributeWritten,
} from "./refresh.ts";
