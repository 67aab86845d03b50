// Bitcoin addresses, checked as the BIPs define them, with a reason a person can act on when they are not one:
// - base58check (P2PKH and P2SH): version byte 0x00 / 0x05 on mainnet, 0x6f / 0xc4 on testnet and regtest, a
//   20-byte hash, and the double-SHA-256 checksum;
// - segwit (BIP-173 bech32 for witness version 0, BIP-350 bech32m for versions 1 to 16): human-readable part `bc`,
//   `tb` or `bcrt`, one case only, a program of 2 to 40 bytes, and 20 (P2WPKH) or 32 (P2WSH) bytes for version 0.
// `decodeSegwit` follows the BIPs exactly (their test vectors pass through it); `parseBitcoinAddress` also refuses
// what no wallet spends: a version 1 program that is not 32 bytes, and versions 2 to 16, which are valid to send to
// but not defined on the network. Each answer carries the output script the address stands for (scriptPubKey),
// which is what a transaction's outputs hold. The decoding is @scure/base's; the policy and the reasons are here.
import { sha256 } from "@noble/hashes/sha256";
import { bech32, bech32m, createBase58check } from "@scure/base";

export type BitcoinNetwork = "mainnet" | "testnet" | "regtest";
export type BitcoinAddressType = "p2pkh" | "p2sh" | "p2wpkh" | "p2wsh" | "p2tr";

export interface BitcoinAddress {
  network: BitcoinNetwork;
  type: BitcoinAddressType;
  /** The stored form: bech32 in lower case, base58 as written (it is case-sensitive). */
  address: string;
  /** The output script the address pays to, in hex. */
  script: string;
}

/** Segwit's human-readable parts (BIP-173; regtest's as Bitcoin Core's chainparams give it). */
const HRP: Record<BitcoinNetwork, string> = { mainnet: "bc", testnet: "tb", regtest: "bcrt" };
const NETWORK_OF_HRP = new Map(Object.entries(HRP).map(([network, hrp]) => [hrp, network as BitcoinNetwork]));
/** base58check version bytes: P2PKH and P2SH. Testnet and regtest share theirs. */
const VERSIONS: Record<BitcoinNetwork, { p2pkh: number; p2sh: number }> = {
  mainnet: { p2pkh: 0x00, p2sh: 0x05 },
  testnet: { p2pkh: 0x6f, p2sh: 0xc4 },
  regtest: { p2pkh: 0x6f, p2sh: 0xc4 },
};

const base58check = createBase58check(sha256);
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
/** A human-readable part, the separator, and data and checksum in bech32's alphabet. */
const BECH32_SHAPE = /^[a-z0-9]+1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/;
/** Segwit addresses are at most 90 characters (BIP-173). */
const SEGWIT_MAX = 90;

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

function attempt<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch {
    return undefined;
  }
}

export interface SegwitProgram {
  hrp: string;
  version: number;
  program: Uint8Array;
  /** OP_n, the push of the program, the program: the scriptPubKey in hex */
  script: string;
}

/**
 * A segwit address's witness version and program, exactly as BIP-173 and BIP-350 decode it (any human-readable
 * part), or the reason it is not one.
 */
export function decodeSegwit(value: string): SegwitProgram | { error: string } {
  if (value !== value.toLowerCase() && value !== value.toUpperCase()) {
    return { error: "mixes upper and lower case (a bech32 address is written in one case)" };
  }
  const lower = value.toLowerCase();
  if (lower.length > SEGWIT_MAX) return { error: `is longer than ${SEGWIT_MAX} characters` };
  const asBech32 = attempt(() => bech32.decode(lower as `${string}1${string}`, SEGWIT_MAX));
  const asBech32m = asBech32
    ? undefined
    : attempt(() => bech32m.decode(lower as `${string}1${string}`, SEGWIT_MAX));
  const decoded = asBech32 ?? asBech32m;
  if (!decoded) {
    return { error: "fails its bech32 checksum (a character is wrong, missing or in the wrong place)" };
  }
  const [version, ...data] = decoded.words;
  if (version === undefined) return { error: "has no witness version or program" };
  if (version > 16) return { error: `has witness version ${version} (0 to 16 exist)` };
  if (version === 0 && asBech32m) {
    return {
      error: "is a segwit version 0 address with a bech32m checksum (version 0 uses bech32, BIP-173)",
    };
  }
  if (version > 0 && asBech32) {
    return {
      error: `is a segwit version ${version} address with a bech32 checksum (versions 1 and up use bech32m, BIP-350)`,
    };
  }
  const program = attempt(() => bech32.fromWords(data));
  if (!program) return { error: "has a witness program with invalid padding" };
  if (program.length < 2 || program.length > 40) {
    return { error: `has a witness program of ${program.length} bytes (2 to 40 allowed)` };
  }
  if (version === 0 && program.length !== 20 && program.length !== 32) {
    return { error: `has a version 0 witness program of ${program.length} bytes (20 or 32, BIP-141)` };
  }
  const opcode = version === 0 ? 0x00 : 0x50 + version;
  return {
    hrp: decoded.prefix,
    version,
    program,
    script: `${opcode.toString(16).padStart(2, "0")}${program.length.toString(16).padStart(2, "0")}${hex(program)}`,
  };
}

