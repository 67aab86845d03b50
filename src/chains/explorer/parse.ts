// Field readers shared by the adapters: every value from an explorer is checked and put in the store's form
// (lowercase 0x-hex, exact integers), or the page is rejected with an error naming the item and the field.
import { ExplorerError } from "./errors.ts";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const UINT = /^\d+$/;

export type Json = Record<string, unknown>;

export class ItemReader {
  constructor(
    private readonly where: string,
    readonly item: Json,
  ) {}

  static object(value: unknown, where: string): Json {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new ExplorerError("invalid_response", `${where}: not a JSON object`);
    }
    return value as Json;
  }

  fail(field: string, problem: string): never {
    throw new ExplorerError("invalid_response", `${this.where}: ${field} ${problem}`);
  }

  /** The first of `fields` present (explorers renamed some fields over versions). */
  pick(...fields: string[]): unknown {
    for (const field of fields) if (this.item[field] !== undefined) return this.item[field];
    return undefined;
  }

  hash(...fields: string[]): string {
    const value = this.pick(...fields);
    if (typeof value !== "string" || !HASH.test(value)) this.fail(fields[0]!, "is not a transaction hash");
    return value.toLowerCase();
  }

  address(value: unknown, field: string): string {
    if (typeof value !== "string" || !ADDRESS.test(value)) this.fail(field, "is not an address");
    return value.toLowerCase();
  }

  optionalAddress(value: unknown, field: string): string | null {
    if (value === null || value === undefined || value === "") return null;
    return this.address(value, field);
  }

  uint(value: unknown, field: string): bigint {
    if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
    if (typeof value === "string" && UINT.test(value)) return BigInt(value);
    return this.fail(field, "is not a non-negative integer");
  }

  smallInt(value: unknown, field: string): number {
    const n = this.uint(value, field);
    if (n > 2_147_483_647n) this.fail(field, "is out of range");
    return Number(n);
  }

  /** ISO 8601 (Blockscout v2) or unix seconds (Etherscan). */
  time(value: unknown, field: string): Date {
    let ms = Number.NaN;
    if (typeof value === "string" && UINT.test(value)) ms = Number(value) * 1000;
    else if (typeof value === "number" && Number.isSafeInteger(value)) ms = value * 1000;
    else if (typeof value === "string") ms = Date.parse(value);
    if (!Number.isFinite(ms)) this.fail(field, "is not a time");
    return new Date(ms);
  }
}

/** Decimals as the explorers send them ("6", 6, "", null); null when unknown or absurd. */
export function decimals(value: unknown): number | null {
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && UINT.test(value)
        ? Number(value)
        : Number.NaN;
  return Number.isInteger(n) && n >= 0 && n <= 255 ? n : null;
}

/** A short text field (symbol, name), trimmed; null when empty or not text. */
export function text(value: unknown, max = 200): string | null {
  if (typeof value !== "string") return null;
  // PostgreSQL text cannot hold NUL, which some token contracts put in their symbol.
  const trimmed = value.replaceAll("\u0000", "").trim();
  return trimmed ? trimmed.slice(0, max) : null;
}
