// How a world's tokens are written on a chain of one kind. A world (src/worlds/world.ts) moves ETH, USDV (a USD
// stablecoin) and TKN; rendered onto an EVM chain they stay what they are. Rendered onto a Tron-kind chain (the Tron
// devnet, the eval's Tron chain) the stablecoin is USDT (6 decimals, USD 1, as Tether's TRC-20) and the native coin
// is TRX (6 decimals): a world's ETH amount becomes the TRX worth the same USD that day, at a TRX price that is
// ETH's divided by 10,000 (USD 0.25 around ETH's USD 2,500, TRX's level in 2024-2025). That ratio is exact in
// integers (wei / 10^8 = sun), so every amount keeps its USD value and its ratio to the others: the same world,
// the same cases, whatever the chain.
import { priceOn, TOKENS, type TokenSymbol } from "../world.ts";
import { TOKEN_ADDRESSES } from "./graph.ts";

export interface ChainToken {
  symbol: string;
  name: string;
  decimals: number;
  /** The contract (0x + 40 hex, the stored form) or "native", on the chains where the world is written as files. */
  address: string;
}

export interface ChainTokens {
  kind: "evm" | "tron";
  /** How each of the world's tokens appears on the chain. */
  tokens: Record<TokenSymbol, ChainToken>;
  /** The chain's units of a world's amount of `token`. */
  units(token: TokenSymbol, amount: bigint): bigint;
  /** The USD price of the chain's token on the day of `at`. */
  price(token: TokenSymbol, at: number): number;
}

/** EVM chains: the world as it is. */
export const EVM_TOKENS: ChainTokens = {
  kind: "evm",
  tokens: {
    ETH: { ...TOKENS.ETH, address: TOKEN_ADDRESSES.ETH },
    USDV: { ...TOKENS.USDV, address: TOKEN_ADDRESSES.USDV },
    TKN: { ...TOKENS.TKN, address: TOKEN_ADDRESSES.TKN },
  },
  units: (_token, amount) => amount,
  price: priceOn,
};

/** Tron mainnet's USDT contract (TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t) in the stored form. */
export const TRON_USDT_ADDRESS = "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c";

/** wei per sun at equal USD value: 10^18 / 10^6 wei per TRX-unit, times the 10,000 price ratio. */
const WEI_PER_SUN = 10n ** 8n;
const TRX_PER_ETH_PRICE = 10_000;

/**
 * Tron-kind chains: TRX for ETH, USDT for the world's stablecoin, TKN a TRC-20 like any other. The eval writes
 * USDT at mainnet's contract address (a chain of its own, so no mainnet label applies); the devnet deploys its own
 * USDT and names its address in its plan.
 */
export const TRON_TOKENS: ChainTokens = {
  kind: "tron",
  tokens: {
    ETH: { symbol: "TRX", name: "Tronix", decimals: 6, address: "native" },
    USDV: { symbol: "USDT", name: "Tether USD", decimals: 6, address: TRON_USDT_ADDRESS },
    TKN: { ...TOKENS.TKN, address: TOKEN_ADDRESSES.TKN },
  },
  units: (token, amount) => (token === "ETH" ? amount / WEI_PER_SUN : amount),
  price: (token, at) =>
    token === "ETH" ? Math.round((priceOn("ETH", at) / TRX_PER_ETH_PRICE) * 1e6) / 1e6 : priceOn(token, at),
};

export const chainTokensOfKind = (kind: "evm" | "tron"): ChainTokens =>
  kind === "tron" ? TRON_TOKENS : EVM_TOKENS;