function parseSegwit(
  value: string,
  network: BitcoinNetwork,
): { address: BitcoinAddress } | { error: string } {
  const decoded = decodeSegwit(value);
  if ("error" in decoded) return decoded;
  const on = NETWORK_OF_HRP.get(decoded.hrp);
  if (on !== network) {
    return {
      error: on
        ? `is a Bitcoin ${on} address (${decoded.hrp}1...), not a ${network} one`
        : `has the prefix ${decoded.hrp}1, which is not Bitcoin's (${HRP[network]}1 on ${network})`,
    };
  }
  const { version, program } = decoded;
  let type: BitcoinAddressType;
  if (version === 0) type = program.length === 20 ? "p2wpkh" : "p2wsh";
  else if (version === 1 && program.length === 32) type = "p2tr";
  else if (version === 1) {
    return { error: `is a segwit version 1 address of ${program.length} bytes (taproot's are 32: BIP-341)` };
  } else {
    return {
      error: `is a segwit version ${version} address, which no Bitcoin rule defines yet (funds sent there cannot be traced as anyone's)`,
    };
  }
  return { address: { network, type, address: value.toLowerCase(), script: decoded.script } };
}

function parseBase58(
  value: string,
  network: BitcoinNetwork,
): { address: BitcoinAddress } | { error: string } {
  if (!BASE58.test(value)) {
    return { error: "is not a Bitcoin address (base58 has no 0, O, I or l, and segwit addresses start bc1)" };
  }
  const payload = attempt(() => base58check.decode(value));
  if (!payload) return { error: "fails its base58check checksum (a character is wrong, missing or swapped)" };
  if (payload.length !== 21) {
    return {
      error: `holds ${payload.length - 1} bytes after its version (a Bitcoin address holds a 20-byte hash)`,
    };
  }
  const version = payload[0] as number;
  const hash = hex(payload.subarray(1));
  const own = VERSIONS[network];
  if (version === own.p2pkh) {
    return { address: { network, type: "p2pkh", address: value, script: `76a914${hash}88ac` } };
  }
  if (version === own.p2sh)
    return { address: { network, type: "p2sh", address: value, script: `a914${hash}87` } };
  const other = (Object.keys(VERSIONS) as BitcoinNetwork[]).find(
    (n) => VERSIONS[n].p2pkh === version || VERSIONS[n].p2sh === version,
  );
  return {
    error: other
      ? `is a Bitcoin ${other === "mainnet" ? "mainnet" : "testnet"} address, not a ${network} one`
      : `has version byte 0x${version.toString(16).padStart(2, "0")}, which is not a Bitcoin address's`,
  };
}

/**
 * The stored form, type and output script of an address of `network`, or a message saying why `raw` is not one (to
 * follow the field's name: "address ... is not a Bitcoin address").
 */
export function parseBitcoinAddress(
  raw: string,
  network: BitcoinNetwork = "mainnet",
): { address: BitcoinAddress } | { error: string } {
  const value = raw.trim();
  if (value === "") return { error: "is empty" };
  const separator = value.lastIndexOf("1");
  const hrp = separator > 0 ? value.slice(0, separator).toLowerCase() : "";
  // A known segwit prefix reads as segwit, and so does a string of bech32's shape in one case that is not base58
  // (to say its prefix is not Bitcoin's); anything else as base58.
  const oneCase = value === value.toLowerCase() || value === value.toUpperCase();
  const bech32Shaped = oneCase && BECH32_SHAPE.test(value.toLowerCase()) && !BASE58.test(value);
  return NETWORK_OF_HRP.has(hrp) || bech32Shaped ? parseSegwit(value, network) : parseBase58(value, network);
}
