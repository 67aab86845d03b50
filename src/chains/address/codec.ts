// How a chain writes its addresses at the API's edges: parse what a client sends into the stored form, and present
// the stored form as the chain's users write it. EVM chains: any case in, lowercase hex out. Tron-kind chains:
// base58check or hex in, base58check out (tron.ts). The stored form is 0x + 40 lowercase hex on every chain.
import { parseTronAddress, tronBase58 } from "./tron.ts";

export type ChainKind = "evm" | "tron";

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

export const codecOfKind = (kind: ChainKind | undefined): AddressCodec =>
  kind === "tron" ? TRON_CODEC : EVM_CODEC;

/** Stored addresses inside free text (reasons, markdown): 0x + 40 hex, not part of a longer hex string. */
const IN_TEXT = /(?<![0-9a-fA-Fx])0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g;

/** The text with every stored address in it written as the chain writes it. */
export function presentInText(codec: AddressCodec, text: string): string {
  return codec.kind === "evm" ? text : text.replace(IN_TEXT, (found) => codec.present(found));
}
