// Address families (families.ts) and the EVM address and hash forms: accepted in any case, stored and answered in lowercase (docs/api.md).
import { parseBitcoinAddress } from "./bitcoin.ts";

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

export const isEvmAddress = (value: string) => EVM_ADDRESS.test(value);
export const isTxHash = (value: string) => TX_HASH.test(value);

/** Lowercase form of an EVM address, or undefined when it isn't one. */
export function normalizeEvmAddress(value: string): string | undefined {
  const trimmed = value.trim();
  return EVM_ADDRESS.test(trimmed) ? trimmed.toLowerCase() : undefined;
}

export const NATIVE_TOKEN = "native";

/**
 * An address in the form the store keeps, whatever its chain: an EVM (or Tron) address in lower case, or a Bitcoin
 * address of any network as its codec stores it. Undefined for anything else.
 */
export function normalizeStoredAddress(value: string): string | undefined {
  const evm = normalizeEvmAddress(value);
  if (evm) return evm;
  for (const network of ["mainnet", "testnet", "regtest"] as const) {
    const parsed = parseBitcoinAddress(value, network);
    if ("address" in parsed) return parsed.address.address;
  }
  return undefined;
}

export {
  type BitcoinAddress,
  type BitcoinAddressType,
  type BitcoinNetwork,
  decodeSegwit,
  parseBitcoinAddress,
} from "./bitcoin.ts";
export {
  type AddressCodec,
  type ChainKind,
  codecOfKind,
  EVM_CODEC,
  presentInText,
  TRON_CODEC,
} from "./codec.ts";
export { type AddressFamily, type ParsedAddress, parseAddress } from "./families.ts";
export { presentAddresses } from "./present.ts";
export { parseTronAddress, tronBase58 } from "./tron.ts";
