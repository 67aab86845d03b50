// Which chain a label belongs to. EVM chains are keyed by their chain id, and 0 means "every EVM chain" (one key
// controls an EVM address on all of them). Tron is a chain of the ledger (728126428): its labels are stored as its
// transfers are, in the 0x form, so the risk core matches them (base58check `T...` is decoded with its checksum,
// never lowercased). Bitcoin's go to its mainnet ledger id (177005167), checked by its codec (a row that fails is
// skipped). Chains the ledger does not follow get −(1,000,000 + SLIP-44 coin type), e.g. Litecoin −1000002, so
// they never collide with an EVM chain id (docs/labels.md).
import { normalizeEvmAddress } from "../../chains/address/index.ts";
import {
  BITCOIN_CHAIN_IDS,
  BITCOIN_LABEL_CHAINS,
  BUILT_IN_CHAINS,
  ChainRegistry,
  TRON_MAINNET_ID,
} from "../../chains/index.ts";

export const ALL_EVM_CHAINS = 0;

/** Chain names of the normalized label files (docs/labels.md) and their EVM chain ids. */
export const EVM_CHAIN_IDS: Readonly<Record<string, number>> = {
  ethereum: 1,
  optimism: 10,
  bsc: 56,
  ethereum_classic: 61,
  gnosis: 100,
  polygon: 137,
  fantom: 250,
  base: 8453,
  arbitrum: 42161,
  celo: 42220,
  avalanche: 43114,
};

/** SLIP-44 coin types of the non-EVM chains labels are kept for. */
const SLIP44: Readonly<Record<string, number>> = {
  bitcoin: 0,
  litecoin: 2,
  dogecoin: 3,
  dash: 5,
  verge: 77,
  monero: 128,
  zcash: 133,
  ripple: 144,
  bitcoin_cash: 145,
  stellar: 148,
  bitcoin_gold: 156,
  eos: 194,
  // Tron's labels were kept here (−1000195, the base58 text as written) before Tron became a ledger chain; the id
  // stays known so the rows imported then can still be read and named (docs/labels.md, "Tron").
  tron: 195,
  bitcoin_sv: 236,
  solana: 501,
  bnb_beacon_chain: 714,
  cardano: 1815,
};

export const nonEvmChainId = (slip44: number) => -(1_000_000 + slip44);

export const NON_EVM_CHAIN_IDS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(SLIP44).map(([name, coin]) => [name, nonEvmChainId(coin)]),
);

/** Tron's former pseudo chain: labels given for it (a CSV's chain_id) now go to Tron mainnet. */
export const LEGACY_TRON_CHAIN_ID = nonEvmChainId(195);

/** Ledger chains whose addresses are written otherwise than EVM's (their codec says how), by label chain name. */
export const CODEC_CHAIN_IDS: Readonly<Record<string, number>> = {
  tron: TRON_MAINNET_ID,
  bitcoin: BITCOIN_CHAIN_IDS.mainnet,
};

/** Bitcoin's former pseudo chain: labels given for it (a CSV's chain_id) now go to Bitcoin mainnet's ledger id. */
export const LEGACY_BITCOIN_CHAIN_ID = nonEvmChainId(0);

const NAME_BY_ID = new Map<number, string>([
  [ALL_EVM_CHAINS, "evm"],
  ...Object.entries(EVM_CHAIN_IDS).map(([name, id]) => [id, name] as [number, string]),
  ...Object.entries(NON_EVM_CHAIN_IDS).map(([name, id]) => [id, name] as [number, string]),
  ...Object.entries(CODEC_CHAIN_IDS).map(([name, id]) => [id, name] as [number, string]),
]);

/**
 * How the ledger's chains write addresses; labels are imported without a configured service, so the built-in list
 * and Bitcoin's networks (declared in VIGIA_CHAINS when used, under their documented ids).
 */
const LEDGER_CHAINS = new ChainRegistry([...BUILT_IN_CHAINS, ...BITCOIN_LABEL_CHAINS]);

/**
 * Positive ids are ledger chains (EVM; Tron stored in the EVM form; Bitcoin, its addresses as its codec stores
 * them), 0 every EVM chain; the ids of chains the ledger does not follow are negative.
 */
export const isEvmChainId = (id: number) => id >= 0;
export const isKnownChainId = (id: number) => id >= 0 || NAME_BY_ID.has(id);
export const chainNameOf = (id: number): string | undefined => NAME_BY_ID.get(id);

/** Where a label goes, or why it is skipped (a chain Vigía keeps no labels for), or why the row is wrong. */
export type ChainResolution = { chainId: number; address: string } | { skip: string } | { error: string };

const TRON = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
/** A base58 Tron address somebody lowercased: its checksum can't be checked, nor its case recovered. */
const LOWERCASED_TRON = /^t[1-9a-z]{33}$/;
const BITCOIN = /^([13][1-9A-HJ-NP-Za-km-z]{25,34}|bc1[02-9ac-hj-np-z]{8,87}|BC1[02-9AC-HJ-NP-Z]{8,87})$/;
/** Printable, no spaces: the only check made on addresses of non-EVM chains (their case is kept). */
const PLAIN_ADDRESS = /^[\x21-\x7e]{1,200}$/;

/**
 * Puts `raw` on `chainId`: EVM addresses lowercased and checked; addresses of a ledger chain with a codec of its own
 * (Tron) parsed by it into the stored 0x form, their checksum checked; others kept as written.
 */
