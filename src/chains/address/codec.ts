// How a chain writes its addresses at the API's edges: parse what a client sends into the stored form, and present
// the stored form as the chain's users write it. EVM chains: any case in, lowercase hex out. Tron-kind chains:
// base58check or hex in, base58check out (tron.ts); stored as 0x + 40 lowercase hex, as EVM's. Bitcoin chains: the
// network's P2PKH, P2SH, P2WPKH, P2WSH and P2TR addresses, checked (bitcoin.ts), stored and answered as written
// (bech32 in lower case).
import { type BitcoinNetwork, parseBitcoinAddress } from "./bitcoin.ts";
import { parseTronAddress, tronBase58 } from "./tron.ts";

export type ChainKind = "evm" | "tron" | "bitcoin";

export interface AddressCodec {
  kind: ChainKind;
  /** The stored form, or a message saying why `raw` is not an address of the chain (to follow the field's name). */
  parse(raw: string): { address: string } | { error: string };
  /** How the chain's users write a stored address. */
  present(stored: string): string;
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export const EVM_CODEC: AddressCodec = {
  kind: "evm",
  parse(raw) {
    const value = raw.trim();
    return EVM_ADDRESS.test(value)
      ? { address: value.toLowerCase() }
      : { error: "is not an EVM address (0x followed by 40 hex digits)" };
  },
  present: (stored) => stored,
};

export const TRON_CODEC: AddressCodec = {
  kind: "tron",
  parse: parseTronAddress,
  present: (stored) => (EVM_ADDRESS.test(stored) ? tronBase58(stored.toLowerCase()) : stored),
};

const bitcoinCodec = (network: BitcoinNetwork): AddressCodec => ({
  kind: "bitcoin",
  parse(raw) {
    const parsed = parseBitcoinAddress(raw, network);
    return "error" in parsed ? parsed : { address: parsed.address.address };
  },
  present: (stored) => stored,
});
const BITCOIN_CODECS: Record<BitcoinNetwork, AddressCodec> = {
  mainnet: bitcoinCodec("mainnet"),
  testnet: bitcoinCodec("testnet"),
  regtest: bitcoinCodec("regtest"),
};

/** A kind's codec; a Bitcoin chain's depends on its network (mainnet when not said). */
export const codecOfKind = (kind: ChainKind | undefined, network?: BitcoinNetwork): AddressCodec =>
  kind === "tron" ? TRON_CODEC : kind === "bitcoin" ? BITCOIN_CODECS[network ?? "mainnet"] : EVM_CODEC;

/** Stored addresses inside free text (reasons, markdown): 0x + 40 hex, not part of a longer hex string. */
const IN_TEXT = /(?<![0-9a-fA-Fx])0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g;

/** The text with every stored address in it written as the chain writes it. */
export function presentInText(codec: AddressCodec, text: string): string {
  return codec.kind === "tron" ? text.replace(IN_TEXT, (found) => codec.present(found)) : text;
}
