// The address of a pay-to-pubkey output (Bitcoin's first years: the coinbases of 2009-2010 and many payments of
// then). Its script (`<pubkey> OP_CHECKSIG`) names a key, not an address, so Bitcoin Core and Esplora give none;
// bitcoin-etl, blockchain explorers and the analytics literature show the P2PKH address of the same key, which is
// who can spend it. Every source here reads it so, so that one transaction is the same transfers whichever source
// brought it.
import { ripemd160 } from "@noble/hashes/ripemd160";
import { sha256 } from "@noble/hashes/sha256";
import { createBase58check, hex } from "@scure/base";
import type { BitcoinNetwork } from "../address/index.ts";

const base58check = createBase58check(sha256);
/** P2PKH's version byte per network (testnet and regtest share it). */
const P2PKH_VERSION: Record<BitcoinNetwork, number> = { mainnet: 0x00, testnet: 0x6f, regtest: 0x6f };
const OP_CHECKSIG = 0xac;

/** The P2PKH address of a P2PK script's key (33-byte compressed or 65-byte uncompressed), or null. */
export function p2pkAddress(scriptHex: string, network: BitcoinNetwork): string | null {
  if (!/^[0-9a-fA-F]*$/.test(scriptHex) || scriptHex.length % 2 !== 0) return null;
  const script = hex.decode(scriptHex.toLowerCase());
  const length = script[0];
  if (
    (length !== 33 && length !== 65) ||
    script.length !== length + 2 ||
    script[length + 1] !== OP_CHECKSIG
  ) {
    return null;
  }
  const key = script.subarray(1, 1 + length);
  if (length === 33 ? key[0] !== 0x02 && key[0] !== 0x03 : key[0] !== 0x04) return null;
  return base58check.encode(Uint8Array.from([P2PKH_VERSION[network], ...ripemd160(sha256(key))]));
}
