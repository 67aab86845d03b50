// Checks and normalises one field of an ethereum-etl row. Each function returns the stored form or throws a
// `reason` (a FieldError), which the row reader turns into `file:line: reason`.
// Addresses and hashes depend on how the chain writes them (its kind in the chain registry): EVM chains 0x + hex,
// Tron-kind chains as tronetl writes them (base58check `T...` addresses, hashes without 0x) or in hex; both are
// stored in the EVM form (docs/tron-etl.md), so the rest of the import is the same for every chain.
import { type ChainKind, isEvmAddress, isTxHash, parseTronAddress } from "../../chains/address/index.ts";
import { shown } from "./errors.ts";

export class FieldError extends Error {}

/** The address and hash checks of one kind of chain. */
export interface ChainFields {
  address(column: string, value: string): string;
  /** An address, or undefined for an empty field. */
  optionalAddress(column: string, value: string): string | undefined;
  hash(column: string, value: string): string;
}

export function address(column: string, value: string): string {
  if (!isEvmAddress(value)) {
    throw new FieldError(
      `${column} ${value === "" ? "is empty" : `${shown(value)} is not an EVM address (0x and 40 hex digits)`}`,
    );
  }
  return value.toLowerCase();
}

/** An address, or undefined for an empty field. */
export function optionalAddress(column: string, value: string): string | undefined {
  return value === "" ? undefined : address(column, value);
}

export function hash(column: string, value: string): string {
  if (!isTxHash(value)) {
    throw new FieldError(
      `${column} ${value === "" ? "is empty" : `${shown(value)} is not a hash (0x and 64 hex digits)`}`,
    );
  }
  return value.toLowerCase();
}

/**
 * A Tron address: base58check (`T...`, case-sensitive: its checksum is checked, a wrong one names the column) or
 * hex (41 or 0x and 40 hex digits); stored as 0x + 40 lowercase hex, as Tron's JSON-RPC writes it.
 */
export function tronAddress(column: string, value: string): string {
  if (value === "") throw new FieldError(`${column} is empty`);
  const parsed = parseTronAddress(value);
  if ("error" in parsed) throw new FieldError(`${column} ${shown(value)} ${parsed.error}`);
  return parsed.address;
}

const BARE_HASH = /^[0-9a-fA-F]{64}$/;

/** A Tron transaction or block hash: 64 hex digits as tronetl writes them, or with 0x; stored with 0x. */
export function tronHash(column: string, value: string): string {
  if (BARE_HASH.test(value)) return `0x${value.toLowerCase()}`;
  if (isTxHash(value)) return value.toLowerCase();
  throw new FieldError(
    `${column} ${value === "" ? "is empty" : `${shown(value)} is not a hash (64 hex digits, with or without 0x)`}`,
  );
}

const EVM_FIELDS: ChainFields = { address, optionalAddress, hash };
const TRON_FIELDS: ChainFields = {
  address: tronAddress,
  optionalAddress: (column, value) => (value === "" ? undefined : tronAddress(column, value)),
  hash: tronHash,
};

export const fieldsOfKind = (kind: ChainKind): ChainFields => (kind === "tron" ? TRON_FIELDS : EVM_FIELDS);

const DIGITS = /^[0-9]+$/;

/** A non-negative integer that fits PostgreSQL's bigint (block numbers); returned as its decimal string. */
export function bigintText(column: string, value: string): string {
  if (!DIGITS.test(value) || value.length > 18) {
    throw new FieldError(
      `${column} ${value === "" ? "is empty" : `${shown(value)} is not a non-negative integer below 10^18`}`,
    );
  }
  return value.length > 1 && value.charCodeAt(0) === 48 ? String(Number(value)) : value;
}

/** A non-negative integer that fits PostgreSQL's integer (log and transaction indexes). */
export function int32(column: string, value: string): number {
  const n = DIGITS.test(value) && value.length <= 10 ? Number(value) : Number.NaN;
  if (!(n <= 2_147_483_647)) {
    throw new FieldError(
      `${column} ${value === "" ? "is empty" : `${shown(value)} is not a non-negative integer below 2^31`}`,
    );
  }
  return n;
}

/** An amount in the smallest unit: a non-negative decimal integer of at most 78 digits (uint256). */
export function amount(column: string, value: string): string {
  if (!DIGITS.test(value) || value.length > 78) {
    throw new FieldError(
      `${column} ${value === "" ? "is empty" : `${shown(value)} is not a non-negative decimal integer (wei, at most 78 digits)`}`,
    );
  }
  if (value.charCodeAt(0) !== 48 || value.length === 1) return value;
  const trimmed = value.replace(/^0+/, "");
  return trimmed === "" ? "0" : trimmed;
}

export const isZeroAmount = (normalised: string) => normalised === "0";

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(?: ?UTC|Z|\+00:?00)?$/;
const MAX_UNIX_SECONDS = 253_402_300_799; // 9999-12-31T23:59:59Z

/**
 * A block time: unix seconds, or `YYYY-MM-DD HH:MM:SS UTC` as ethereum-etl writes it (also with `T`, `Z` or a
 * fraction, kept to the millisecond). Returned as an ISO 8601 UTC string (`Date.toISOString`).
 */
export function timestamp(column: string, value: string): string {
  if (DIGITS.test(value) && value.length <= 12) {
    const seconds = Number(value);
    if (seconds <= MAX_UNIX_SECONDS) return new Date(seconds * 1000).toISOString();
  }
  const m = DATE_TIME.exec(value);
  if (m) {
    const [, y, mo, d, h, mi, s, fraction] = m;
    const millis = fraction ? Math.floor(Number(`0${fraction}`) * 1000) : 0;
    const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), millis);
    const date = new Date(ms);
    // Date.UTC rolls 2023-02-30 over into March; a real date comes back with the same fields.
    if (
      !Number.isNaN(ms) &&
      date.getUTCFullYear() === Number(y) &&
      date.getUTCMonth() === Number(mo) - 1 &&
      date.getUTCDate() === Number(d) &&
      date.getUTCHours() === Number(h) &&
      date.getUTCMinutes() === Number(mi) &&
      date.getUTCSeconds() === Number(s)
    ) {
      return date.toISOString();
    }
  }
  throw new FieldError(
    `${column} ${value === "" ? "is empty" : `${shown(value)} is not unix seconds nor YYYY-MM-DD HH:MM:SS UTC`}`,
  );
}

/** Text for a token's symbol or name: NUL characters (which PostgreSQL text can't hold) removed, at most 200. */
export function label(value: string): string | null {
  const clean = value.includes("\0") ? value.replaceAll("\0", "") : value;
  return clean === "" ? null : clean.slice(0, 200);
}

/** Token decimals; anything but an integer 0-255 (tokens.csv has garbage for broken tokens) is unknown (null). */
export function decimals(value: string): number | null {
  if (!DIGITS.test(value) || value.length > 3) return null;
  const n = Number(value);
  return n <= 255 ? n : null;
}
