// Which kind of address a string is, checked with its own checksum (docs/api.md, "Wallet background report"):
// EVM (0x + 40 hex), Bitcoin (mainnet P2PKH, P2SH, P2WPKH, P2WSH and P2TR, as bitcoin.ts checks them), Solana
// (base58, 32 bytes), Tron (base58check, 21 bytes starting 0x41) and Stellar (StrKey account `G...`, CRC16-XModem).
// The decoding is @scure/base's; only Stellar's two-byte CRC is computed here. Anything else is not an address.
import { sha256 } from "@noble/hashes/sha256";
import { base32, base58, createBase58check } from "@scure/base";
import { parseBitcoinAddress } from "./bitcoin.ts";

export type AddressFamily = "evm" | "bitcoin" | "solana" | "tron" | "stellar";

export interface ParsedAddress {
  family: AddressFamily;
  /** the address as the service stores it: EVM and bech32 in lower case, the others as written */
  address: string;
}

const base58check = createBase58check(sha256);
const EVM = /^0x[0-9a-fA-F]{40}$/;

function attempt<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch {
    return undefined;
  }
}

/** CRC16-XModem (polynomial 0x1021, initial 0), as Stellar's StrKey checksum. */
function crc16xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function stellar(value: string): string | undefined {
  if (!/^G[A-Z2-7]{55}$/.test(value)) return undefined;
  const bytes = attempt(() => base32.decode(value));
  if (bytes?.length !== 35 || bytes[0] !== 6 << 3) return undefined;
  const crc = crc16xmodem(bytes.subarray(0, 33));
  return (bytes[33] as number) === (crc & 0xff) && (bytes[34] as number) === crc >> 8 ? value : undefined;
}

/** The family and stored form of an address, or undefined when it is none of the known kinds. */
export function parseAddress(raw: string): ParsedAddress | undefined {
  const value = raw.trim();
  if (value.length === 0 || value.length > 100) return undefined;
  if (EVM.test(value)) return { family: "evm", address: value.toLowerCase() };
  const bitcoin = parseBitcoinAddress(value, "mainnet");
  if ("address" in bitcoin) return { family: "bitcoin", address: bitcoin.address.address };
  const checked = attempt(() => base58check.decode(value));
  if (checked) {
    if (checked.length === 21 && checked[0] === 0x41 && value.startsWith("T"))
      return { family: "tron", address: value };
    return undefined;
  }
  const star = stellar(value);
  if (star) return { family: "stellar", address: star };
  if (/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value) && attempt(() => base58.decode(value))?.length === 32)
    return { family: "solana", address: value };
  return undefined;
}
