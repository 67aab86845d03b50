// EVM JSON-RPC (and Bitcoin Core's, bitcoin.ts): a client with batching, retries and typed errors, and the shapes and hex helpers of the calls
// the indexer and the devnet make.
export {
  bitcoinRpcClient,
  CORE_CHAIN_NAMES,
  type CoreBlock,
  type CoreChainInfo,
  type CoreInput,
  type CoreOutput,
  type CoreScriptPubKey,
  type CoreTransaction,
  satoshis,
} from "./bitcoin.ts";
export {
  type Hex,
  hexToBigInt,
  hexToNumber,
  type RpcBlock,
  type RpcLog,
  type RpcReceipt,
  type RpcTransaction,
  toHex,
} from "./evm.ts";
export {
  JsonRpcClient,
  type JsonRpcClientOptions,
  type RpcCall,
  RpcCallError,
  type RpcErrorObject,
  type RpcOutcome,
  RpcTransportError,
} from "./json-rpc.ts";
