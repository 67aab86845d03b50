// The chains the service knows: a built-in list, or the JSON file named by VIGIA_CHAINS, which replaces it.
import fs from "node:fs";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { AppError } from "../platform/errors.ts";
import { type AddressCodec, codecOfKind } from "./address/codec.ts";

const HttpUrl = Type.String({ pattern: "^https?://[^\\s]+$" });

export const ChainConfigSchema = Type.Object(
  {
    id: Type.Integer({
      minimum: 1,
      maximum: 2147483647,
      description: "The chain id its node answers to eth_chainId (Tron mainnet: 728126428)",
    }),
    name: Type.String({ minLength: 1 }),
    // The id the node answers to eth_chainId when it does not fit the service's 32-bit chain ids (Tron's Nile
    // testnet answers 3448148188): `id` is then the service's own number for the chain. Absent: `id`.
    node_chain_id: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
    // How the chain writes addresses and what its node speaks: "evm" (default), "tron" (base58check addresses at
    // the API's edges, the node's /jsonrpc subset, TronGrid for histories: docs/decisions/0033-tron.md) or "bitcoin"
    // (a UTXO chain: its addresses as bitcoin.ts checks them, satoshis, data from `vigia import btc-etl`, a Bitcoin
    // Core node and an Esplora API when they are named: docs/decisions/0052-bitcoin-chains.md).
    kind: Type.Optional(
      Type.Union([Type.Literal("evm"), Type.Literal("tron"), Type.Literal("bitcoin")], { default: "evm" }),
    ),
    // A Bitcoin chain's network, which its addresses say (bc1/1/3 on mainnet, tb1/m/n/2 on testnet, bcrt1 on
    // regtest). Absent: mainnet.
    bitcoin_network: Type.Optional(
      Type.Union([Type.Literal("mainnet"), Type.Literal("testnet"), Type.Literal("regtest")]),
    ),
    currency_symbol: Type.String({ minLength: 1 }),
    currency_decimals: Type.Integer({ minimum: 0, maximum: 36, default: 18 }),
    explorer_url: Type.Union([HttpUrl, Type.Null()], { default: null }),
    /**
     * Base URL of a Blockscout instance (without /api/v2), the source of network stats and market data, and of
     * address histories when the chain has no `explorer_api_url` and public explorers are on (VIGIA_PUBLIC_EXPLORERS).
     */
    blockscout_url: Type.Union([HttpUrl, Type.Null()], { default: null }),
    /** JSON-RPC endpoint for the indexer; never exposed over the API (it often carries a provider key). */
    rpc_url: Type.Union([HttpUrl, Type.Null()], { default: null }),
    coin_image: Type.Union([Type.String(), Type.Null()], { default: null }),
    // Tokens valued at a fixed USD amount when no day's price is imported: the law rules' convention for USD
    // stablecoins (docs/regulation.md, "Valuing transfers"). Tron mainnet lists USDT.
    // Tron-kind chains: the node's HTTP API root (/wallet/…), which tells a TRX transfer from a TRC-10 one (its
    // JSON-RPC gives both the same `value`). Absent: the rpc_url without /jsonrpc (TronGrid, java-tron's default);
    // null: the node has none (the devnet's anvil), and every plain transfer of value is TRX.
    tron_http_url: Type.Optional(Type.Union([HttpUrl, Type.Null()])),
    // Token contracts (as the chain writes them) whose AddedBlackList / RemovedBlackList events are the issuer's
    // freezes, read by the indexer as `blacklisted_by_issuer` labels. Absent: USDT on Tron mainnet, none elsewhere.
    issuer_freeze_contracts: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 100 })),
    pegged_tokens: Type.Optional(
      Type.Array(
        Type.Object(
          {
            address: Type.String({
              minLength: 1,
              description: "as the chain writes it (Tron: base58 or hex)",
            }),
            symbol: Type.String({ minLength: 1 }),
            decimals: Type.Integer({ minimum: 0, maximum: 36 }),
            usd: Type.Number({ exclusiveMinimum: 0, default: 1 }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 100 },
      ),
    ),
    enabled: Type.Boolean({ default: true }),
    // The indexer (src/chains/indexer) follows chains with an rpc_url from `start_block` (when it has no
    // checkpoint yet) to `confirmations` blocks behind the head: absent or null means 0 on the devnet, 12 elsewhere.
    start_block: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
    confirmations: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 100_000 }), Type.Null()])),
    // Address histories on demand (src/chains/explorer), read by every analysis of the chain. Absent: the chain's
    // `blockscout_url` when public explorers are on; null: none. Kind "blockscout", no key and 5 requests per
    // second by default (docs/decisions/0025-public-explorers-by-default.md).
    explorer_api_url: Type.Optional(
      Type.Union([Type.String({ pattern: "^https?://" }), Type.Null()], {
        description:
          "Explorer API base: a Blockscout instance, or an Etherscan-compatible `.../api` endpoint",
      }),
    ),
    explorer_api_kind: Type.Optional(
      Type.Union(
        [
          Type.Literal("blockscout"),
          Type.Literal("etherscan"),
          Type.Literal("trongrid"),
          Type.Literal("esplora"),
        ],
        {
          description:
            '"blockscout" (API v2), "etherscan" (module=account&action=txlist|tokentx), "trongrid" (TronGrid\'s /v1/accounts API, Tron chains) or "esplora" (Esplora\'s /address API, Bitcoin chains); default blockscout, trongrid on Tron chains, esplora on Bitcoin chains',
        },
      ),
    ),
    /** Sent as `apikey`; never exposed over the API. */
    explorer_api_key: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
    explorer_rate_limit_per_second: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1000,
        description: "Requests per second to the explorer host; default 5",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ChainConfig = Static<typeof ChainConfigSchema>;

