// The chain data store's writers (blocks, transfers, tokens, contract marks, bridge legs, CoinJoin nodes' labels): the indexer, the
// ethereum-etl import, the explorer adapter and the scenario worlds all write through these.
export { insertBridgeLegs } from "./bridge-legs.ts";
export { labelCoinJoinNodes } from "./coinjoin-labels.ts";
export {
  type BlockRow,
  insertBlocks,
  insertTransfers,
  markContracts,
  type TokenRow,
  type TransferRow,
  upsertTokens,
} from "./transfers.ts";