export function placeAddress(requested: number, raw: string): ChainResolution {
  const address = raw.trim();
  const chainId =
    requested === LEGACY_TRON_CHAIN_ID
      ? TRON_MAINNET_ID
      : requested === LEGACY_BITCOIN_CHAIN_ID
        ? BITCOIN_CHAIN_IDS.mainnet
        : requested;
  const codec = LEDGER_CHAINS.codec(chainId);
  if (codec.kind !== "evm") {
    if (LOWERCASED_TRON.test(address))
      return {
        error: `"${address}" is a lowercased Tron address: base58 is case-sensitive, the original case is needed`,
      };
    const parsed = codec.parse(address);
    if (!("error" in parsed)) return { chainId, address: parsed.address };
    // Sources lowercase base58 or mistype Bitcoin addresses (plustoken's TagPack, republished OFAC lists): such a row
    // labels no address, and is skipped, counted, rather than failing a whole file that once imported.
    if (codec.kind === "bitcoin")
      return { skip: "Bitcoin address failing its checksum or network (often lowercased by its source)" };
    return { error: `"${address}" ${parsed.error}` };
  }
  if (isEvmChainId(chainId)) {
    const evm = normalizeEvmAddress(address);
    return evm ? { chainId, address: evm } : { error: `"${address}" is not an EVM address` };
  }
  return PLAIN_ADDRESS.test(address)
    ? { chainId, address }
    : { error: `"${address}" is not a valid address (printable, no spaces, at most 200 characters)` };
}

/** A token that lives on several chains (USDT, USDC): the chain follows from the address form. */
function byAddressForm(what: string, raw: string): ChainResolution {
  const address = raw.trim();
  if (address.startsWith("0x")) return placeAddress(ALL_EVM_CHAINS, address);
  if (TRON.test(address)) return placeAddress(TRON_MAINNET_ID, address);
  if (BITCOIN.test(address)) return placeAddress(BITCOIN_CHAIN_IDS.mainnet, address); // Omni layer
  return { skip: `${what}: cannot tell the chain from the address form` };
}

const MULTI_CHAIN_TOKENS = new Set(["usdt", "usdc"]);

/**
 * A chain name of the normalized CSV files ("ethereum", "bitcoin", "usdt(unspecified chain)", ...). Unknown names
 * are skipped, not rejected: they name chains Vigía keeps no labels for.
 */
export function resolveChainName(name: string, address: string): ChainResolution {
  const key = name.trim().toLowerCase();
  if (key === "evm" || key === "all") return placeAddress(ALL_EVM_CHAINS, address);
  const id = EVM_CHAIN_IDS[key] ?? CODEC_CHAIN_IDS[key] ?? NON_EVM_CHAIN_IDS[key];
  if (id !== undefined) return placeAddress(id, address);
  const token = key.replace(/\s*\(unspecified chain\)$/, "");
  if (MULTI_CHAIN_TOKENS.has(token)) return byAddressForm(`chain "${name}"`, address);
  return { skip: `unsupported chain "${name}"` };
}

/** Currency / network codes of TagPacks and of OFAC's "Digital Currency Address - XXX" to chain names. */
const CODE_CHAINS: Readonly<Record<string, string>> = {
  BTC: "bitcoin",
  XBT: "bitcoin",
  LTC: "litecoin",
  DOGE: "dogecoin",
  DASH: "dash",
  XVG: "verge",
  XMR: "monero",
  ZEC: "zcash",
  XRP: "ripple",
  RIPPLE: "ripple",
  BCH: "bitcoin_cash",
  XLM: "stellar",
  BTG: "bitcoin_gold",
  EOS: "eos",
  TRX: "tron",
  BSV: "bitcoin_sv",
  SOL: "solana",
  BEP2: "bnb_beacon_chain",
  ADA: "cardano",
  BSC: "bsc",
  BEP20: "bsc",
  MATIC: "polygon",
  POL: "polygon",
  ARB: "arbitrum",
  OP: "optimism",
  BASE: "base",
  AVAX: "avalanche",
  FTM: "fantom",
  ETC: "ethereum_classic",
  GNO: "gnosis",
  XDAI: "gnosis",
  CELO: "celo",
};

/**
 * A TagPack currency/network or an OFAC currency code. ETH means every EVM chain (chain id 0); a code naming
 * another EVM chain (BSC, MATIC, ARB, ...) puts the label on that chain. A non-0x address under an EVM code (an
 * Avalanche X-chain address under AVAX) is skipped; a malformed 0x address is an error.
 */
export function resolveCurrency(code: string, address: string): ChainResolution {
  const key = code.trim().toUpperCase();
  const raw = address.trim();
  if (key === "ETH") return placeAddress(ALL_EVM_CHAINS, raw);
  if (key === "BNB") {
    if (raw.startsWith("0x")) return placeAddress(EVM_CHAIN_IDS.bsc!, raw);
    return placeAddress(NON_EVM_CHAIN_IDS.bnb_beacon_chain!, raw);
  }
  if (MULTI_CHAIN_TOKENS.has(key.toLowerCase())) return byAddressForm(`currency ${key}`, raw);
  const name = CODE_CHAINS[key] ?? (key.toLowerCase() in EVM_CHAIN_IDS ? key.toLowerCase() : undefined);
  if (!name) return { skip: `unsupported currency ${code.trim()}` };
  const id = EVM_CHAIN_IDS[name] ?? CODEC_CHAIN_IDS[name] ?? NON_EVM_CHAIN_IDS[name]!;
  if (isEvmChainId(id) && LEDGER_CHAINS.codec(id).kind === "evm" && !raw.startsWith("0x"))
    return { skip: `currency ${key}: address is not on the EVM chain` };
  return placeAddress(id, raw);
}