export const DEVNET_CHAIN_ID = 31337;
/** Tron mainnet's id, as its node answers eth_chainId (0x2b6653dc). */
export const TRON_MAINNET_ID = 728126428;
/**
 * The Vigía Tron devnet (src/devnet/tron-devnet.ts): an anvil answering this id, not mainnet's, so that mainnet's
 * labels (real OFAC designations) never apply to the devnet's made-up addresses. 728131337: Tron's 7281… and
 * anvil's 31337; it fits the store's 32-bit ids and is no chain of the public chain list.
 */
export const TRON_DEVNET_CHAIN_ID = 728131337;
/** The devnet's USDT (Tether's blacklist included), deployed first by its issuer account. */
const TRON_DEVNET_USDT = "0xca59d90a8b0e112a292e8f9618047a712df3f8d8";

/**
 * Bitcoin's ids (docs/decisions/0052-bitcoin-chains.md): the genesis block hash's last four bytes, top bit cleared,
 * as Tron's node derives its eth_chainId. The built-in list has mainnet (labels, imports, an Esplora or a node named
 * in VIGIA_CHAINS) and the Bitcoin devnet on regtest's id; the labels of Bitcoin addresses are kept under these ids.
 */
export const BITCOIN_CHAIN_IDS = { mainnet: 177005167, testnet: 1467959619, regtest: 1181622790 } as const;

/**
 * The Vigía Bitcoin devnet (src/devnet/bitcoin-devnet.ts): no node, a seeded demo world imported into the store at
 * start, its addresses regtest's (bcrt1…), so no mainnet label ever applies to them.
 */
export const BITCOIN_DEVNET_CHAIN_ID = BITCOIN_CHAIN_IDS.regtest;

/** The Bitcoin chains as labels are placed on them (their codecs), not as the service lists them. */
export const BITCOIN_LABEL_CHAINS: ChainConfig[] = (["mainnet", "testnet", "regtest"] as const).map(
  (network) => ({
    ...chain(BITCOIN_CHAIN_IDS[network], `Bitcoin ${network}`, "BTC", null, null),
    kind: "bitcoin",
    bitcoin_network: network,
    currency_decimals: 8,
    explorer_api_url: null,
  }),
);

/** The local devnets' chains: followed only where devnets run (src/devnet/when.ts). */
export const isDevnetChain = (id: number) => id === DEVNET_CHAIN_ID || id === TRON_DEVNET_CHAIN_ID;

