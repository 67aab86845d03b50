// Which kind of address a string is, checked with its own checksum (docs/api.md, "Wallet background report"):
// EVM (0x + 40 hex), Bitcoin (base58check P2PKH/P2SH; bech32 segwit v0 and bech32m v1+, mainnet), Solana (base58,
// 32 bytes), Tron (base58check, 21 bytes starting 0x41) and Stellar (StrKey account `G...`, CRC16-XModem). The
// decoding is @scure/base's; only Stellar's two-byte CRC is computed here. Anything else is not an address.
import { sha256 } from "@noble/hashes/sha256";
import { base32, base58, bech32, bech32m, createBase58check } from "@scure/base";

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

function segwit(value: string): string | undefined {
  const lower = value.toLowerCase();
  // Mixed case is invalid in bech32.
  if (value !== lower && value !== value.toUpperCase()) return undefined;
  if (!lower.startsWith("bc1")) return undefined;
  const v0 = attempt(() => bech32.decode(lower as `${string}1${string}`, 90));
  if (v0) {
    const [version, ...rest] = v0.words;
    const program = attempt(() => bech32.fromWords(rest));
    return v0.prefix === "bc" && version === 0 && program && (program.length === 20 || program.length === 32)
      ? lower
      : undefined;
  }
  const v1 = attempt(() => bech32m.decode(lower as `${string}1${string}`, 90));
  if (!v1) return undefined;
  const [version, ...rest] = v1.words;
  const program = attempt(() => bech32m.fromWords(rest));
  return v1.prefix === "bc" && version !== undefined && version >= 1 && version <= 16 && program
    ? program.length >= 2 && program.length <= 40
      ? lower
      : undefined
    : undefined;
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
  const bech = segwit(value);
  if (bech) return { family: "bitcoin", address: bech };
  const checked = attempt(() => base58check.decode(value));
  if (checked) {
    if (checked.length === 21 && checked[0] === 0x41 && value.startsWith("T"))
      return { family: "tron", address: value };
    if (checked.length === 21 && (checked[0] === 0x00 || checked[0] === 0x05))
      return { family: "bitcoin", address: value };
    return undefined;
  }
  const star = stellar(value);
  if (star) return { family: "stellar", address: star };
  if (/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value) && attempt(() => base58.decode(value))?.length === 32)
    return { family: "solana", address: value };
  return undefined;
}
