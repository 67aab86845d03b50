// The chains the service knows: a built-in list, or the JSON file named by VIGIA_CHAINS, which replaces it.
import fs from "node:fs";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

export const ChainConfigSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: "EVM chain id" }),
    name: Type.String({ minLength: 1 }),
    currency_symbol: Type.String({ minLength: 1 }),
    currency_decimals: Type.Integer({ minimum: 0, maximum: 36, default: 18 }),
    explorer_url: Type.Union([Type.String(), Type.Null()], { default: null }),
    /** Base URL of a Blockscout instance (without /api/v2), the source of network stats and market data. */
    blockscout_url: Type.Union([Type.String(), Type.Null()], { default: null }),
    /** JSON-RPC endpoint for the indexer; never exposed over the API (it often carries a provider key). */
    rpc_url: Type.Union([Type.String(), Type.Null()], { default: null }),
    coin_image: Type.Union([Type.String(), Type.Null()], { default: null }),
    enabled: Type.Boolean({ default: true }),
  },
  { additionalProperties: false },
);
export type ChainConfig = Static<typeof ChainConfigSchema>;

export const DEVNET_CHAIN_ID = 31337;

export const BUILT_IN_CHAINS: ChainConfig[] = [
  chain(1, "Ethereum", "ETH", "https://etherscan.io", "https://eth.blockscout.com"),
  chain(137, "Polygon PoS", "POL", "https://polygonscan.com", "https://polygon.blockscout.com"),
  chain(56, "BNB Smart Chain", "BNB", "https://bscscan.com", null),
  chain(42161, "Arbitrum One", "ETH", "https://arbiscan.io", "https://arbitrum.blockscout.com"),
  chain(8453, "Base", "ETH", "https://basescan.org", "https://base.blockscout.com"),
  { ...chain(DEVNET_CHAIN_ID, "Vigía devnet", "ETH", null, null), rpc_url: "http://127.0.0.1:8545" },
];

function chain(
  id: number,
  name: string,
  currency: string,
  explorer: string | null,
  blockscout: string | null,
): ChainConfig {
  return {
    id,
    name,
    currency_symbol: currency,
    currency_decimals: 18,
    explorer_url: explorer,
    blockscout_url: blockscout,
    rpc_url: null,
    coin_image: null,
    enabled: true,
  };
}

export class ChainRegistry {
  readonly #byId: Map<number, ChainConfig>;

  constructor(chains: ChainConfig[]) {
    this.#byId = new Map(chains.map((c) => [c.id, c]));
  }

  /** Enabled chains, ordered by id. */
  enabled(): ChainConfig[] {
    return [...this.#byId.values()].filter((c) => c.enabled).sort((a, b) => a.id - b.id);
  }

  /** An enabled chain, or undefined (unknown and disabled chains look the same to clients). */
  get(id: number): ChainConfig | undefined {
    const found = this.#byId.get(id);
    return found?.enabled ? found : undefined;
  }
}

/** Reads and validates a chains file; its list replaces the built-in one. */
export function loadChainsFile(file: string): ChainConfig[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`VIGIA_CHAINS: cannot read ${file}: ${(error as Error).message}`);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { chains?: unknown })?.chains;
  if (!Array.isArray(list)) throw new Error(`VIGIA_CHAINS: ${file} must hold an array of chains`);
  return list.map((entry, index) => {
    const withDefaults = Value.Default(ChainConfigSchema, structuredClone(entry));
    const firstError = [...Value.Errors(ChainConfigSchema, withDefaults)][0];
    if (firstError) {
      throw new Error(
        `VIGIA_CHAINS: ${file}: chain #${index + 1}: ${firstError.path || "/"} ${firstError.message}`,
      );
    }
    return withDefaults as ChainConfig;
  });
}

export function loadChainRegistry(chainsFile: string | undefined): ChainRegistry {
  return new ChainRegistry(chainsFile ? loadChainsFile(chainsFile) : BUILT_IN_CHAINS);
}
