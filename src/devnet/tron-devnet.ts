// The Tron devnet: the Tron demo world (src/worlds/tron.ts: USDT traffic, an exchange's deposit sweeps, a
// sanctioned address, a USDT freeze, peel chain, structuring, exchange hopping) played on a second local anvil
// started with a chain id of its own, which the service registers as a Tron-kind chain: its addresses are
// base58check (`T…`) at the API's edges and stored as Tron's JSON-RPC writes them (0x + 20 bytes).
//
// It is anvil, not a Tron node: EVM semantics and Ethereum's JSON-RPC (eth_getBlockReceipts included), 0x
// addresses on the wire, no bandwidth or energy, no TRC-10 tokens, no freezing for resources or voting, and blocks
// final at once (confirmations 0, where Tron mainnet solidifies after 19 blocks). What it imitates is what the
// service reads of Tron: USDT transfers (Transfer logs of a TRC-20 with 6 decimals) and Tether's freezes
// (AddedBlackList(address), the address in the event's data), on a chain whose addresses the API writes in base58.
import { type ChainConfig, TRON_DEVNET_CHAIN_ID } from "../chains/index.ts";
import { planTronDevnet, TRON_USDT_CONTRACT, tronDevnetWorld, type World } from "../worlds/index.ts";
import { type Devnet, type DevnetOptions, type DevnetSpec, GENESIS_TIME, startSpecDevnet } from "./devnet.ts";

// Its chain id, TRON_DEVNET_CHAIN_ID, is the registry's (src/chains/registry.ts says why that number).
export { TRON_DEVNET_CHAIN_ID };

/** The EVM devnet has 8545; the Tron devnet prefers the next port (another when it is taken). */
export const TRON_DEVNET_PORT = 8546;

/**
 * Its entry in the chain registry: Tron-kind, TRX with 6 decimals, followed to the head (confirmations 0, as the
 * EVM devnet: anvil's blocks are final at once), at the running node's URL. Anvil has no Tron HTTP API
 * (tron_http_url null: every plain transfer of value is TRX); its USDT's AddedBlackList events are the issuer's
 * freezes, and its USDT is worth USD 1 as mainnet's is; no explorer (TronGrid knows none of its addresses).
 */
export function tronDevnetChain(rpcUrl = `http://127.0.0.1:${TRON_DEVNET_PORT}`): ChainConfig {
  return {
    id: TRON_DEVNET_CHAIN_ID,
    name: "Vigía Tron devnet",
    kind: "tron",
    currency_symbol: "TRX",
    currency_decimals: 6,
    explorer_url: null,
    blockscout_url: null,
    rpc_url: rpcUrl,
    coin_image: null,
    enabled: true,
    confirmations: 0,
    explorer_api_url: null,
    tron_http_url: null,
    issuer_freeze_contracts: [TRON_USDT_CONTRACT],
    pegged_tokens: [{ address: TRON_USDT_CONTRACT, symbol: "USDT", decimals: 6, usd: 1 }],
  };
}

/** The Tron world and its plan, without a node (tests, summaries). */
export function tronDevnetScenario(seed?: number): { world: World; plan: ReturnType<typeof planTronDevnet> } {
  const { world, freezes } = seed === undefined ? tronDevnetWorld() : tronDevnetWorld(seed);
  return {
    world,
    plan: planTronDevnet(world, freezes, { chainId: TRON_DEVNET_CHAIN_ID, genesisTime: GENESIS_TIME }),
  };
}

export const TRON_DEVNET: DevnetSpec = {
  name: "tron devnet",
  chainId: TRON_DEVNET_CHAIN_ID,
  defaultPort: TRON_DEVNET_PORT,
  scenario: tronDevnetScenario,
};

export function startTronDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  return startSpecDevnet(TRON_DEVNET, options);
}