export const BUILT_IN_CHAINS: ChainConfig[] = [
  chain(1, "Ethereum", "ETH", "https://etherscan.io", "https://eth.blockscout.com"),
  chain(137, "Polygon PoS", "POL", "https://polygonscan.com", "https://polygon.blockscout.com"),
  chain(56, "BNB Smart Chain", "BNB", "https://bscscan.com", null),
  chain(42161, "Arbitrum One", "ETH", "https://arbiscan.io", "https://arbitrum.blockscout.com"),
  chain(8453, "Base", "ETH", "https://basescan.org", "https://base.blockscout.com"),
  // Avalanche has no public Blockscout instance: its explorer is Snowtrace (Routescan), for links only; histories
  // come from an indexer (`rpc_url`) or an Etherscan-compatible `explorer_api_url` set in a VIGIA_CHAINS file.
  chain(43114, "Avalanche C-Chain", "AVAX", "https://snowtrace.io", null),
  chain(43113, "Avalanche Fuji", "AVAX", "https://testnet.snowtrace.io", null),
  { ...chain(DEVNET_CHAIN_ID, "Vigía devnet", "ETH", null, null), rpc_url: "http://127.0.0.1:8545" },
  // Tron: TRX has 6 decimals (1 TRX = 1,000,000 sun).
  {
    ...chain(TRON_MAINNET_ID, "Tron", "TRX", "https://tronscan.org", null),
    kind: "tron",
    currency_decimals: 6,
    // Tether's USDT (TRC-20), 6 decimals: https://tronscan.org/#/token20/TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t
    pegged_tokens: [{ address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", symbol: "USDT", decimals: 6, usd: 1 }],
  },
  // The Tron devnet's anvil (README, "The Tron devnet"): no HTTP API of a Tron node, no explorer, final at once.
  {
    ...chain(TRON_DEVNET_CHAIN_ID, "Vigía Tron devnet", "TRX", null, null),
    kind: "tron",
    currency_decimals: 6,
    rpc_url: "http://127.0.0.1:8546",
    confirmations: 0,
    explorer_api_url: null,
    tron_http_url: null,
    issuer_freeze_contracts: [TRON_DEVNET_USDT],
    pegged_tokens: [{ address: TRON_DEVNET_USDT, symbol: "USDT", decimals: 6, usd: 1 }],
  },
  // Bitcoin: BTC has 8 decimals (satoshis). No public Esplora by default: an operator names one (or a node) in
  // VIGIA_CHAINS; without, the chain has what `vigia import btc-etl` brought and the sanctions lists' labels.
  {
    ...chain(BITCOIN_CHAIN_IDS.mainnet, "Bitcoin", "BTC", "https://mempool.space", null),
    kind: "bitcoin",
    bitcoin_network: "mainnet",
    currency_decimals: 8,
    explorer_api_url: null,
  },
  {
    ...chain(BITCOIN_DEVNET_CHAIN_ID, "Vigía Bitcoin devnet", "BTC", null, null),
    kind: "bitcoin",
    bitcoin_network: "regtest",
    currency_decimals: 8,
    explorer_api_url: null,
  },
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

  /**
   * The 404 of a chain id this service does not know (or has disabled), naming the chains it does, so that a
   * caller who wrote the wrong id sees the right one.
   */
  unknownChain(id: number | string): AppError {
    const chains = this.enabled()
      .map((c) => `${c.id} (${c.name})`)
      .join(", ");
    return new AppError("not_found", `Chain ${id} not found: the chains here are ${chains}`, {
      text: { id: "error.chain_not_found", params: { chain: String(id), chains } },
    });
  }

  /** How the chain writes addresses (EVM's codec for a chain the registry does not know). */
  codec(id: number): AddressCodec {
    const chain = this.#byId.get(id);
    return codecOfKind(chain?.kind, chain?.bitcoin_network);
  }

  /** The stored form of an address of the chain as a client wrote it, or why it is not one (after the field name). */
  parseAddress(id: number, raw: string): { address: string } | { error: string } {
    return this.codec(id).parse(raw);
  }

  /** Whether any enabled chain writes addresses otherwise than EVM does. */
  hasOtherKinds(): boolean {
    return this.enabled().some((c) => (c.kind ?? "evm") !== "evm");
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
  const seen = new Map<number, number>();
  return list.map((entry, index) => {
    const withDefaults = Value.Default(ChainConfigSchema, structuredClone(entry));
    const firstError = [...Value.Errors(ChainConfigSchema, withDefaults)][0];
    if (firstError) {
      throw new Error(
        `VIGIA_CHAINS: ${file}: chain #${index + 1}: ${firstError.path || "/"} ${firstError.message}`,
      );
    }
    const chain = withDefaults as ChainConfig;
    // A repeated id would silently replace the earlier entry (for instance enable a chain meant to be disabled).
    const earlier = seen.get(chain.id);
    if (earlier !== undefined) {
      throw new Error(
        `VIGIA_CHAINS: ${file}: chain #${index + 1}: /id ${chain.id} is already chain #${earlier}`,
      );
    }
    seen.set(chain.id, index + 1);
    if (chain.kind === "bitcoin") checkBitcoinChain(file, index, entry as Record<string, unknown>, chain);
    else if (chain.bitcoin_network !== undefined) {
      throw new Error(
        `VIGIA_CHAINS: ${file}: chain #${index + 1}: /bitcoin_network is set on a chain of kind ${chain.kind ?? "evm"}: only a Bitcoin chain ("kind": "bitcoin") has one`,
      );
    } else if (chain.explorer_api_kind === "esplora") {
      throw new Error(
        `VIGIA_CHAINS: ${file}: chain #${index + 1}: /explorer_api_kind is "esplora" on a chain of kind ${chain.kind ?? "evm"}: Esplora serves Bitcoin chains ("kind": "bitcoin"); an EVM chain's explorer is "blockscout" or "etherscan", a Tron chain's "trongrid"`,
      );
    }
    // Contract addresses are written as the chain writes them: checked now, with the chain's codec.
    const codec = codecOfKind(chain.kind, chain.bitcoin_network);
    const addresses = [
      ...(chain.issuer_freeze_contracts ?? []).map((a, i) => [`/issuer_freeze_contracts/${i}`, a] as const),
      ...(chain.pegged_tokens ?? []).map((t, i) => [`/pegged_tokens/${i}/address`, t.address] as const),
    ];
    for (const [where, address] of addresses) {
      const parsed = codec.parse(address);
      if ("error" in parsed)
        throw new Error(
          `VIGIA_CHAINS: ${file}: chain #${index + 1}: ${where} ${JSON.stringify(address)} ${parsed.error}`,
        );
    }
    return chain;
  });
}

/**
 * A Bitcoin chain takes its data from imports, a Bitcoin Core node (`rpc_url`, followed by
 * src/chains/indexer/bitcoin-follower.ts) and an Esplora API (`explorer_api_url`, kind "esplora"); a Blockscout or an
 * explorer of another kind is refused with the way that works; its currency has 8 decimals (satoshis).
 */
function checkBitcoinChain(
  file: string,
  index: number,
  entry: Record<string, unknown>,
  chain: ChainConfig,
): void {
  const at = `VIGIA_CHAINS: ${file}: chain #${index + 1}`;
  if (chain.blockscout_url) {
    throw new Error(
      `${at}: /blockscout_url is set, but a Bitcoin chain has no Blockscout: its data comes from bitcoin-etl exports ` +
        '(vigia import btc-etl), a Bitcoin Core node (rpc_url) and an Esplora API (explorer_api_url, "explorer_api_kind": ' +
        '"esplora"); remove it',
    );
  }
  if (chain.explorer_api_kind !== undefined && chain.explorer_api_kind !== "esplora") {
    throw new Error(
      `${at}: /explorer_api_kind is "${chain.explorer_api_kind}", but a Bitcoin chain's histories come from an ` +
        'Esplora API: set "esplora" or leave it out',
    );
  }
  if (chain.pegged_tokens?.length || chain.issuer_freeze_contracts?.length) {
    throw new Error(`${at}: a Bitcoin chain has no token contracts (pegged_tokens, issuer_freeze_contracts)`);
  }
  if (entry.currency_decimals === undefined) chain.currency_decimals = 8;
  else if (chain.currency_decimals !== 8) {
    throw new Error(`${at}: /currency_decimals is ${chain.currency_decimals}; bitcoin has 8 (satoshis)`);
  }
  // No public instance is asked by default: asking one tells it which wallets the service looks at, and public
  // Esplora instances limit their use; an operator names the one it may use.
  chain.explorer_api_url ??= null;
}

export function loadChainRegistry(chainsFile: string | undefined): ChainRegistry {
  return new ChainRegistry(chainsFile ? loadChainsFile(chainsFile) : BUILT_IN_CHAINS);
}
