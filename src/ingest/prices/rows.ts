// The rows of the two rate files: daily USD prices `chain_id,token,date,price_usd` (token `native` or a token
// contract address) and FX rates `date,currency,per_usd` (units of the currency per US dollar), with what makes
// a row valid. EVM token addresses are lowercased, Tron's (base58check `T...` or hex) stored in the same 0x form as
// its transfers' tokens (placeAddress); amounts are kept as the exact decimal text.
import { NATIVE_TOKEN } from "../../chains/address/index.ts";
import { isEvmChainId, isKnownChainId, placeAddress } from "../labels/chains.ts";
import type { RowOutcome } from "../labels/row-problems.ts";

export interface PriceRow {
  chainId: number;
  token: string;
  day: string;
  priceUsd: string;
}

export interface FxRow {
  day: string;
  currency: string;
  perUsd: string;
}

const DECIMAL = /^\d{1,30}(\.\d{1,30})?$/;

/** A calendar date written YYYY-MM-DD. */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

export function priceRow(values: Record<string, string>): RowOutcome<PriceRow> {
  const idText = values.chain_id ?? "";
  if (!/^-?\d{1,10}$/.test(idText)) return { error: `chain_id "${idText}" is not an integer` };
  const chainId = Number(idText);
  if (chainId === 0 || !isKnownChainId(chainId)) return { error: `chain_id ${chainId} is not a chain` };
  const rawToken = values.token ?? "";
  let token: string | undefined;
  if (rawToken.toLowerCase() === NATIVE_TOKEN) token = NATIVE_TOKEN;
  else if (isEvmChainId(chainId)) {
    const placed = placeAddress(chainId, rawToken);
    if ("chainId" in placed) token = placed.address;
  } else if (/^[\x21-\x7e]{1,200}$/.test(rawToken)) token = rawToken;
  if (!token) return { error: `token "${rawToken}" is neither "native" nor a token address` };
  const day = values.date ?? "";
  if (!isDay(day)) return { error: `date "${day}" is not a YYYY-MM-DD date` };
  const priceUsd = values.price_usd ?? "";
  if (!DECIMAL.test(priceUsd))
    return { error: `price_usd "${priceUsd}" is not a non-negative decimal number` };
  return { row: { chainId, token, day, priceUsd } };
}

export function fxRow(values: Record<string, string>): RowOutcome<FxRow> {
  const day = values.date ?? "";
  if (!isDay(day)) return { error: `date "${day}" is not a YYYY-MM-DD date` };
  const currency = (values.currency ?? "").toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) return { error: `currency "${values.currency}" is not a 3-letter code` };
  const perUsd = values.per_usd ?? "";
  if (!DECIMAL.test(perUsd) || !/[1-9]/.test(perUsd)) {
    return { error: `per_usd "${perUsd}" is not a positive decimal number` };
  }
  return { row: { day, currency, perUsd } };
}
