// Bitcoin transactions as the service stores them: the value-proportional projection into transfers, with the
// CoinJoin fingerprint and what the address clusters read, for every source (imports, Esplora, a node), and a
// Bitcoin Core block as the follower reads it.

export { type CoreBlockRead, readCoreBlock } from "./core-block.ts";
export { p2pkAddress } from "./p2pk.ts";
export {
  type BtcPart,
  type BtcTransaction,
  MAX_PAIRS,
  type ProjectedTransfer,
  projectTransaction,
} from "./project.ts";
export {
  type BitcoinTxProjection,
  type BtcPartRead,
  type BtcTransactionRead,
  bitcoinPart,
  projectBitcoinTransaction,
} from "./transaction.ts";
