// Tron's address forms and the one the service stores (docs/decisions/0033-tron.md). A Tron address is 21 bytes,
// 0x41 followed by 20: users write it in base58check (`T…`), Tron's HTTP API in hex with the 41 prefix, and its
// Ethereum-compatible JSON-RPC as 0x + the 20 bytes. The service stores the JSON-RPC form (lowercase 0x + 40 hex),
// so the risk core, the ledger and every query treat Tron exactly as an EVM chain; base58 lives only at the edges.
import { sha256 } from "@noble/hashes/sha256";
import { base58, createBase58check } from "@scure/base";

const base58check = createBase58check(sha256);
const TRON_PREFIX = 0x41;
const HEX20 = /^(?:0x|41|0x41)?([0-9a-fA-F]{40})$/;

export type TronParse = { address: string } | { error: string };

/** The stored form (0x + 40 lowercase hex) of a Tron address written in base58check or hex, or why it is none. */
export function parseTronAddress(raw: string): TronParse {
  const value = raw.trim();
  const hex = HEX20.exec(value);
  if (hex) return { address: `0x${(hex[1] as string).toLowerCase()}` };
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(value))
    return {
      error:
        "is not a Tron address: T followed by 33 base58 characters, or 41 / 0x followed by 40 hex digits",
    };
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(value);
  } catch {
    // base58 itself decodes (the pattern above), so what failed is the four-byte checksum.
    return base58.decode(value).length === 25
      ? { error: "has a wrong base58check checksum: a character is mistyped" }
      : { error: "is not a Tron address: it does not decode to 21 bytes" };
  }
  if (bytes.length !== 21 || bytes[0] !== TRON_PREFIX)
    return { error: "is not a Tron address: it does not decode to 0x41 and 20 bytes" };
  return { address: `0x${Buffer.from(bytes.subarray(1)).toString("hex")}` };
}

/** The base58check form (`T…`) of a stored Tron address (0x + 40 hex). */
export function tronBase58(stored: string): string {
  const bytes = new Uint8Array(21);
  bytes[0] = TRON_PREFIX;
  bytes.set(Buffer.from(stored.slice(2), "hex"), 1);
  return base58check.encode(bytes);
}
